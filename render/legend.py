"""The map's legend: one entry for every colour, mark and icon the map shows, in a strip under it.

`legend_keys` reads the hexes the map draws (their HexArt) and the map's options; `legend_height`
and `draw_legend` lay the entries out in rows across the image width.  Sizes are in drawing
pixels (`k` drawing pixels make one output pixel).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

from PIL import ImageDraw

from render import theme
from render.draw import Box, circle, dashed_line, polyline, ring, text, text_width
from render.fonts import Font, font
from render.hexart import HexArt
from render.labels import (
    ICON_GLYPHS,
    MARKER_TEXT,
    OTHER_ICON,
    TERRAIN_GLYPHS,
    terrain_key,
)
from render.layout import HexLayout

FILL_TEXT = {
    "white": "empty hex",
    "yellow": "yellow tile",
    "green": "green tile",
    "brown": "brown tile",
    "gray": "gray tile or city",
    "red": "off-board",
    "blue": "water",
    "blocked": "not buildable",
}
ORDER = (
    "fill:white", "fill:yellow", "fill:green", "fill:brown", "fill:gray", "fill:red", "fill:blue",
    "fill:blocked", "city", "token", "reserved", "town", "revenue", "values", "destination",
    "marker:cattle", "marker:port", "marker:port_closed", "terrain:mountain", "terrain:water",
    "terrain:swamp", "terrain:desert", "terrain:other", "icon:port", "icon:18_ms/coins",
    "icon:18_al/coal", "icon:other", "partition", "impassable", "doublehex", "tile", "hexname",
    "last", "emphasis",
)


def legend_keys(arts: Iterable[HexArt], *, impassable: bool, double_hex: bool, last: bool,
                emphasis: bool) -> list[str]:
    keys: set[str] = set()
    for a in arts:
        if a.fill == theme.BLOCKED_FILL:
            keys.add("fill:blocked")
        else:
            keys.update(f"fill:{n}" for n, rgb in theme.HEX_FILL.items() if rgb == a.fill)
        cities = [n for n in a.geometry.cities if n.slots]
        if cities:
            keys.add("city")
        if any(t for ts in a.tokens for t in ts):
            keys.add("token")
        if any(a.reserved) and not all(t for ts in a.tokens for t in ts):
            keys.add("reserved")
        if a.geometry.towns:
            keys.add("town")
        nodes = a.geometry.nodes()
        if any(isinstance(n.revenue, dict) for n in nodes):
            keys.add("values")
        if (not a.printed or a.kind in ("preprinted", "gray")) and any(
            isinstance(n.revenue, int) and n.revenue > 0 and n.kind != "offboard" for n in nodes
        ):
            keys.add("revenue")
        if a.destinations:
            keys.add("destination")
        keys.update(f"marker:{kind}" for kind, _ in a.markers)
        if a.printed and a.terrain_cost:
            keys.add(f"terrain:{terrain_key(a.terrain_types)}")
        keys.update(f"icon:{i if i in ICON_GLYPHS else 'other'}" for i in a.icons)
        if a.printed and a.partitions:
            keys.add("partition")
        if a.tile:
            keys.add("tile")
        if a.name:
            keys.add("hexname")
    if impassable:
        keys.add("impassable")
    if double_hex:
        keys.add("doublehex")
    if last:
        keys.add("last")
    if emphasis:
        keys.add("emphasis")
    return [k for k in ORDER if k in keys] + sorted(keys - set(ORDER))


def _label(key: str) -> str:
    kind, _, arg = key.partition(":")
    if kind == "fill":
        return FILL_TEXT.get(arg, arg)
    if kind == "marker":
        return MARKER_TEXT.get(arg, f"{arg} marker")
    if kind == "terrain":
        return TERRAIN_GLYPHS[arg][2]
    if kind == "icon":
        return ICON_GLYPHS.get(arg, OTHER_ICON)[2]
    return {
        "city": "city (a circle per station)",
        "token": "station token",
        "reserved": "reserved home",
        "town": "town",
        "revenue": "revenue",
        "values": "revenue by phase (now: outlined)",
        "destination": "destination",
        "partition": "river",
        "impassable": "impassable edge",
        "doublehex": "one double hex",
        "tile": "tile number",
        "hexname": "hex (for /lay)",
        "last": "last move",
        "emphasis": "named hexes",
    }.get(kind, key)


def _swatch(d: ImageDraw.ImageDraw, key: str, b: Box, k: float) -> None:
    """The mark of `key` drawn in box b (drawing pixels)."""
    x0, y0, x1, y1 = b
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    h = y1 - y0
    kind, _, arg = key.partition(":")
    lay = HexLayout("pointy", h * 0.55, (cx, cy))
    if kind == "fill":
        fill = theme.BLOCKED_FILL if arg == "blocked" else theme.rgb(arg)
        poly = lay.polygon((cx, cy))
        d.polygon(poly, fill=fill)
        ring(d, poly, theme.HEX_OUTLINE, max(1.0, k))
    elif kind in ("city", "token", "reserved"):
        rr = h * 0.42
        if kind == "city":
            circle(d, (cx, cy), rr, theme.CITY_FILL, theme.CITY_OUTLINE, max(1, round(1.5 * k)))
        elif kind == "token":
            circle(d, (cx, cy), rr, (40, 110, 60), theme.INK, max(1, round(k)))
        else:
            col = (40, 110, 60)
            circle(d, (cx, cy), rr, theme.blend(col, (255, 255, 255), 0.75), col, round(2 * k))
    elif kind == "town":
        circle(d, (cx, cy), h * 0.22, theme.TOWN, (255, 255, 255), max(1, round(k)))
    elif kind == "revenue":
        circle(d, (cx, cy), h * 0.42, theme.REVENUE_FILL, theme.INK, max(1, round(k)))
        text(d, (cx, cy), "20", font(round(h * 0.5), True), theme.INK)
    elif kind == "values":
        w = (x1 - x0) / 3
        for i, name in enumerate(("yellow", "brown", "gray")):
            bb = (x0 + i * w, cy - h * 0.3, x0 + (i + 1) * w, cy + h * 0.3)
            d.rectangle(bb, fill=theme.rgb(name), outline=theme.INK, width=max(1, round(k)))
        hw = max(2, round(1.5 * k))
        d.rectangle((x0 + w - hw, cy - h * 0.3 - hw, x0 + 2 * w + hw, cy + h * 0.3 + hw),
                    outline=theme.HIGHLIGHT, width=hw)
    elif kind == "destination":
        rr = h * 0.32
        circle(d, (cx, cy), rr, (255, 255, 255), (40, 110, 60), max(2, round(rr * 0.45)))
        circle(d, (cx, cy), rr * 0.3, (40, 110, 60))
    elif kind == "marker":
        from render.labels import draw_marker

        draw_marker(d, (cx, cy), h * 0.4, arg, (40, 110, 60))
    elif kind in ("terrain", "icon"):
        glyph, col, _ = TERRAIN_GLYPHS[arg] if kind == "terrain" else ICON_GLYPHS.get(arg, OTHER_ICON)
        s = f"{glyph}$" if kind == "terrain" else glyph
        # icons are drawn on coloured hexes: a dark halo keeps a light one visible here
        halo = theme.INK if kind == "icon" and sum(col) > 450 else None
        text(d, (cx, cy), s, font(round(h * 0.7), True), col, halo=halo, halo_width=1)
    elif kind == "partition":
        polyline(d, [(x0, cy + h * 0.3), (cx, cy - h * 0.1), (x1, cy + h * 0.3)], theme.WATER,
                 max(2.0, h * 0.15))
    elif kind == "impassable":
        polyline(d, [(x0, cy), (x1, cy)], theme.IMPASSABLE, max(3.0, h * 0.2))
    elif kind == "doublehex":
        dashed_line(d, (x0, cy), (x1, cy), theme.HEX_OUTLINE, max(1, round(k)), h * 0.2, h * 0.2)
    elif kind == "tile":
        text(d, (cx, cy), "57", font(round(h * 0.6)), (45, 45, 45))
    elif kind == "hexname":
        text(d, (cx, cy), "E5", font(round(h * 0.6)), theme.COORD_INK)
    elif kind in ("last", "emphasis"):
        poly = lay.polygon((cx, cy))
        d.polygon(poly, fill=theme.HEX_FILL["white"])
        ring(d, poly, theme.HIGHLIGHT if kind == "last" else theme.EMPHASIS, max(2.0, h * 0.12))


@lru_cache(maxsize=512)
def _label_width(key: str, f: Font) -> float:
    return text_width(_label(key), f)


def _entries(keys: list[str], width: float, size: float, margin: float
             ) -> list[tuple[str, float, float]]:
    """(key, x, row) of every entry, flowed into rows of `width`."""
    f = font(round(size))
    sw = size * 2.2  # swatch width
    out: list[tuple[str, float, float]] = []
    x, row = margin, 0
    for key in keys:
        w = sw + size * 0.4 + _label_width(key, f) + size * 1.2
        if x + w > width - margin and x > margin:
            x, row = margin, row + 1
        out.append((key, x, row))
        x += w
    return out


def legend_font_size(width: float) -> float:
    return max(11.0, width * 0.0105)


def legend_height(keys: list[str], width: float, k: float, font_px: float | None = None) -> float:
    """The strip's height in drawing pixels; font_px: its text size in output pixels (default
    legend_font_size of the width)."""
    if not keys:
        return 0.0
    size = (font_px or legend_font_size(width / k)) * k
    rows = max(r for _, _, r in _entries(keys, width, size, size)) + 1
    return rows * size * 1.7 + size * 0.8


def draw_legend(d: ImageDraw.ImageDraw, keys: list[str], top: float, width: float, k: float,
                swatch: Callable[[ImageDraw.ImageDraw, str, Box, float], None] = _swatch,
                font_px: float | None = None) -> None:
    size = (font_px or legend_font_size(width / k)) * k
    f = font(round(size))
    for key, x, row in _entries(keys, width, size, size):
        cy = top + size * 0.4 + row * size * 1.7 + size * 0.85
        swatch(d, key, (x, cy - size * 0.6, x + size * 2.2, cy + size * 0.6), k)
        text(d, (x + size * 2.6, cy), _label(key), f, theme.INK, anchor="lm", role="legend")
