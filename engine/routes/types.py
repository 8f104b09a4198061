"""The contract between the game state and the track/route code.

The game builds a `Board` (what is on the map) and `RouteRules` (the title's route hooks) and
asks engine.routes for: reachability (for tile and token legality), the revenue of logged or
proposed routes, and the best routes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.data import TitleData

# (hex name, node kind "city"|"town"|"offboard", node index on the current tile/printed hex)
NodeRef = tuple[str, str, int]


@dataclass(frozen=True, slots=True)
class Board:
    data: TitleData
    # hex -> (tile name, rotation) for every hex where a tile has been laid; other hexes show
    # their printed geometry (data.hexes[h].geometry, rotation 0)
    tiles: Mapping[str, tuple[str, int]]
    # (hex, city index) -> corporation id (or None) per token slot, for cities with any token
    tokens: Mapping[tuple[str, int], tuple[str | None, ...]]
    # the board's cache keys, made on first use (a board is not changed once made)
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class TrainSpec:
    id: str  # "2+-0"
    name: str  # "2+" (the face run, e.g. "4D" for a 2D card bought as 4D)
    max_stops: int  # stops that count (999 for unlimited)
    counts: frozenset[str]  # node kinds that count toward max_stops
    free: frozenset[str]  # node kinds visited for free (still pay revenue)
    multiplier: int = 1  # revenue multiplier (D trains: 2)
    min_stops: int = 2
    # node kinds the multiplier applies to (None = every kind); 18MEX 4D doubles cities and
    # off-boards but not towns
    multiplied: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class RouteRules:
    """Title hooks for routes. Defaults are the common 18xx rules."""

    phase: str
    # value of a stop for this corporation: default = node revenue in this phase
    stop_value: Callable[[Board, str, NodeRef, str], int] | None = None
    # extra revenue a route earns (e.g. 18MS New Orleans +$10): (board, corp, stops) -> $
    route_bonus: Callable[[Board, str, list[NodeRef]], int] | None = None
    # off-board/red hexes that routes may pass through (18MS Memphis A1, New Orleans I1)
    pass_through_offboards: frozenset[str] = field(default_factory=frozenset)
    # the most `route_bonus` can add to one route, if known; lets the solver prune by revenue
    # bounds (None = unknown: the solver still finds the optimum, only slower)
    route_bonus_max: int | None = None
    # whether a town must be passed through only as a stop etc. could be added here
