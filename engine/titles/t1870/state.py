"""1870's own game state (State.title_state): share sales awaiting price protection, reissued
corporations, the assigned private markers (cattle, port), the river company's cap, train
acquisition order, the broken bank; and each corporation's destination (Corporation.title_state).
The typed accessors: state1870(game), corp1870(corp) and title1870(game) (the title object)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.state import Corporation, CorpState, TitleState, title_state_as

if TYPE_CHECKING:
    from engine.game import Game
    from engine.titles.t1870.title import Title1870

# the kinds (engine.view.MARKER_KINDS) of the markers of assigned companies; an unknown company
# gives the kind "assigned"
_ASSIGNMENT_KIND = {"SCC": "cattle", "GSC": "port"}


@dataclass(slots=True)
class Sale:
    """A share sale waiting for price protection."""

    corp: str
    pct: int
    president: str | None  # the president just before the sale: he may protect it
    seller: str | None
    certs: list[str] = field(default_factory=list)  # the certificates sold, in order (bought back)


@dataclass(slots=True)
class Assignment:
    """A private company's marker (cattle, port) on a hex, for a corporation."""

    hex: str
    corp: str
    closed: bool = False  # the port's closed side (on the same city)


@dataclass(slots=True)
class State1870(TitleState):
    sell_queue: list[Sale] = field(default_factory=list)  # share sales awaiting price protection
    reissued: list[str] = field(default_factory=list)  # corporations reissued (re-parred)
    assignments: dict[str, Assignment] = field(default_factory=dict)  # company -> its marker
    river_max: int = 40  # the most a corporation pays for the river company
    train_order: list[str] = field(default_factory=list)  # train ids in acquisition order
    ors_in_set: int = 1  # operating rounds in the current set
    bank_broken: bool = False

    def end_triggered_by(self) -> str | None:
        return "bank" if self.bank_broken else None

    def end_when(self, trigger: str) -> str:
        return "set_end" if trigger == "bank" else "or_end"

    def hex_markers(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        for company, a in self.assignments.items():
            if not a.hex:
                continue
            kind = _ASSIGNMENT_KIND.get(str(company), "assigned")
            if kind == "port" and a.closed:
                kind = "port_closed"
            out.setdefault(a.hex, []).append((kind, a.corp or ""))
        return out


@dataclass(slots=True)
class Corp1870(CorpState):
    destination: str | None = None  # the destination marker's hex while it is on the map
    destination_run_hex: str | None = None  # where the destination run went (once reached)
    destination_hex_reached: str | None = None  # where the destination token sits (once placed)
    destination_in_city: bool = False  # the destination token takes a city space

    def destination_reached(self) -> bool:
        return self.destination is None


def state1870(game: Game) -> State1870:
    """The 1870 state of a game of 1870."""
    return title_state_as(game.state, State1870)


def title1870(game: Game) -> Title1870:
    """The title of a game of 1870, as its own class."""
    from engine.titles.t1870.title import Title1870

    t = game.title
    if not isinstance(t, Title1870):
        raise TypeError(f"not an 1870 title: {type(t).__name__}")
    return t


def corp1870(corp: Corporation) -> Corp1870:
    """The 1870 state of a corporation of 1870."""
    cs = corp.title_state
    if not isinstance(cs, Corp1870):
        raise TypeError(f"not an 1870 corporation state: {type(cs).__name__}")
    return cs
