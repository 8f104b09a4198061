"""Drawing one hex: printed features, track, cities, towns, tokens, revenues and labels.

Everything is computed in pixels from a HexLayout and the hex centre, so the same code draws
pointy and flat hexes. Where each part goes (nodes, slots, the track's curves) is
render/hexplace.py's; this module owns what one hex shows (`HexArt`) and drawing it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PIL import ImageDraw

from engine.core.data import Geometry, Node
from render import theme
from render.draw import circle, fit_font_size, note_box, note_shape, polyline, text
from render.fonts import font
from render.hexplace import (
    edge_curve,
    hair,
    place_nodes,
    rotated_paths,
    slot_centers,
    slot_radius,
    track_width,
)
from render.layout import HexLayout, Point, bezier, lerp, polar
from render.theme import RGB


@dataclass(slots=True)
class HexArt:
    """What one hex shows; built by render.map from the title data and the hex state."""

    fill: RGB
    geometry: Geometry
    rotation: int
    kind: str  # hex kind of the printed hex (offboard, red_track, ...) or "tile"
    printed: bool  # no tile laid
    tokens: tuple[tuple[str | None, ...], ...] = ()
    reserved: tuple[tuple[str, ...], ...] = ()
    destinations: tuple[str, ...] = ()
    markers: tuple[tuple[str, str], ...] = ()
    labels: tuple[str, ...] = ()
    future_labels: tuple[str, ...] = ()
    location: str | None = None
    terrain_cost: int = 0
    terrain_types: tuple[str, ...] = ()
    partitions: tuple[dict[str, object], ...] = ()
    icons: tuple[str, ...] = ()
    phase: str | None = None
    phase_names: tuple[str, ...] = ()
    corp_colors: dict[str, RGB] = field(default_factory=dict)
    name: str = ""  # the hex's coordinate ("E5")
    tile: str | None = None  # the laid tile's number


def _revenue_columns(
    node: Node, phase_names: tuple[str, ...]
) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """Colour columns (in tile-colour order) and, per phase, the index of the column it pays."""
    assert isinstance(node.revenue, dict)
    order = {c: i for i, c in enumerate(theme.COLOR_ORDER)}
    cols = sorted(node.revenue.items(), key=lambda kv: order.get(kv[0], 99))
    by_phase: dict[str, int] = {}
    last = 0
    for ph in phase_names:
        v = (node.revenue_by_phase or {}).get(ph)
        if v is None:
            continue
        for i in range(last, len(cols)):
            if cols[i][1] == v:
                last = i
                break
        by_phase[ph] = last
    return cols, by_phase


def draw_phase_revenues(
    d: ImageDraw.ImageDraw,
    lay: HexLayout,
    pos: Point,
    node: Node,
    phase: str | None,
    phase_names: tuple[str, ...],
) -> None:
    """A row of boxes, one per colour column, the current phase's box outlined thickly."""
    cols, by_phase = _revenue_columns(node, phase_names)
    cur = by_phase.get(phase or "", -1)
    r = lay.radius
    bw, bh = r * 0.36, r * 0.3
    x0 = pos[0] - bw * len(cols) / 2
    widest = max((str(v) for _, v in cols), key=len, default="0")
    f = font(fit_font_size(widest, bw * 0.94, round(r * 0.24), True), bold=True)
    for i, (color, value) in enumerate(cols):
        box = (x0 + i * bw, pos[1] - bh / 2, x0 + (i + 1) * bw, pos[1] + bh / 2)
        fill = theme.rgb(color)
        d.rectangle(box, fill=fill, outline=theme.INK, width=max(1, round(r / 40)))
        note_box("values", box)
        text(d, ((box[0] + box[2]) / 2, pos[1]), str(value), f, theme.text_on(fill), role="revenue")
    if 0 <= cur < len(cols):
        box = (x0 + cur * bw, pos[1] - bh / 2, x0 + (cur + 1) * bw, pos[1] + bh / 2)
        w = max(2, round(r * 0.05))
        d.rectangle(
            (box[0] - w, box[1] - w, box[2] + w, box[3] + w), outline=theme.HIGHLIGHT, width=w
        )


def _city_blob(
    d: ImageDraw.ImageDraw, centers: list[Point], s: float, color: RGB, grow: float
) -> None:
    rr = s + grow
    if len(centers) > 1:
        w = round(2 * rr)
        ring = centers + [centers[0]] if len(centers) > 2 else centers
        d.line(ring, fill=color, width=w, joint="curve")
        if len(centers) > 2:
            d.polygon(centers, fill=color)
    for p in centers:
        circle(d, p, rr, color)


def token_label_size(s: float, corp: str) -> int:
    """Font size of a token's label in a slot of radius s (as large as the disc allows)."""
    return fit_font_size(corp, s * 1.8, round(s * 0.85), True, minimum=6)


def draw_token(d: ImageDraw.ImageDraw, p: Point, s: float, corp: str, color: RGB) -> None:
    circle(d, p, s * 0.95, color, theme.INK, max(1, round(s * 0.11)))
    note_shape("token", p, s * 0.95)
    f = font(token_label_size(s, corp), bold=True)
    text(d, p, corp, f, theme.text_on(color), role="token")


def _extra_tokens(d: ImageDraw.ImageDraw, start: Point, s: float, corps: list[str],
                  colors: dict[str, RGB], right_edge: float, rows: float = 1.0) -> None:
    """Tokens beyond a city's printed spaces (e.g. 1870 destination tokens): rows of slightly
    smaller tokens with a white ring beside the city, wrapping before the hex's right edge
    (further rows below, or above with rows=-1)."""
    small = s * 0.75
    step = small * 2.2
    per_row = max(1, int((right_edge - small * 1.05 - start[0]) // step) + 1)
    for k, corp in enumerate(corps):
        p = (start[0] + (k % per_row) * step, start[1] + rows * (k // per_row) * step)
        circle(d, p, small * 1.05, (255, 255, 255), theme.INK, max(1, round(small * 0.11)))
        draw_token(d, p, small, corp, colors.get(corp, theme.MUTED))


def draw_reserved(d: ImageDraw.ImageDraw, p: Point, s: float, corp: str, color: RGB) -> None:
    w = max(2, round(s * 0.16))
    circle(d, p, s * 0.86, theme.blend(color, (255, 255, 255), 0.75), color, w)
    size = fit_font_size(corp, s * 1.45, round(s * 0.7), True, minimum=6)
    text(d, p, corp, font(size, bold=True), theme.blend(color, (0, 0, 0), 0.25), role="reserved")


def draw_partitions(
    d: ImageDraw.ImageDraw, lay: HexLayout, c: Point, partitions: tuple[dict[str, object], ...]
) -> None:
    """1870 river: a line between the two corners where side A meets side B, bent towards the centre."""
    for part in partitions:
        edges = part.get("side_a_edges") or ()
        side_a = {int(e) for e in edges} if isinstance(edges, list | tuple) else set()
        if not side_a or len(side_a) == 6:
            continue
        corners = [i for i in range(6) if (i in side_a) != (((i + 1) % 6) in side_a)]
        if len(corners) != 2:
            continue
        p0, p3 = lay.corner(c, corners[0]), lay.corner(c, corners[1])
        p1, p2 = lerp(p0, c, 0.55), lerp(p3, c, 0.55)
        polyline(d, bezier(p0, p1, p2, p3, 14), theme.WATER, max(2, lay.radius * 0.1))


def draw_hex(d: ImageDraw.ImageDraw, lay: HexLayout, c: Point, art: HexArt) -> list[float]:
    """The fixed parts of one hex (track, towns, cities, tokens, phase values); returns the
    screen angles of its track exits.  Labels, names and flat revenues are placed afterwards
    by render.labels, around what is drawn here."""
    r = lay.radius
    geom = art.geometry
    paths = rotated_paths(geom, art.rotation)
    places = place_nodes(lay, c, geom, art.rotation)
    tw = track_width(lay)
    offboardish = art.kind == "offboard"

    if art.printed and art.partitions:
        draw_partitions(d, lay, c, art.partitions)

    # --- track -------------------------------------------------------------------------
    drawn_through: set[tuple[str, int]] = set()
    exit_angles: list[float] = []
    for path in paths:
        a, b = path.a, path.b
        if a[0] != "edge" and b[0] == "edge":
            a, b = b, a
            la, lb = path.b_lane, path.a_lane
        else:
            la, lb = path.a_lane, path.b_lane
        if a[0] == "edge":
            exit_angles.append(lay.edge_angle(a[1]))
        if a[0] == "edge" and b[0] == "edge":
            exit_angles.append(lay.edge_angle(b[1]))
            polyline(d, edge_curve(lay, c, a[1], b[1], la, lb), theme.TRACK, tw)
            continue
        if a[0] == "edge":
            key = (b[0], b[1])
            place = places.get(key)
            if place is None:
                continue
            node = geom.node(*key)
            if place.through is not None:
                if key not in drawn_through:
                    drawn_through.add(key)
                    polyline(d, place.through, theme.TRACK, tw)
                continue
            start = lay.lane_point(c, a[1], la, tw * 1.6)
            if offboardish and node.slots == 0:
                # off-board: a short spur ending in an arrow head pointing inwards
                tip = lay.edge_mid(c, a[1], 0.35)
                base = lay.edge_mid(c, a[1], 0.62)
                polyline(d, [start, base], theme.TRACK_ON_RED, tw)
                ang = lay.edge_angle(a[1])
                w = tw * 1.5
                d.polygon(
                    [tip, polar(base, w, ang + 90.0), polar(base, w, ang - 90.0)],
                    fill=theme.TRACK_ON_RED,
                )
                continue
            end = place.pos
            if math.dist(end, c) < 1e-6:
                polyline(d, [start, end], theme.TRACK, tw)
            else:
                k = r * 0.3
                p1 = polar(start, k, lay.edge_angle(a[1]) + 180.0)
                polyline(d, bezier(start, p1, end, end, 10), theme.TRACK, tw)
            continue
        ka, kb = (a[0], a[1]), (b[0], b[1])
        if ka in places and kb in places:
            polyline(d, [places[ka].pos, places[kb].pos], theme.TRACK, tw)

    # --- towns -------------------------------------------------------------------------
    for town in geom.towns:
        place = places.get(("town", town.index))
        if place is None:
            continue
        if place.tangent is not None:
            ang = place.tangent + 90.0
            half = r * 0.2
            a_ = polar(place.pos, half, ang)
            b_ = polar(place.pos, half, ang + 180.0)
            polyline(d, [a_, b_], theme.TOWN, max(3, r * 0.11))
            note_shape("town", place.pos, half)
        else:
            circle(d, place.pos, r * 0.1, theme.TOWN, (255, 255, 255), hair(lay))
            note_shape("town", place.pos, r * 0.1)

    # --- cities ------------------------------------------------------------------------
    for city in geom.cities:
        place = places.get(("city", city.index))
        if place is None:
            continue
        toks = art.tokens[city.index] if city.index < len(art.tokens) else ()
        if city.slots == 0:  # off-board value only (1870 off-boards are cities without slots)
            s = slot_radius(lay, 1)
            extra = [t for t in toks if t]
            left = c[0] - r * 0.8 + s * 0.8
            start = (max(left, place.pos[0] - s * 0.825 * (len(extra) - 1)), place.pos[1] - r * 0.4)
            # further rows go up, away from the values below
            _extra_tokens(d, start, s, extra, art.corp_colors, c[0] + r * 0.8, rows=-1.0)
            continue
        s = slot_radius(lay, city.slots)
        centers = slot_centers(lay, place.pos, city.slots)
        _city_blob(d, centers, s, theme.CITY_OUTLINE, max(1.5, r * 0.025))
        _city_blob(d, centers, s, theme.CITY_FILL, 0)
        for p in centers:
            circle(d, p, s, None, theme.GRID_LINE, hair(lay))
            note_shape("city", p, s)
        reserved = list(art.reserved[city.index]) if city.index < len(art.reserved) else []
        for i, p in enumerate(centers):
            corp = toks[i] if i < len(toks) else None
            if corp:
                draw_token(d, p, s, corp, art.corp_colors.get(corp, theme.MUTED))
            elif reserved:
                rc = reserved.pop(0)
                draw_reserved(d, p, s, rc, art.corp_colors.get(rc, theme.MUTED))
        extra = [t for t in toks[len(centers):] if t]  # extra or squeezed-in spaces
        if extra:
            right = max(c[0] for c in centers)
            # further rows go up when the phase values sit below the city
            up = isinstance(city.revenue, dict)
            _extra_tokens(d, (right + s * 1.6, place.pos[1] - s * 0.5), s, extra, art.corp_colors,
                          c[0] + r * 0.86, rows=-1.0 if up else 1.0)

    # --- phase revenues (fixed places; flat revenues are placed with the labels) --------
    phase_nodes = [n for n in geom.nodes() if isinstance(n.revenue, dict)]
    if phase_nodes:
        node = phase_nodes[0]
        if offboardish and node.slots == 0:
            # centred, pushed away from the incoming track
            vx = sum(math.cos(math.radians(a)) for a in exit_angles)
            vy = sum(math.sin(math.radians(a)) for a in exit_angles)
            norm = math.hypot(vx, vy)
            pos = c if norm < 1e-6 else (c[0] - vx / norm * r * 0.22, c[1] - vy / norm * r * 0.22)
        else:
            pos = (c[0], c[1] + r * 0.55)  # below the city; the name goes on top
        draw_phase_revenues(d, lay, pos, node, art.phase, art.phase_names)
    return exit_angles
