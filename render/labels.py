"""What the map places around the fixed parts of each hex: flat revenues, place names, hex
labels, terrain costs, icons, destinations, markers, tile numbers and coordinates.

The map draws the fixed parts of every hex first (track, cities, tokens, phase values). The
Placer then knows where ink is (a mask of everything drawn so far, stamped with every label it
places) and which discs and boxes must stay uncovered (cities, tokens, revenue bubbles, phase
values and the labels already placed, recorded through render.draw.note_shape / note_box). Each
label tries its spots in order and takes the first with no ink under it; failing that, the one
with least ink among those that cover no disc and no label; failing that, it tries a smaller
size; the last resort is the spot with least ink.

Everything here is in drawing pixels (twice the output size inside the supersampled map).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from PIL import ImageDraw

from render import theme
from render.draw import (
    Box,
    circle,
    fit_font_size,
    note_shape,
    text,
    text_box,
)
from render.fonts import Font, font
from render.hexart import HexArt
from render.hexplace import hair, rotated_paths
from render.layout import HexLayout, Point, polar
from render.placer import Placer
from render.theme import RGB

# legend keys (render.legend draws one entry per key used)
TERRAIN_GLYPHS: dict[str, tuple[str, RGB, str]] = {
    "mountain": ("▲", theme.MOUNTAIN, "mountain: lay cost"),
    "water": ("≈", theme.WATER, "river or water: lay cost"),
    "swamp": ("≈", theme.TERRAIN_OTHER, "swamp: lay cost"),
    "desert": ("∴", (170, 120, 40), "desert: lay cost"),
    "other": ("•", theme.MUTED, "terrain: lay cost"),
}
ICON_GLYPHS: dict[str, tuple[str, RGB, str]] = {
    "port": ("⚓", theme.WATER, "port"),
    "18_ms/coins": ("$", (255, 205, 40), "bonus city (see the rules)"),  # gold: on red hexes
    "18_al/coal": ("●", (40, 40, 40), "mine"),
}
OTHER_ICON: tuple[str, RGB, str] = ("◆", theme.MUTED, "special hex")
MARKER_LETTER = {"cattle": "C", "port": "P", "port_closed": "P"}
MARKER_TEXT = {"cattle": "cattle marker", "port": "port marker", "port_closed": "closed port"}
TILE_INK: RGB = (45, 45, 45)


def terrain_key(types: tuple[str, ...]) -> str:
    if "mountain" in types:
        return "mountain"
    if any(t in types for t in ("water", "river", "lake")):
        return "water"
    for t in ("swamp", "desert"):
        if t in types:
            return t
    return "other"


def _angle_dist(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return min(d, 360.0 - d)


def _around(lay: HexLayout, c: Point, dists: Iterable[float], busy: list[float],
            prefer: float | None = None, corners_only: bool = False) -> Iterator[Point]:
    """Spots around the hex centre: corner directions first (track runs to edge middles),
    the ones farthest from the track exits (and nearest `prefer`) first, at each distance."""
    angles = _directions(lay.orientation, tuple(sorted(set(busy))), prefer, corners_only)
    for dist in dists:
        for a in angles:
            yield polar(c, dist, a)


@lru_cache(maxsize=1024)
def _directions(orientation: str, busy: tuple[float, ...], prefer: float | None,
                corners_only: bool) -> tuple[float, ...]:
    lay = HexLayout(orientation, 1.0, (0.0, 0.0))

    def order(angles: list[float]) -> list[float]:
        def score(a: float) -> tuple[float, float]:
            free = min([_angle_dist(a, u) for u in busy] or [180.0])
            return (-round(free / 15.0), _angle_dist(a, prefer) if prefer is not None else 0.0)
        return sorted(angles, key=score)

    corners = order([lay.corner_angle(i) for i in range(6)])
    edges = [] if corners_only else order([lay.edge_angle(i) for i in range(6)])
    return tuple(corners + edges)


@dataclass(slots=True)
class HexLabels:
    """The hex whose labels are being placed."""

    lay: HexLayout
    c: Point
    art: HexArt
    exits: list[float]

    @property
    def r(self) -> float:
        return self.lay.radius

    @property
    def poly(self) -> tuple[str, Point, float]:
        """The hex, a little inset, as _box_within takes it."""
        return (self.lay.orientation, self.c, self.lay.apothem * 0.97)


def _text_item(pl: Placer, h: HexLabels, s: str, sizes: list[int], bold: bool, ink: RGB,
               spots: Callable[[], Iterable[Point]], role: str, halo_width: int = 2,
               force: bool = True) -> bool:
    for i, size in enumerate(sizes):
        f = font(size, bold)
        last = i == len(sizes) - 1

        def box_at(p: Point, f: Font = f) -> Box:
            return text_box(p, s, f, "mm", halo_width)

        got = pl.choose(spots(), box_at, force and last, h.poly)
        if got is not None:
            p, inked = got
            # a halo only where the text lies over something
            halo = h.art.fill if inked else None
            text(pl.d, p, s, f, ink, halo=halo, halo_width=halo_width, role=role)
            pl.take(box_at(p))
            return True
    return False


def _disc_item(pl: Placer, h: HexLabels, radii: list[float],
               spots: Callable[[], Iterable[Point]]) -> tuple[Point, float]:
    for i, rr in enumerate(radii):
        def box_at(p: Point, rr: float = rr) -> Box:
            return (p[0] - rr, p[1] - rr, p[0] + rr, p[1] + rr)

        got = pl.choose(spots(), box_at, i == len(radii) - 1, h.poly)
        if got is not None:
            p = got[0]
            b = box_at(p)
            pl.take((b[0] - 2 * pl.k, b[1] - 2 * pl.k, b[2] + 2 * pl.k, b[3] + 2 * pl.k),
                    "disc", True)
            return p, rr
    raise AssertionError("unreachable: the last size is forced")


def place_revenues(d: ImageDraw.ImageDraw, pl: Placer, h: HexLabels) -> None:
    art, r = h.art, h.r
    if not (not art.printed or art.kind in ("preprinted", "gray")):
        return
    nodes = [n for n in art.geometry.nodes()
             if isinstance(n.revenue, int) and n.revenue > 0 and n.kind != "offboard"]
    values = sorted({n.revenue for n in nodes if isinstance(n.revenue, int)})
    done: set[int] = set()
    for nd in nodes:
        assert isinstance(nd.revenue, int)
        if nd.revenue in done and len(values) == 1:
            continue
        done.add(nd.revenue)
        p, rr = _disc_item(pl, h, [r * 0.19, r * 0.16],
                           lambda: _around(h.lay, h.c, (r * 0.6, r * 0.68, r * 0.5), h.exits))
        circle(d, p, rr, theme.REVENUE_FILL, theme.INK, max(1, round(r * 0.02)))
        note_shape("bubble", p, rr)
        s = str(nd.revenue)
        # narrow enough that the text's box stays inside the disc
        size = fit_font_size(s, rr * 1.6, round(rr * 1.32), True)
        text(d, p, s, font(size, bold=True), theme.INK, role="revenue")


def place_discs(d: ImageDraw.ImageDraw, pl: Placer, h: HexLabels) -> None:
    """1870 destinations and the markers of the hex (cattle, ports)."""
    art, r = h.art, h.r

    def spots() -> Iterable[Point]:
        return _around(h.lay, h.c, (r * 0.62, r * 0.5, r * 0.7), h.exits)

    for corp in art.destinations:
        p, rr = _disc_item(pl, h, [r * 0.13, r * 0.11], spots)
        col = art.corp_colors.get(corp, theme.MUTED)
        circle(d, p, rr, (255, 255, 255), col, max(2, round(rr * 0.45)))
        circle(d, p, rr * 0.3, col)
        note_shape("destination", p, rr)
    for kind, owner in art.markers:
        p, rr = _disc_item(pl, h, [r * 0.15, r * 0.12], spots)
        draw_marker(d, p, rr, kind, art.corp_colors.get(owner, theme.MUTED))


def draw_marker(d: ImageDraw.ImageDraw, p: Point, rr: float, kind: str, col: RGB) -> None:
    """A marker disc in the owner's colour with its kind's letter; a closed port is drawn
    white with a thick ring in the owner's colour (it pays the owner only)."""
    letter = MARKER_LETTER.get(kind, kind[:1].upper())
    if kind == "port_closed":
        circle(d, p, rr, (255, 255, 255), col, max(2, round(rr * 0.3)))
        ink = theme.INK
    else:
        circle(d, p, rr, col, theme.INK, max(1, round(rr * 0.1)))
        ink = theme.text_on(col)
    note_shape("marker", p, rr)
    text(d, p, letter, font(round(rr * 1.3), bold=True), ink, role="marker")


def place_words(pl: Placer, h: HexLabels) -> None:
    """Hex labels (BM, Y...), future labels, terrain cost and icons."""
    art, r = h.art, h.r

    def spots(prefer: float) -> Callable[[], Iterable[Point]]:
        return lambda: _around(h.lay, h.c, (r * 0.6, r * 0.5, r * 0.68, r * 0.4), h.exits, prefer)

    lab = " ".join(art.labels)
    if lab:
        size = fit_font_size(lab, r * 0.7, round(r * 0.3), True)
        _text_item(pl, h, lab, [size, round(size * 0.8)], True, theme.LABEL_INK, spots(200.0),
                   "label")
    if art.future_labels:
        fl = "/".join(art.future_labels)
        size = fit_font_size(fl, r * 0.7, round(r * 0.24), True)
        _text_item(pl, h, fl, [size, round(size * 0.8)], True, theme.MUTED, spots(200.0), "label",
                   halo_width=1)
    if art.printed and art.terrain_cost:
        key = terrain_key(art.terrain_types)
        glyph, col, _ = TERRAIN_GLYPHS[key]
        size = round(r * 0.2)
        _text_item(pl, h, f"{glyph}${art.terrain_cost}", [size, round(size * 0.8)], True, col,
                   spots(330.0), "terrain")
    for icon in art.icons:
        glyph, col, _ = ICON_GLYPHS.get(icon, OTHER_ICON)
        size = round(r * 0.24)
        _text_item(pl, h, glyph, [size, round(size * 0.8)], True, col, spots(300.0), "icon")


def location_up(art: HexArt, exit_angles: list[float]) -> bool:
    """Whether the place name goes above the centre (else below)."""
    top_busy = sum(1 for a in exit_angles if 180.0 < a < 360.0)
    bottom_busy = sum(1 for a in exit_angles if 0.0 < a < 180.0)
    has_phase_values = any(isinstance(n.revenue, dict) for n in art.geometry.nodes())
    return art.kind == "offboard" or has_phase_values or top_busy < bottom_busy


def place_location(pl: Placer, h: HexLabels) -> None:
    """The place name: above or below the centre, nearer if it must, then on two lines and
    smaller."""
    art, lay, c, r = h.art, h.lay, h.c, h.r
    name = art.location or ""
    if not name:
        return
    k = pl.k
    up = location_up(art, h.exits)
    pointy = lay.orientation == "pointy"
    base = 0.7 * r if pointy else 0.72 * lay.apothem
    dys = [base, base * 0.82, base * 0.64, base * 0.5]
    sides = [-1.0, 1.0] if up else [1.0, -1.0]
    max_w = r * (1.1 if pointy else 1.3)
    size0 = fit_font_size(name, max_w, round(r * 0.18), False, minimum=round(7 * k))
    ink = (255, 255, 255) if art.kind in ("offboard", "red_track") else theme.LOCATION_INK
    words = name.split(" / ", 1) if " / " in name else name.rsplit(" ", 1)
    layouts: list[tuple[list[str], int]] = [([name], size0)]
    if len(words) == 2:
        two = min(fit_font_size(x, max_w, round(r * 0.18), False, minimum=round(7 * k))
                  for x in words)
        # squeezed on one line: two lines first
        layouts.insert(0 if size0 < r * 0.15 and two > size0 else 1, (words, two))
    layouts.append(([name], max(round(6 * k), round(size0 * 0.8))))
    if len(words) == 2:
        layouts.append((words, max(round(6 * k), round(two * 0.8))))
    hw = 2
    for i, (lines, size) in enumerate(layouts):
        f = font(size)
        lb = text_box((0.0, 0.0), "Ag", f, "mm", hw)
        step = (lb[3] - lb[1]) + k  # the line height with its halo, and one pixel

        def boxes(p: Point, lines: list[str] = lines, f: Font = f, step: float = step
                  ) -> list[Box]:
            n = len(lines)
            return [text_box((p[0], p[1] + (j - (n - 1) / 2) * step), s, f, "mm", hw)
                    for j, s in enumerate(lines)]

        def box_at(p: Point, boxes: Callable[[Point], list[Box]] = boxes) -> Box:
            bs = boxes(p)
            return (min(b[0] for b in bs), min(b[1] for b in bs),
                    max(b[2] for b in bs), max(b[3] for b in bs))

        dx = [0.0, -0.15 * r, 0.15 * r, -0.3 * r, 0.3 * r]
        spots = [(c[0] + x, c[1] + sd * dy) for sd in sides for dy in dys for x in dx]
        got = pl.choose(spots, box_at, i == len(layouts) - 1, h.poly)
        if got is None:
            continue
        p, inked = got
        for j, s in enumerate(lines):
            y = p[1] + (j - (len(lines) - 1) / 2) * step
            text(pl.d, (p[0], y), s, f, ink, halo=art.fill if inked else None, halo_width=hw,
                 role="location")
        pl.take(box_at(p))
        return


def place_numbers(pl: Placer, h: HexLabels) -> None:
    """The laid tile's number and the hex's coordinate, small, in the corners."""
    art, lay, r = h.art, h.lay, h.r
    k = pl.k
    pointy = lay.orientation == "pointy"
    dists = (0.74, 0.64, 0.54, 0.44, 0.34) if pointy else (0.7, 0.6, 0.5, 0.4, 0.3)
    on = theme.text_on(art.fill)

    def sizes(f: float) -> list[int]:
        size = max(round(7 * k), round(r * f))
        return [size, max(round(6 * k), round(size * 0.8)), max(round(6 * k), round(size * 0.65))]

    def spots(prefer: float) -> Callable[[], Iterable[Point]]:
        return lambda: _around(lay, h.c, [x * r for x in dists], [], prefer)

    if art.tile:
        ink = TILE_INK if on == (0, 0, 0) else (255, 255, 255)
        _text_item(pl, h, art.tile, sizes(0.2), False, ink, spots(30.0 if pointy else 60.0),
                   "tile", halo_width=1)
    if art.name:
        ink = theme.blend(on, art.fill, 0.35)
        _text_item(pl, h, art.name, sizes(0.19), False, ink, spots(270.0 if pointy else 240.0),
                   "hexname", halo_width=1)


def exit_angles(lay: HexLayout, art: HexArt) -> list[float]:
    return [
        lay.edge_angle(ep[1])
        for p in rotated_paths(art.geometry, art.rotation)
        for ep in (p.a, p.b)
        if ep[0] == "edge"
    ]


__all__ = ["HexLabels", "Placer", "hair"]
