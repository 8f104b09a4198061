"""The best routes for the operating corporation of a game, through the title's hooks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.routes.solver import Solution, best_routes

if TYPE_CHECKING:
    from engine.game import Game


def operating_corporation(game: Game) -> Any:
    rnd = game.round
    if getattr(rnd, "kind", "") != "operating" or rnd.finished:
        raise EngineError("No company is operating now.", rule="route.no_operator")
    return rnd.corp()  # type: ignore[attr-defined]


def best_routes_for(game: Game, *, time_limit_ms: int | None = None) -> Solution:
    """The optimum run for the operating corporation's trains in the current state."""
    t = game.title
    corp = operating_corporation(game)
    trains = {tr.id: t.train_spec(game, tr) for tr in t.active_trains(game, corp)}
    if not trains:
        return Solution(routes=[], revenue=0, exact=True)
    return best_routes(t.board(game), corp.id, trains, t.route_rules(game, corp),
                       time_limit_ms=time_limit_ms)
