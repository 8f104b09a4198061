"""Mutable game state, derived only by applying actions (see engine/game.py).

Plain dataclasses; rules live in engine/flow and the title hooks, not here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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
    extra: dict[str, object] = field(default_factory=dict)  # declared title state


@dataclass(slots=True)
class Bank:
    cash: int


@dataclass(slots=True)
class PlacedTile:
    tile: str  # tile name ("57")
    copy_id: str  # "57-1"
    rotation: int


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
    extra: dict[str, object] = field(default_factory=dict)  # declared title state (see titles)

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)
