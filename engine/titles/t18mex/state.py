"""18MEX's own game state (State.title_state): reserved trade-in certificates, the end trigger,
obsolete trains, the NdM merger in progress, the first trains bought, newly floated companies."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.state import TitleState, title_state_as

if TYPE_CHECKING:
    from engine.game import Game


@dataclass(slots=True)
class MexState(TitleState):
    reserved: list[str] = field(default_factory=list)  # trade-in certificates not handed out yet
    cert_limit_adjust: int = 0  # added to the certificate limit (the merger's NdM share)
    sr_started: bool = False  # the first stock round has begun (minors no longer paid flat)
    end_trigger: str | None = None  # "bank" | "stock_market", once the end is triggered
    obsolete: list[str] = field(default_factory=list)  # trains that still run but count no more
    merge_candidates: list[str] = field(default_factory=list)  # to decide on, in order
    cities_to_select: list[str] = field(default_factory=list)  # hexes of a merged token to keep
    merged: str | None = None  # the corporation merging into the NdM now
    ors_in_set: int = 1  # operating rounds in the current set
    first_bought: list[str] = field(default_factory=list)  # train names whose first was bought
    recently_floated: list[str] = field(default_factory=list)  # floated since the last OR ended
    minor_close_pending: bool = False  # minors close at the next stock round (delay_minor_close)

    def end_triggered_by(self) -> str | None:
        return self.end_trigger


def mex_state(game: Game) -> MexState:
    """The 18MEX state of a game of 18MEX."""
    return title_state_as(game.state, MexState)
