"""A read-only snapshot of a game's state for render/ and bot/ (no engine internals leak).

Built by `Game.view()`. Everything is plain immutable data; the title's static facts (map,
tiles, market grid) come with it as `data` (engine.core.data.TitleData).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.data import TitleData

# The vocabulary of HexState.markers kinds (renderers may draw unknown kinds generically).
MARKER_KINDS: dict[str, str] = {
    "cattle": "1870 cattle token (Southern Cattle Company): +$10 to the owner's routes stopping there",
    "port": "1870 open port (Gulf Shipping Company): +$20 to the owner's routes, +$10 to others'",
    "port_closed": "1870 closed port (Gulf Shipping Company): +$20 to the owner's routes only",
}


@dataclass(frozen=True, slots=True)
class HexState:
    """What is on a hex now. `tile` None means the printed hex is unchanged."""

    name: str
    tile: str | None  # tile name, e.g. "57" (not the copy id)
    rotation: int
    # per city index of the current tile/printed hex: the corporation id in each slot, or None
    tokens: tuple[tuple[str | None, ...], ...] = ()
    # per city index: corporation ids whose home is reserved there and not yet placed
    reserved: tuple[tuple[str, ...], ...] = ()
    # extra markers on the hex: (kind, owner corporation id); kinds are listed in MARKER_KINDS
    markers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    id: str
    name: str
    cash: int
    value: int
    shares: dict[str, int]  # corporation id -> percent held
    companies: tuple[str, ...]
    cert_count: int
    cert_limit: int
    priority: bool = False


@dataclass(frozen=True, slots=True)
class CorporationView:
    id: str
    name: str
    color: str  # CSS colour name or #rrggbb, from the title data
    kind: str  # "corporation" | "minor"
    president: str | None  # player id
    treasury: int
    trains: tuple[str, ...]  # train names, e.g. ("2+", "4D")
    tokens_total: int
    tokens_left: int
    price: int | None
    par: int | None
    market_cell: tuple[int, int] | None  # (row, col)
    floated: bool
    closed: bool
    ipo_percent: int  # percent still in the initial offering
    market_percent: int  # percent in the open market (pool)
    companies: tuple[str, ...] = ()
    operated: bool = False  # has operated in the current operating round
    # 1870: the corporation has connected its home to its destination, so its destination
    # marker is off the map (False for titles without destinations)
    destination_reached: bool = False


@dataclass(frozen=True, slots=True)
class CompanyView:
    id: str
    name: str
    value: int
    revenue: int
    owner: str | None  # player id or corporation id
    owner_kind: str | None  # "player" | "corporation" | None
    closed: bool


@dataclass(frozen=True, slots=True)
class TrainStock:
    name: str
    price: int
    left: int  # still in the bank (depot)
    available: bool  # may be bought from the bank now
    rusted_or_obsolete: bool = False


@dataclass(frozen=True, slots=True)
class GameView:
    title: str
    data: TitleData
    round: str  # e.g. "Stock Round 2", "Operating Round 3 (of set 2)"
    round_kind: str  # "draft" | "auction" | "stock" | "operating" | "merger" | "end"
    phase: str
    acting: tuple[str, ...]  # entity ids that must act now (players or corporations)
    acting_players: tuple[str, ...]  # player ids that must act now
    bank_cash: int
    hexes: dict[str, HexState]  # only hexes whose state differs from the printed map
    # market cell (row, col) -> corporation ids in stack order (first operates first)
    market: dict[tuple[int, int], tuple[str, ...]]
    players: tuple[PlayerView, ...]
    corporations: tuple[CorporationView, ...]
    companies: tuple[CompanyView, ...]
    trains: tuple[TrainStock, ...]
    open_market_trains: tuple[str, ...] = ()  # discarded trains for sale (1870)
    last_hexes: tuple[str, ...] = ()  # hexes touched by the last action (for highlighting)
    finished: bool = False
    result: dict[str, int] = field(default_factory=dict)
    operating_order: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # short status lines (e.g. "GMO must buy a train")
    may: tuple[str, ...] = ()  # the action kinds the acting entity may take now (its step's)


@dataclass(frozen=True, slots=True)
class ViewKey:
    """Part of a state's view, cheap to build (`Game.view_key`): its hexes, market, who acts
    and round, each as in the `GameView` of that state. Two states' keys tell which of their
    images differ without building either's full view."""

    hexes: dict[str, HexState]
    market: dict[tuple[int, int], tuple[str, ...]]
    acting: tuple[str, ...]
    round: str
    last_hexes: tuple[str, ...] = ()
