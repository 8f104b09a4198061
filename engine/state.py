"""Mutable game state, derived only by applying actions (see engine/game.py).

Plain dataclasses; rules live in engine/flow and the title hooks, not here. A title keeps its
own state in a subclass of TitleState (State.title_state) and, per corporation, of CorpState
(Corporation.title_state), defined in the title's state.py; the generic engine reads them only
through the methods declared here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

IPO = "ipo"  # owner id of certificates still in the initial offering (or the treasury)
MARKET = "market"  # owner id of certificates in the open market (pool)
BANK = "bank"


@dataclass(slots=True)
class Cert:
    id: str  # "GMO_1"
    corp: str
    percent: int
    president: bool
    owner: str = IPO  # IPO | MARKET | player id | corporation id
    # acquisition order: raised (per corporation) each time the certificate changes holder, so
    # that each holder keeps its certificates in the order it got them (shares.move)
    seq: int = 0


@dataclass(slots=True)
class Train:
    id: str  # "2+-0"
    name: str  # card name "2+", "2D"
    face: str  # face bought/run: "2+", "4D"
    price: int
    owner: str | None = None  # None = bank/depot, corporation id otherwise
    operated: bool = False  # ran in the current OR
    gone: bool = False  # rusted / obsolete / removed
    sellable: bool = True
    discarded: bool = False  # in the open market (1870 discards)


@dataclass(slots=True)
class Player:
    id: str
    name: str
    cash: int
    bankrupt: bool = False


@dataclass(slots=True)
class Company:
    id: str
    name: str
    value: int
    revenue: int
    owner: str | None = None  # player or corporation id
    closed: bool = False
    uses: int = 0  # ability uses so far


@dataclass(slots=True)
class Token:
    cost: int
    hex: str | None = None  # placed where (None = still on the charter)
    city: int = 0
    slot: int = 0


@dataclass(slots=True)
class CorpState:
    """A title's own state of one corporation (a title subclasses it); the base has none."""

    def destination_reached(self) -> bool:
        """Whether the corporation has reached its destination (titles with destinations)."""
        return False


@dataclass(slots=True)
class Corporation:
    id: str
    name: str
    color: str
    kind: str  # "corporation" | "minor"
    home: tuple[str, int] | None
    tokens: list[Token]
    float_percent: int
    certs: list[Cert]
    cash: int = 0
    par: int | None = None
    cell: tuple[int, int] | None = None  # market (row, col)
    floated: bool = False
    ipoed: bool = False
    closed: bool = False
    operated_turns: int = 0  # operating turns taken so far
    cert_moves: int = 0  # last acquisition number given to one of its certificates (Cert.seq)
    owner: str | None = None  # a minor's owning player (None while it is unsold)
    # percent a player holds beyond what the presidency checks count (shares.counted): the
    # site counts holdings by the transfers made and not the certificates a presidency
    # exchange hands over, so an uneven exchange (18MEX: 10% + 5% for the 20%) leaves a gap
    uncounted: dict[str, int] = field(default_factory=dict)
    # the president while he does not hold the president's certificate (1870, as on the site:
    # a price protection took it back from him, shares.president); None: its holder presides
    president_apart: str | None = None
    title_state: CorpState = field(default_factory=CorpState)


@dataclass(slots=True)
class Bank:
    cash: int


@dataclass(frozen=True, slots=True)
class PlacedTile:
    tile: str  # tile name ("57")
    copy_id: str  # "57-1"
    rotation: int


@dataclass(slots=True)
class TitleState:
    """A title's own game state (a title subclasses it). The base holds what the generic
    engine keeps for every title; the methods answer what it asks of a title's state."""

    # ids of trains discarded to the open market, in discard order
    open_market: list[str] = field(default_factory=list)

    def end_triggered_by(self) -> str | None:
        """What has triggered the game's end, once triggered and not yet reached."""
        return None

    def end_when(self, trigger: str) -> str:
        """When a triggered end comes: "or_end" (after the current OR) or "set_end"."""
        return "or_end"

    def fixed_last_or(self) -> int | None:
        """The number of the game's last OR when the game has a fixed length."""
        return None

    def hex_markers(self) -> dict[str, list[tuple[str, str]]]:
        """Markers on hexes: hex -> [(kind, owner corporation id)] (engine.view.MARKER_KINDS)."""
        return {}


@dataclass(slots=True)
class State:
    players: list[Player]
    corporations: dict[str, Corporation]
    companies: dict[str, Company]
    trains: list[Train]
    bank: Bank
    tiles: dict[str, PlacedTile] = field(default_factory=dict)  # hex -> laid tile
    tile_supply: dict[str, list[str]] = field(default_factory=dict)  # tile name -> free copy ids
    # (hex, city index) -> corporation per slot
    city_tokens: dict[tuple[str, int], list[str | None]] = field(default_factory=dict)
    market: dict[tuple[int, int], list[str]] = field(default_factory=dict)  # cell -> stack
    phase: str = ""
    priority: int = 0  # index into players of the priority deal holder
    finished: bool = False
    end_reason: str | None = None
    title_state: TitleState = field(default_factory=TitleState)  # the title's own state
    # players' standing orders (engine/programs.py): player id -> the order as logged
    programs: dict[str, dict[str, Any]] = field(default_factory=dict)

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)


TS = TypeVar("TS", bound=TitleState)


def title_state_as(st: State, kind: type[TS]) -> TS:
    """A game's title state as the title's own class (a title's accessor, e.g. ms_state)."""
    ts = st.title_state
    if not isinstance(ts, kind):
        raise TypeError(f"not a {kind.__name__}: {type(ts).__name__}")
    return ts
