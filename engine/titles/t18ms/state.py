"""18MS's own game state (State.title_state): newly floated companies, the Chattanooga bonus,
companies without the route bonus, trains not for sale, the Birmingham Southern's OR, the last OR."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.state import TitleState, title_state_as

if TYPE_CHECKING:
    from engine.game import Game


@dataclass(slots=True)
class MsState(TitleState):
    recently_floated: list[str] = field(default_factory=list)  # floated since the last OR ended
    chattanooga: bool = False  # the Chattanooga arrow's $50 bonus has been paid
    no_bonus: list[str] = field(default_factory=list)  # corporations without the route bonus
    unbuyable: list[str] = field(default_factory=list)  # train ids the bank will not sell
    bs_or: int | None = None  # the OR in which the Birmingham Southern's lays were begun
    last_or: int = 10  # the game's last OR
    end_noticed: bool = False  # a move was made while the last OR was under way or over

    def fixed_last_or(self) -> int | None:
        return self.last_or


def ms_state(game: Game) -> MsState:
    """The 18MS state of a game of 18MS."""
    return title_state_as(game.state, MsState)
