"""Typed title data, loaded once from the engine's own JSON files (engine/titles/<slug>/).

These are immutable facts of a title. Game state lives elsewhere and refers to them by id.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

TITLE_DIRS = {"18MS": "t18ms", "1870": "t1870", "18MEX": "t18mex"}
TITLES_ROOT = Path(__file__).resolve().parent.parent / "titles"

# An endpoint of a path: ("edge", e) | ("city", i) | ("town", i) | ("offboard", i)
Endpoint = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Path_:
    a: Endpoint
    b: Endpoint
    a_lane: tuple[int, int] | None = None
    b_lane: tuple[int, int] | None = None
    terminal: bool = False

    def rotated(self, r: int) -> Path_:
        return Path_(_rot(self.a, r), _rot(self.b, r), self.a_lane, self.b_lane, self.terminal)


def _rot(ep: Endpoint, r: int) -> Endpoint:
    return ("edge", (ep[1] + r) % 6) if ep[0] == "edge" else ep


@dataclass(frozen=True, slots=True)
class Node:
    """A city, town or off-board on a tile or printed hex."""

    kind: str  # "city" | "town" | "offboard"
    index: int
    part_index: int
    revenue: int | dict[str, int]  # flat value or {tile colour: value}
    slots: int = 0
    home_of: tuple[str, ...] = ()
    reserved_for: tuple[str, ...] = ()
    destination_of: tuple[str, ...] = ()
    revenue_by_phase: dict[str, int] | None = None
    # an off-centre town: the (unrotated) tile edge it sits by; track from its other edges
    # reaches it on one shared stub (see engine.routes.graph)
    loc: int | None = None

    def value(self, phase: str | None = None) -> int:
        if isinstance(self.revenue, int):
            return self.revenue
        if phase is not None and self.revenue_by_phase and phase in self.revenue_by_phase:
            return self.revenue_by_phase[phase]
        return min(self.revenue.values())


@dataclass(frozen=True, slots=True)
class Geometry:
    """Cities, towns, off-boards and track of a tile or printed hex (unrotated)."""

    cities: tuple[Node, ...]
    towns: tuple[Node, ...]
    offboards: tuple[Node, ...]
    paths: tuple[Path_, ...]
    labels: tuple[str, ...]

    def nodes(self) -> tuple[Node, ...]:
        return self.cities + self.towns + self.offboards

    def node(self, kind: str, index: int) -> Node:
        return {"city": self.cities, "town": self.towns, "offboard": self.offboards}[kind][index]

    def exits(self, rotation: int = 0) -> frozenset[int]:
        out = set()
        for p in self.paths:
            for ep in (p.a, p.b):
                if ep[0] == "edge":
                    out.add((ep[1] + rotation) % 6)
        return frozenset(out)


@dataclass(frozen=True, slots=True)
class Tile:
    name: str
    color: str
    count: int | None  # None = unlimited
    copy_ids: tuple[str, ...]
    geometry: Geometry
    upgrades_to: tuple[str, ...]
    hex_specific_upgrades: dict[str, tuple[str, ...]]
    future_label: dict[str, str] | None
    terrain: tuple[dict[str, Any], ...]
    extra: dict[str, Any] = field(default_factory=dict)  # title-specific facts (double_hex, ...)


@dataclass(frozen=True, slots=True)
class Hex:
    name: str
    x: int
    y: int
    kind: str  # plain | city | town | preprinted | gray | offboard | red_track | blocked
    color: str
    location: str | None
    geometry: Geometry
    preprinted_tile_id: str | None
    neighbors: dict[int, str]
    passable_edges: frozenset[int]
    tileable: bool
    tile_colors_allowed: tuple[str, ...]
    possible_tiles: dict[str, dict[str, tuple[int, ...]]]
    future_label: dict[str, str] | None
    terrain_cost: int
    terrain_types: tuple[str, ...]
    borders: tuple[dict[str, Any], ...]
    extra: dict[str, Any] = field(default_factory=dict)  # partitions, icons, bonuses, ...


@dataclass(frozen=True, slots=True)
class TitleData:
    title: str
    layout: str  # "pointy" | "flat"
    hexes: dict[str, Hex]
    tiles: dict[str, Tile]
    market: dict[str, Any]
    trains: list[dict[str, Any]]
    train_rules: dict[str, Any]
    phases: list[dict[str, Any]]
    corporations: list[dict[str, Any]]
    minors: list[dict[str, Any]]
    companies: list[dict[str, Any]]
    meta: dict[str, Any]
    rules: dict[str, Any]
    deviations: list[dict[str, Any]]
    variant_hexes: dict[str, dict[str, Any]] = field(default_factory=dict)  # partial overrides
    variant_companies: list[dict[str, Any]] = field(default_factory=list)

    def tile_by_copy_id(self, copy_id: str) -> Tile:
        name = copy_id.rsplit("-", 1)[0]
        return self.tiles[name]


def _endpoint(d: dict[str, Any]) -> Endpoint:
    for k in ("edge", "city", "town", "offboard"):
        if k in d:
            return (k, int(d[k]))
    raise ValueError(f"bad endpoint {d}")


def _nodes(kind: str, items: list[dict[str, Any]] | None) -> tuple[Node, ...]:
    out = []
    for i, n in enumerate(items or []):
        out.append(
            Node(
                kind=kind,
                index=n.get("index", i),
                part_index=n.get("part_index", i),
                revenue=n.get("revenue", 0),
                slots=n.get("slots", 0),
                home_of=tuple(n.get("home_of", ())),
                reserved_for=tuple(n.get("reserved_for", ())),
                destination_of=tuple(n.get("destination_of", ())),
                revenue_by_phase=n.get("revenue_by_phase"),
                loc=n.get("loc"),
            )
        )
    return tuple(out)


def _geometry(d: dict[str, Any]) -> Geometry:
    paths = []
    for p in d.get("paths", []):
        a, b = p["a"], p["b"]
        paths.append(
            Path_(
                _endpoint(a),
                _endpoint(b),
                tuple(a["lane"]) if "lane" in a else None,
                tuple(b["lane"]) if "lane" in b else None,
                bool(a.get("terminal") or b.get("terminal") or p.get("terminal")),
            )
        )
    return Geometry(
        cities=_nodes("city", d.get("cities")),
        towns=_nodes("town", d.get("towns")),
        offboards=_nodes("offboard", d.get("offboards")),
        paths=tuple(paths),
        labels=tuple(d.get("labels", ())),
    )


_HEX_CORE = {
    "name", "grid_xy", "kind", "color", "location", "cities", "towns", "offboards", "paths",
    "labels", "neighbors", "passable_edges", "tileable", "tile_colors_allowed",
    "preprinted_tile_id", "possible_tiles", "future_label", "terrain", "borders",
}


def _hex(d: dict[str, Any]) -> Hex:
    terrain = d.get("terrain") or []
    return Hex(
        name=d["name"],
        x=d["grid_xy"][0],
        y=d["grid_xy"][1],
        kind=d["kind"],
        color=d["color"],
        location=d.get("location"),
        geometry=_geometry(d),
        preprinted_tile_id=d.get("preprinted_tile_id"),
        neighbors={int(k): v for k, v in d.get("neighbors", {}).items()},
        passable_edges=frozenset(d.get("passable_edges", ())),
        tileable=bool(d.get("tileable")),
        tile_colors_allowed=tuple(d.get("tile_colors_allowed", ())),
        possible_tiles={
            c: {t: tuple(r) for t, r in ts.items()} for c, ts in d.get("possible_tiles", {}).items()
        },
        future_label=d.get("future_label"),
        terrain_cost=sum(t["cost"] for t in terrain),
        terrain_types=tuple(x for t in terrain for x in t.get("types", ())),
        borders=tuple(d.get("borders", ())),
        extra={k: v for k, v in d.items() if k not in _HEX_CORE},
    )


_TILE_CORE = {
    "name", "color", "count", "copy_ids", "cities", "towns", "paths", "labels", "exits",
    "upgrades_to", "hex_specific_upgrades", "future_label", "terrain",
}


def _tile(d: dict[str, Any]) -> Tile:
    count = d.get("count")
    return Tile(
        name=d["name"],
        color=d["color"],
        count=count if isinstance(count, int) else None,
        copy_ids=tuple(d.get("copy_ids", ())),
        geometry=_geometry(d),
        upgrades_to=tuple(d.get("upgrades_to", ())),
        hex_specific_upgrades={h: tuple(t) for h, t in d.get("hex_specific_upgrades", {}).items()},
        future_label=d.get("future_label"),
        terrain=tuple(d.get("terrain", ())),
        extra={k: v for k, v in d.items() if k not in _TILE_CORE},
    )


def _read(slug: str, name: str) -> Any:
    return json.loads((TITLES_ROOT / slug / name).read_text(encoding="utf-8"))


@cache
def load_title_data(title: str) -> TitleData:
    """Load (once per process) the immutable facts of a title."""
    if title not in TITLE_DIRS:
        raise KeyError(f"unknown title {title!r}; known: {', '.join(TITLE_DIRS)}")
    slug = TITLE_DIRS[title]
    m = _read(slug, "map.json")
    tiles = _read(slug, "tiles.json")
    trains = _read(slug, "trains.json")
    comp = _read(slug, "companies.json")
    meta = _read(slug, "meta.json")
    return TitleData(
        title=title,
        layout=m["layout"],
        hexes={n: _hex(h) for n, h in m["hexes"].items()},
        variant_hexes=m.get("variant_hexes", {}),
        tiles={n: _tile(t) for n, t in tiles.items()},
        market=_read(slug, "market.json"),
        trains=trains["trains"],
        train_rules=trains["rules"],
        phases=trains["phases"],
        corporations=comp["corporations"],
        minors=comp["minors"],
        companies=comp["companies"],
        variant_companies=comp.get("variant_companies", []),
        meta=meta["meta"],
        rules=meta["rules"],
        deviations=meta["deviations"],
    )
