"""Where the parts of one hex go: the pixel positions of its cities, towns and off-boards
(`place_nodes`), the station slots of a city, the track's curve between two edges, and the
widths of track and hairlines. Computed from a HexLayout and the hex centre, so pointy and flat
hexes are alike; render/hexart.py draws at these places, and tests find slots and track here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.core.data import Endpoint, Geometry, Path_
from render.layout import HexLayout, Point, bezier, lerp, polar


@dataclass(frozen=True, slots=True)
class NodePlace:
    pos: Point
    through: tuple[Point, ...] | None = None  # a town sitting on an edge-to-edge curve
    tangent: float | None = None  # track direction at pos (degrees), for town bars


def track_width(lay: HexLayout) -> float:
    return max(2.0, lay.radius * 0.13)


def slot_radius(lay: HexLayout, slots: int) -> float:
    return lay.radius * (0.25 if slots <= 1 else 0.215 if slots == 2 else 0.19)


def rotated_paths(geom: Geometry, rotation: int) -> list[Path_]:
    return [p.rotated(rotation) for p in geom.paths]


def edge_curve(
    lay: HexLayout,
    c: Point,
    e1: int,
    e2: int,
    lane1: tuple[int, int] | None = None,
    lane2: tuple[int, int] | None = None,
    n: int = 10,
) -> list[Point]:
    """Track from the middle of edge e1 to the middle of edge e2 (straight, gentle or sharp)."""
    lw = track_width(lay) * 1.6
    p0 = lay.lane_point(c, e1, lane1, lw)
    p3 = lay.lane_point(c, e2, lane2, lw)
    diff = (e2 - e1) % 6
    diff = min(diff, 6 - diff)
    r = lay.radius
    # control lengths that make cubic Beziers close to circle arcs of radius 1.5r / 0.5r
    k = {3: 0.5 * lay.apothem, 2: 0.536 * r, 1: 0.385 * r, 0: 0.3 * r}[diff]
    p1 = polar(p0, k, lay.edge_angle(e1) + 180.0)
    p2 = polar(p3, k, lay.edge_angle(e2) + 180.0)
    if diff == 3 and lane1 is None and lane2 is None:
        return [p0, p3]
    return bezier(p0, p1, p2, p3, n)


def _angle_dist(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _node_key(ep: Endpoint) -> tuple[str, int] | None:
    return None if ep[0] == "edge" else ep


def place_nodes(
    lay: HexLayout, c: Point, geom: Geometry, rotation: int
) -> dict[tuple[str, int], NodePlace]:
    """Pixel position of every city / town / off-board of a (rotated) tile or printed hex."""
    paths = rotated_paths(geom, rotation)
    nodes = [(n.kind, n.index) for n in geom.nodes()]
    edges_of: dict[tuple[str, int], list[int]] = {k: [] for k in nodes}
    linked: dict[tuple[str, int], list[tuple[str, int]]] = {k: [] for k in nodes}
    for p in paths:
        ka, kb = _node_key(p.a), _node_key(p.b)
        if ka and kb:
            linked.setdefault(ka, []).append(kb)
            linked.setdefault(kb, []).append(ka)
        elif ka:
            edges_of.setdefault(ka, []).append(p.b[1])
        elif kb:
            edges_of.setdefault(kb, []).append(p.a[1])
    out: dict[tuple[str, int], NodePlace] = {}
    if not nodes:
        return out

    def through(k: tuple[str, int], t: float = 0.5) -> NodePlace:
        e1, e2 = sorted(edges_of[k])
        pts = edge_curve(lay, c, e1, e2, n=20)
        if len(pts) == 2:
            pts = [lerp(pts[0], pts[1], i / 20) for i in range(21)]
        i = round(t * (len(pts) - 1))
        a, b = pts[max(0, i - 1)], pts[min(len(pts) - 1, i + 1)]
        tang = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        return NodePlace(pts[i], tuple(pts), tang)

    def is_through_town(k: tuple[str, int]) -> bool:
        return k[0] == "town" and len(edges_of[k]) == 2 and not linked[k]

    if len(nodes) == 1:
        k = nodes[0]
        out[k] = through(k) if is_through_town(k) else NodePlace(c)
        return out

    used_angles: list[float] = []
    for es in edges_of.values():
        used_angles += [lay.edge_angle(e) for e in es]
    if any(isinstance(n.revenue, dict) and n.slots for n in geom.nodes()):
        used_angles += [60.0, 90.0, 120.0]  # the phase-value boxes go below the city
    cities = [k for k in nodes if k[0] == "city"]
    primary = max(cities, key=lambda k: len(edges_of[k])) if cities else None
    if primary is not None:
        out[primary] = NodePlace(c)
    throughs = [k for k in nodes if k not in out and is_through_town(k)]
    crossing = len(throughs) > 1 and any(
        (max(edges_of[k]) - min(edges_of[k])) == 3 for k in throughs
    )
    for k in throughs:
        straight = (max(edges_of[k]) - min(edges_of[k])) == 3
        out[k] = through(k, 0.3 if (crossing and straight) else 0.5)
    rest = [k for k in nodes if k not in out]
    if primary is None and not any(edges_of[k] for k in rest) and len(rest) == 2:
        # two unconnected towns on a printed hex: side by side
        a0 = lay.edge_angle(1)
        out[rest[0]] = NodePlace(polar(c, lay.apothem * 0.4, a0))
        out[rest[1]] = NodePlace(polar(c, lay.apothem * 0.4, a0 + 180.0))
        return out
    for k in rest:
        es = edges_of[k]
        if es:
            x = sum(math.cos(math.radians(lay.edge_angle(e))) for e in es)
            y = sum(math.sin(math.radians(lay.edge_angle(e))) for e in es)
            ang = math.degrees(math.atan2(y, x))
            dist = 0.6 * lay.apothem if primary is not None else 0.45 * lay.apothem
            out[k] = NodePlace(polar(c, dist, ang))
        else:
            cands = [lay.edge_angle(e) for e in range(6)]
            ang = max(cands, key=lambda a: min([_angle_dist(a, u) for u in used_angles] or [180]))
            used_angles.append(ang)
            out[k] = NodePlace(polar(c, 0.62 * lay.apothem, ang))
    return out


def slot_centers(lay: HexLayout, pos: Point, slots: int) -> list[Point]:
    """Centres of the station slots of a city drawn at pos."""
    s = slot_radius(lay, slots)
    x, y = pos
    if slots <= 1:
        return [pos]
    if slots == 2:
        return [(x - s, y), (x + s, y)]
    if slots == 3:
        d = s * 2 / math.sqrt(3)
        return [polar(pos, d, a) for a in (-90.0, 30.0, 150.0)]
    if slots == 4:
        return [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
    return [polar(pos, s * 1.4, -90.0 + 360.0 * i / slots) for i in range(slots)]


def hair(lay: HexLayout) -> int:
    """A hairline's width: one output pixel at the 1870 map's size, more on larger hexes."""
    return max(1, round(lay.radius / 40))
