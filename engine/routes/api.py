"""The best routes for the operating corporation of a game, through the title's hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.routes.solver import Solution

if TYPE_CHECKING:
    from engine.game import Game


def operating_corporation(game: Game) -> Any:
    from engine.flow.operating import OperatingRound

    rnd = game.round
    if not isinstance(rnd, OperatingRound) or rnd.finished:
        raise EngineError("No company is operating now.", rule="route.no_operator")
    return rnd.corp()


def best_routes_for(game: Game, *, time_limit_ms: int | None = None) -> Solution:
    """The optimum run the rules allow the operating corporation's trains in the current state
    (the title's `best_run`: e.g. an 1870 connection run keeps one train home-destination)."""
    sol: Solution = game.title.best_run(game, operating_corporation(game), time_limit_ms=time_limit_ms)
    return sol
