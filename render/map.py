"""The map image: every hex of the title, printed or tiled, with tokens and the last move.

Drawn at SUPERSAMPLE times the output size: first the fixed parts of every hex (render.hexart:
track, towns, cities, tokens, phase values), outlines, borders, highlights, margins and the
legend (render.legend); the image is reduced (antialiased); an ink mask is taken from it; then
render.labels places names, revenues, labels, markers, tile numbers and coordinates where the
mask and the recorded discs leave room.  Text is drawn last, at output size.  Close-ups and
regions (render.regions) are the same map limited to some hexes.

A full map is drawn by patching the last one of its game, title, size and legend that the
process keeps (render.mapkeep: the canvas reduced and the ink mask, before the labels): only
the hexes that changed are drawn again, on a scratch supersampled canvas (with every hex within
their reach, in the full drawing's order), and the labels are placed on the whole map as
always, the discs they draw over the canvas redrawn under them; the pixels are those of a map
drawn from nothing (tests/render/test_map_patch.py).  Maps are written in a fixed palette per title
(`title_palette`).  The PNG of a full map (render_map) is patched further: the kept map holds
the image as posted, and only the hexes whose labels may move are placed again and only the
parts of the image that may differ are drawn again and mapped to the palette (`_png_patched`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

import lz4.block
from PIL import Image, ImageChops, ImageDraw

from engine.core.data import Hex, TitleData
from engine.view import GameView, HexState
from render import theme
from render.draw import (
    Box,
    ShapeMark,
    deferred_boxes,
    deferred_items,
    digit_height,
    draw_deferred,
    note_again,
    record_shapes,
    recording_text,
    ring,
    supersampled,
    text,
    unrecorded,
)
from render.fonts import font
from render.hexart import HexArt, draw_hex
from render.labels import (
    TILE_INK,
    HexLabels,
    Placer,
    place_discs,
    place_location,
    place_numbers,
    place_revenues,
    place_words,
)
from render.layout import HexLayout, Point, fit_layout
from render.mapkeep import (
    KEPT,
    LOCK,
    Bands,
    HexDrawn,
    Kept,
    Placed,
    PngBands,
    current_game,
    scratch,
)

__all__ = [
    "focus_hexes", "map_geometry", "map_layout", "map_regions", "render_map", "render_map_image",
    "render_region", "title_palette",
]
from render.legend import draw_legend, legend_font_size, legend_height, legend_keys
from render.mapparts import (
    corp_colors,
    double_hex_partners,
    draw_borders,
    draw_coordinates,
    hex_art,
    reached_destinations,
)
from render.pngwrite import unfiltered_png
from render.regions import focus_hexes, map_regions

DEFAULT_WIDTH = 1600
# A close-up (render_map(focus=...)) is drawn at twice the width Discord previews it on a phone
# (about 400 px), so it stays sharp on 2x screens and legible at the preview size.
FOCUS_WIDTH = 800
PHONE_PREVIEW_WIDTH = 400  # widest inline preview of an attachment in Discord on a phone


@dataclass(frozen=True, slots=True)
class MapGeometry:
    """Where things are on a rendered map (returned by map_layout; used by tests and the bot)."""

    layout: HexLayout
    width: int
    height: int
    header: int  # pixels above the map used by the title line

    def hex_center(self, data: TitleData, name: str) -> Point:
        h = data.hexes[name]
        return self.layout.center(h.x, h.y)


def render_region(view: GameView, region: str, *, size: int = FOCUS_WIDTH) -> bytes:
    """PNG of one region of map_regions(view.data) (e.g. "A1-D9"), legible in a phone preview."""
    hexes = map_regions(view.data)[region]
    return render_map(view, focus=hexes, rings=0, size=size, caption=region)


def _margin(width: int) -> int:
    return max(24, round(width * 0.025))


def map_layout(
    data: TitleData, size: int = DEFAULT_WIDTH, hexes: Iterable[str] | None = None,
    max_height: float | None = None,
) -> MapGeometry:
    """The pixel layout used by render_map for this title at this width (of only `hexes`,
    for a close-up); with max_height, hexes small enough that the map (header and margins
    included) is at most that tall, centred across the width."""
    margin = _margin(size)
    header = round(margin * 1.8)
    shown = data.hexes.values() if hexes is None else [data.hexes[n] for n in hexes]
    cells = [(h.x, h.y) for h in shown]
    lay = fit_layout(data.layout, cells, size, margin)
    _, y0, _, y1 = lay.bounds(cells)
    tall = y1 - y0
    room = None if max_height is None else max_height - header - 2 * margin
    if room is not None and tall > room > 0:
        # the map's height follows the hexes' width: narrower, centred
        inner = (size - 2 * margin) * room / tall
        lay = fit_layout(data.layout, cells, inner + 2 * margin, margin)
        lay = HexLayout(lay.orientation, lay.radius,
                        (lay.origin[0] + (size - inner) / 2 - margin, lay.origin[1]))
    lay = HexLayout(lay.orientation, lay.radius, (lay.origin[0], lay.origin[1] + header))
    _, _, _, y1 = lay.bounds(cells)
    return MapGeometry(lay, size, round(y1 + margin), header)


# Discord's phone preview shows an image at most ~400 px wide and cuts down one taller than
# about 450 px: a close-up or region (legend included) stays within this height per width.
FOCUS_MAX_HEIGHT = 450 / PHONE_PREVIEW_WIDTH
# the digit height (px) of small text (legend, tile numbers, coordinates) in that preview
PHONE_MIN_DIGIT = 5.0


def focus_legend_font(width: int) -> int:
    """The legend's text size on a close-up `width` px wide: legible in the phone preview."""
    scale = PHONE_PREVIEW_WIDTH / width
    size = 8
    while digit_height(font(size)) * scale < PHONE_MIN_DIGIT:
        size += 1
    return max(size, round(legend_font_size(width)))


SUPERSAMPLE = 2  # track, circles and borders are drawn this many times larger, then reduced


def _scaled(lay: HexLayout, k: int) -> HexLayout:
    return HexLayout(lay.orientation, lay.radius * k, (lay.origin[0] * k, lay.origin[1] * k))


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a map image shows and where (render_map_image draws it; map_geometry gives geo)."""

    shown: tuple[str, ...]  # the close-up's hexes (empty: the whole map)
    size: int
    hexes: list[Hex]
    states: dict[str, HexState]
    art_of: dict[str, HexArt]
    emphasise: list[str]
    last: list[str]
    keys: list[str]  # the legend's entries
    legend_px: float | None  # the legend's text size (None: as the full map's)
    legend_h: float  # the legend's height, output pixels
    geo: MapGeometry


def _plan(view: GameView, size: int | None, focus: Iterable[str], rings: int, legend: bool,
          highlight_last: bool, emphasise: Iterable[str]) -> _Plan:
    data = view.data
    shown = focus_hexes(data, focus, rings) if focus else ()
    if size is None:
        size = FOCUS_WIDTH if shown else DEFAULT_WIDTH
    colors = corp_colors(view)
    states = dict(view.hexes)
    for n, v in double_hex_partners(view).items():
        states.setdefault(n, v)
    reached = reached_destinations(view)
    hexes = [data.hexes[n] for n in shown] if shown else list(data.hexes.values())
    art_of = {h.name: hex_art(view, h, states.get(h.name), colors, reached) for h in hexes}
    emph = [n for n in emphasise if n in art_of]
    last = [n for n in view.last_hexes if n in art_of] if highlight_last else []
    borders = {str(b.get("type")) for h in hexes for b in h.borders}
    keys = legend_keys(art_of.values(), impassable="impassable" in borders,
                       double_hex="marker" in borders, last=bool(last),
                       emphasis=bool(emph)) if legend else []
    legend_px = focus_legend_font(size) if shown else None
    k = SUPERSAMPLE
    legend_h = legend_height(keys, size * k, k, legend_px) / k
    geo = map_layout(data, size, shown or None,
                     max_height=size * FOCUS_MAX_HEIGHT - legend_h if shown else None)
    return _Plan(shown, size, hexes, states, art_of, emph, last, keys, legend_px, legend_h, geo)


def map_geometry(
    view: GameView,
    *,
    size: int | None = None,
    focus: Iterable[str] = (),
    rings: int = 1,
    legend: bool = True,
    highlight_last: bool = True,
    emphasise: Iterable[str] = (),
) -> MapGeometry:
    """Where render_map_image(view, same options) puts the hexes (a close-up's hexes are made
    smaller when its legend would make it too tall for the phone preview)."""
    return _plan(view, size, focus, rings, legend, highlight_last, emphasise).geo


def render_map_image(
    view: GameView,
    *,
    size: int | None = None,
    highlight_last: bool = True,
    emphasise: Iterable[str] = (),
    coordinates: bool = True,
    header: bool = True,
    focus: Iterable[str] = (),
    rings: int = 1,
    legend: bool = True,
    caption: str | None = None,
) -> Image.Image:
    """The map as a Pillow image (see render_map).  A full map (no focus) is drawn by patching
    the last full map of its game (render.mapkeep.kept_for), title, size and legend that this
    process kept, when one is kept: the same pixels as drawn from nothing
    (tests/render/test_map_patch.py)."""
    plan, base = _setup(view, size, highlight_last, emphasise, coordinates, header, focus, rings,
                        legend, caption)
    # a full map, text not recorded (the legibility tests read it from a drawing from nothing),
    # and no other thread of this process using the kept maps now
    if plan.shown or recording_text() or KEPT.budget <= 0 or not LOCK.acquire(blocking=False):
        return _drawn(base)
    key = _key(view, plan, coordinates, header)
    try:
        return _kept_rgb(base, key)
    except BaseException:
        KEPT.discard(key)  # perhaps half updated
        raise
    finally:
        LOCK.release()


def _setup(view: GameView, size: int | None, highlight_last: bool, emphasise: Iterable[str],
           coordinates: bool, header: bool, focus: Iterable[str], rings: int, legend: bool,
           caption: str | None) -> tuple[_Plan, _Base]:
    data = view.data
    plan = _plan(view, size, focus, rings, legend, highlight_last, emphasise)
    k = SUPERSAMPLE
    geo = plan.geo
    lay = _scaled(geo.layout, k)
    centers, polys = _where(data, lay, plan.hexes)
    arts = [(h, centers[h.name], plan.art_of[h.name]) for h in plan.hexes]
    title = f"{data.title}  ·  {view.round}  ·  Phase {view.phase}"
    if plan.shown:
        where = caption or ", ".join(n for n in focus if n in data.hexes)
        title = f"{data.title}  ·  {where}  ·  {view.round}"
    return plan, _Base(plan, data, lay, arts, polys, coordinates, title if header else None)


_WHERE: dict[tuple[int, HexLayout, tuple[str, ...]],
             tuple[TitleData, dict[str, Point], dict[str, list[Point]]]] = {}
_WHERE_KEPT = 64


def _where(data: TitleData, lay: HexLayout, hexes: list[Hex]
           ) -> tuple[dict[str, Point], dict[str, list[Point]]]:
    """Each hex's centre and corners in this layout (kept for the next map of the layout: the
    same numbers; read only)."""
    key = (id(data), lay, tuple(h.name for h in hexes))
    got = _WHERE.get(key)
    if got is not None and got[0] is data:
        return got[1], got[2]
    centers = {h.name: lay.center(h.x, h.y) for h in hexes}
    polys = {n: lay.polygon(c) for n, c in centers.items()}
    _WHERE[key] = (data, centers, polys)
    while len(_WHERE) > _WHERE_KEPT:  # (threads: another may be dropping the same one)
        try:
            del _WHERE[next(iter(_WHERE))]
        except (KeyError, RuntimeError, StopIteration):
            break
    return centers, polys


def _key(view: GameView, plan: _Plan, coordinates: bool, header: bool) -> tuple[object, ...]:
    """What a kept full map is kept under: the game, and what fixes the image's layout."""
    return (current_game(), view.data.title, plan.size, plan.geo, tuple(plan.keys),
            plan.legend_px, coordinates, header)


def _kept_rgb(base: _Base, key: tuple[object, ...]) -> Image.Image:
    """The full map: the kept one patched, another game's alike patched (and kept under key), or
    drawn from nothing (and kept).  Under LOCK."""
    plan = base.plan
    kept = KEPT.get(key)
    if kept is not None:
        changed = _changed(kept, plan)
        if len(changed) <= len(plan.hexes) * PATCH_AT_MOST:
            return _patched(kept, base, changed)
    else:  # the game's first map of this layout here: from another game's, if alike
        donor = _donor(key, plan)
        if donor is not None:
            return _patched(donor[0].copy(key), base, donor[1])
    return _drawn(base, key)


def _drawn(base: _Base, key: tuple[object, ...] | None = None) -> Image.Image:
    """The map drawn from nothing (with a key: kept under it, for the next map)."""
    plan, lay, arts, k = base.plan, base.lay, base.arts, SUPERSAMPLE
    geo = plan.geo
    img = Image.new("RGB", (geo.width * k, round(geo.height * k + plan.legend_h * k)),
                    theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    hexes: dict[str, HexDrawn] = {}
    discs = _Recorded()
    with supersampled(k) as pending, record_shapes() as shapes:
        exits = base.draw(d, None, hexes if key is not None else None)
        out = img.reduce(k)
        ink = ImageChops.difference(out, _blank(out.size, geo.layout, arts)).convert("L") \
            .point(_INK)
        kept = None
        if key is not None:  # before the discs are drawn
            kept = Kept(key, out.size, dict(plan.art_of),
                        (tuple(plan.emphasise), tuple(plan.last)), hexes)
            kept.store(out, ink)
        placer, placed = _place(discs, ink, shapes, lay, arts, exits)
    discs.replay(d)  # placement reads the ink mask, not the canvas: the same as drawn then
    if kept is not None:
        kept.placed, kept.above = placed, base.above
        KEPT.put(kept)
    _paste_patches(out, img, placer.patches, k)
    draw_deferred(out, pending)
    return out


@dataclass(slots=True)
class _Base:
    """What is drawn on the supersampled canvas before the labels: fills, hex art, outlines,
    borders, rings, (deferred) coordinates and header, the legend."""

    plan: _Plan
    data: TitleData
    lay: HexLayout
    arts: list[tuple[Hex, Point, HexArt]]
    polys: dict[str, list[Point]]
    coordinates: bool
    title: str | None
    # the header's text and what _above deferred (kept with a map: the same for the next map
    # with that header)
    above: tuple[str | None, tuple[Any, ...]] | None = None

    def draw(self, d: ImageDraw.ImageDraw, only: set[str] | None,
             hexes: dict[str, HexDrawn] | None = None) -> dict[str, list[float]]:
        """Draw it all, or (only) what these hexes draw, in the same order: their fills, art,
        outlines, borders and rings (the text is deferred, the legend is below every hex's
        reach), and return each drawn hex's track exits; `hexes` gets what each hex's art
        recorded (`HexDrawn`)."""
        plan, lay = self.plan, self.lay
        polys = self.polys if only is None else {n: p for n, p in self.polys.items() if n in only}
        arts = self.arts if only is None else [a for a in self.arts if a[0].name in only]
        for h, _, art in arts:
            d.polygon(polys[h.name], fill=art.fill)
        if hexes is None:
            exits = {h.name: draw_hex(d, lay, c, art) for h, c, art in arts}
        else:
            exits = {h.name: self._hex(d, h.name, c, art, hexes) for h, c, art in arts}
        ow = max(1, round(lay.radius * 0.025))
        for h, _, _ in arts:  # one C call a hex (the corners' notches are sub-pixel)
            poly = polys[h.name]
            d.line([*poly, poly[0]], fill=theme.HEX_OUTLINE, width=ow)
        draw_borders(d, lay, self.data, plan.states, polys)
        hw = max(3.0, lay.radius * 0.09)
        for name in plan.emphasise:
            if name in polys:
                ring(d, polys[name], theme.EMPHASIS, hw)
        for name in plan.last:
            if name in polys:
                ring(d, polys[name], theme.HIGHLIGHT, hw)
        if only is None:
            self._above(d)
        return exits

    def _hex(self, d: ImageDraw.ImageDraw, name: str, c: Point, art: HexArt,
             hexes: dict[str, HexDrawn]) -> list[float]:
        items = deferred_items()
        n = len(items)
        with record_shapes() as marks:
            exits = draw_hex(d, self.lay, c, art)
        hexes[name] = HexDrawn(exits, tuple(marks), tuple(items[n:]))
        return exits

    def records(self, kept: dict[str, HexDrawn], changed: set[str],
                hexes: dict[str, HexDrawn],
                above: tuple[str | None, tuple[Any, ...]] | None = None
                ) -> dict[str, list[float]]:
        """What a full drawing records (the track exits, the shapes noted, the text deferred),
        in the same order, without drawing the canvas: each hex not changed gives what its art
        recorded in the kept map (`kept`), the others are drawn on a 1 x 1 image (every
        Pillow call clipped to nothing); `hexes` gets what each hex's art recorded."""
        d = ImageDraw.Draw(Image.new("RGB", (1, 1)))
        exits = {}
        items = deferred_items()
        for h, c, art in self.arts:
            got = None if h.name in changed else kept.get(h.name)
            if got is None:
                exits[h.name] = self._hex(d, h.name, c, art, hexes)
                continue
            note_again(got.shapes)
            items.extend(got.texts)
            exits[h.name] = got.exits
            hexes[h.name] = got
        if above is not None and above[0] == self.title:  # the last map's, same header
            items.extend(above[1])
            self.above = above
        else:
            self._above(d)
        return exits

    def _above(self, d: ImageDraw.ImageDraw) -> None:
        """The coordinates and header (deferred text) and the legend."""
        items = deferred_items()
        n = len(items)
        self._above_drawn(d)
        self.above = (self.title, tuple(items[n:]))

    def _above_drawn(self, d: ImageDraw.ImageDraw) -> None:
        plan, lay, k = self.plan, self.lay, SUPERSAMPLE
        if self.coordinates:
            draw_coordinates(d, lay, plan.hexes, _margin(plan.size) * k)
        if self.title is not None:
            f = font(round(plan.geo.header * k * 0.45), bold=True)
            text(d, (_margin(plan.size) * k, plan.geo.header * k * 0.45), self.title, f,
                 theme.INK, anchor="lm")
        if plan.keys:
            map_h, width = plan.geo.height * k, plan.geo.width * k
            d.line([(0, map_h), (width, map_h)], fill=theme.HEX_OUTLINE, width=k)
            draw_legend(d, plan.keys, map_h, width, k, font_px=plan.legend_px)

    def meeting(self, boxes: list[Box]) -> set[str]:
        """The hexes whose drawing may reach into one of the boxes (canvas pixels)."""
        reach = self.lay.radius * HEX_REACH
        out = set()
        for h, c, _ in self.arts:
            x0, y0, x1, y1 = c[0] - reach, c[1] - reach, c[0] + reach, c[1] + reach
            if any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in boxes):
                out.add(h.name)
        return out

    def box(self, name: str) -> Box:
        c = self.lay.center(self.data.hexes[name].x, self.data.hexes[name].y)
        reach = self.lay.radius * HEX_REACH
        return (c[0] - reach, c[1] - reach, c[0] + reach, c[1] + reach)


# how far (in hex radii, from its centre) anything drawn for a hex may reach: its fill and art
# measured at most 1.01 radii on the three titles' boards, outlines, borders and rings about
# 1.05; the rest is margin (tests/render/test_map_patch.py fails at 0.7).  The legend is below
# every hex's reach (the map's margin is wider than 0.2 radii)
HEX_REACH = 1.2
# a map that differs from the kept one in more than this share of its hexes (after an undo of
# many moves, or another game's map when maps are kept without a game) is drawn from nothing
# (and kept instead)
PATCH_AT_MOST = 0.25


def _fbox(b: tuple[int, int, int, int]) -> Box:
    return (float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def _aligned(b: Box, k: int) -> tuple[int, int, int, int]:
    return (int(b[0] // k) * k, int(b[1] // k) * k, int(-(-b[2] // k)) * k, int(-(-b[3] // k)) * k)


def _redraw(base: _Base, size: tuple[int, int], boxes: list[tuple[int, int, int, int]]
            ) -> Image.Image:
    """The process's scratch canvas holding, within `boxes` (canvas pixels), the base drawing
    as a full map's canvas has it (cleared there, then every hex that reaches into them drawn
    in the full drawing's order); elsewhere it holds whatever was left."""
    canvas = scratch("canvas", "RGB", size)
    for b in boxes:
        canvas.paste(theme.BACKGROUND, b)
    with unrecorded(SUPERSAMPLE):
        base.draw(ImageDraw.Draw(canvas), base.meeting([_fbox(b) for b in boxes]))
    return canvas


# a game's first map of a layout in a process is patched from the most alike of this many
# maps of other games (or of none) with the same layout kept last
DONORS_LOOKED_AT = 4


def _donor(key: tuple[object, ...], plan: _Plan) -> tuple[Kept, set[str]] | None:
    """The kept map of another game with the same layout (title, size, legend) that differs
    least from this plan, if it differs in at most PATCH_AT_MOST of the hexes, and how."""
    best: tuple[Kept, set[str]] | None = None
    seen = 0
    for other in reversed(KEPT.in_order()):
        if other[1:] != key[1:]:
            continue
        kept = KEPT.peek(other)
        changed = _changed(kept, plan)
        if best is None or len(changed) < len(best[1]):
            best = (kept, changed)
        seen += 1
        if seen >= DONORS_LOOKED_AT or not changed:
            break
    if best is None or len(best[1]) > len(plan.hexes) * PATCH_AT_MOST:
        return None
    return best


def _changed(kept: Kept, plan: _Plan) -> set[str]:
    """The hexes whose drawing differs from the kept map's: their art, or a ring around them."""
    changed = {n for n, art in plan.art_of.items() if kept.art_of.get(n) != art}
    changed.update(set(kept.rings[0]) ^ set(plan.emphasise), set(kept.rings[1]) ^ set(plan.last))
    return changed


def _blank_near(base: _Base, size: tuple[int, int], boxes: list[tuple[int, int, int, int]],
                small: list[tuple[int, int, int, int]]) -> Image.Image:
    """What the map shows under its ink in the redrawn boxes (`small`, at the map's scale;
    `boxes`, supersampled): the background and the fill of every hex they meet."""
    blank = scratch("blank", "RGB", size)
    bd = ImageDraw.Draw(blank)
    geo_lay = base.plan.geo.layout
    for sb in small:
        blank.paste(theme.BACKGROUND, sb)
    near = base.meeting([_fbox(b) for b in boxes])
    for hx, _, art in base.arts:
        if hx.name in near:
            bd.polygon(geo_lay.polygon(geo_lay.center(hx.x, hx.y)), fill=art.fill)
    return blank


def _patched(kept: Kept, base: _Base, changed: set[str]) -> Image.Image:
    """The kept map with the changed hexes drawn again (and kept as the game's last map), its
    labels placed on the whole map, the discs placement draws drawn on the scratch canvas over
    the base drawing redrawn under them."""
    k = SUPERSAMPLE
    plan = base.plan
    out, ink = kept.out(), kept.ink_mask()
    canvas_size = (out.width * k, out.height * k)
    boxes = [_aligned(base.box(n), k) for n in sorted(changed)]
    if boxes:
        canvas = _redraw(base, canvas_size, boxes)
        small = [(b[0] // k, b[1] // k, b[2] // k, b[3] // k) for b in boxes]
        for b, s in zip(boxes, small, strict=True):
            out.paste(canvas.crop(b).reduce(k), s[:2])
        blank = _blank_near(base, out.size, boxes, small)
        for s in small:
            ink.paste(ImageChops.difference(out.crop(s), blank.crop(s)).convert("L").point(_INK),
                      s[:2])
        kept.store(out, ink, (min(s[1] for s in small), max(s[3] for s in small)))
    kept.art_of = dict(plan.art_of)
    kept.rings = (tuple(plan.emphasise), tuple(plan.last))
    discs = _Recorded()
    hexes: dict[str, HexDrawn] = {}
    with supersampled(k) as pending, record_shapes() as shapes:
        # as a full drawing records them
        exits = base.records(kept.hexes, changed, hexes, kept.above)
        placer, kept.placed = _place(discs, ink, shapes, base.lay, base.arts, exits)
    kept.hexes, kept.above, kept.png = hexes, base.above, None
    KEPT.put(kept)
    if placer.patches:
        canvas = _under_discs(kept, base, canvas_size, [_aligned(b, k) for b in placer.patches],
                              boxes)
        discs.replay(ImageDraw.Draw(canvas))
        _paste_patches(out, canvas, placer.patches, k)
    draw_deferred(out, pending)
    return out


def _kept_png(view: GameView, size: int | None, highlight_last: bool, emphasise: Iterable[str],
              coordinates: bool, header: bool, legend: bool, level: int) -> bytes | None:
    """The PNG of a full map by way of the kept maps (None when they cannot be used now, as in
    render_map_image): the posted image of the kept map patched (`_png_patched`), else the
    full map as render_map_image draws it, in the title's palette, kept as posted."""
    palette = title_palette(view.data.title)  # first: choosing it draws maps, under LOCK
    if recording_text() or KEPT.budget <= 0 or not LOCK.acquire(blocking=False):
        return None
    try:
        plan, base = _setup(view, size, highlight_last, emphasise, coordinates, header, (), 1,
                            legend, None)
        key = _key(view, plan, coordinates, header)
        try:
            kept = KEPT.get(key)
            if kept is not None and kept.png is not None and kept.png.level == level:
                changed = _changed(kept, plan)
                if len(changed) <= len(plan.hexes) * PATCH_AT_MOST:
                    return _png_patched(kept, base, changed, palette)
            elif kept is None:  # the game's first map of this layout here: another game's
                donor = _donor(key, plan)
                if donor is not None and donor[0].png is not None \
                        and donor[0].png.level == level:
                    return _png_patched(donor[0].copy(key), base, donor[1], palette)
            img = _kept_rgb(base, key).quantize(palette=palette, dither=Image.Dither.NONE)
            kept = KEPT.peek(key) if key in KEPT else None
            if kept is None:
                return unfiltered_png(img, level)
            kept.png = PngBands(img, level)
            KEPT.put(kept)  # accounted again
            return kept.png.png()
        except BaseException:
            KEPT.discard(key)  # perhaps half updated
            raise
    finally:
        LOCK.release()


def _meets(a: Box | tuple[int, int, int, int], b: Box | tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _png_patched(kept: Kept, base: _Base, changed: set[str], palette: Image.Image) -> bytes:
    """The kept map's posted image with what changed drawn again: the changed hexes on the
    kept canvas (as `_patched`), the labels placed again only for the hexes whose free space
    may differ (`_place`: the others do what they did), and the parts of the image that may
    differ (the changed hexes' boxes, the text and discs placed differently, the header)
    drawn again from the kept canvas, the discs and every text over them, in the palette.
    The pixels are those of the full map drawn from nothing, in the palette
    (tests/render/test_map_patch.py)."""
    k = SUPERSAMPLE
    plan = base.plan
    assert kept.png is not None
    w, h = kept.size
    canvas_size = (w * k, h * k)
    boxes = [_aligned(base.box(n), k) for n in sorted(changed)]
    small = [(b[0] // k, b[1] // k, b[2] // k, b[3] // k) for b in boxes]
    bands = Bands(kept)
    ink = bytearray(lz4.block.decompress(kept.ink))
    if boxes:
        canvas = _redraw(base, canvas_size, boxes)
        for b, sb in zip(boxes, small, strict=True):
            bands.paste(canvas.crop(b).reduce(k), sb[:2])
        blank = _blank_near(base, (w, h), boxes, small)
        for sb in small:
            x0, y0, x1, y1 = max(0, sb[0]), max(0, sb[1]), min(w, sb[2]), min(h, sb[3])
            if x1 <= x0 or y1 <= y0:
                continue
            got = ImageChops.difference(bands.crop((x0, y0, x1, y1)),
                                        blank.crop((x0, y0, x1, y1))).convert("L") \
                .point(_INK).tobytes()
            bw = x1 - x0
            for y in range(y0, y1):
                ink[y * w + x0:y * w + x1] = got[(y - y0) * bw:(y - y0 + 1) * bw]
        bands.close()
        kept.ink = lz4.block.compress(ink)
    kept.art_of = dict(plan.art_of)
    kept.rings = (tuple(plan.emphasise), tuple(plan.last))
    old, old_above = kept.placed, kept.above
    hexes: dict[str, HexDrawn] = {}
    with supersampled(k) as pending, record_shapes() as shapes:
        exits = base.records(kept.hexes, changed, hexes, kept.above)  # as a full drawing's
        n_items, n_shapes = len(pending.items), len(shapes)
        # the hexes whose labels may go elsewhere: the changed ones, those that looked at the
        # free space where the canvas changed, and (again and again) those that looked where
        # a label placed again went elsewhere
        around = _around_all(small)
        redo = set(changed) | {n for (_, n), rec in old.items()
                               if rec.read is not None and _meets(rec.read, around)
                               and any(_meets(rec.read, b) for b in small)}
        while True:
            del pending.items[n_items:], shapes[n_shapes:]
            discs = _Recorded()
            placer, placed = _place(discs, ((w, h), ink), shapes, base.lay, base.arts, exits,
                                    old, redo)
            differ = [key for key in {*old, *placed}
                      if key[1] in redo and old.get(key) != placed.get(key)]
            moved = [(b[0] / k, b[1] / k, b[2] / k, b[3] / k)
                     for key in differ for rec in (old.get(key), placed.get(key))
                     if rec is not None for b, _, _ in rec.takes]
            around = _around_all(moved)
            more = {n for (_, n), rec in old.items() if n not in redo and rec.read is not None
                    and _meets(rec.read, around) and any(_meets(rec.read, b) for b in moved)}
            if not more:
                break
            redo |= more
            ink = bytearray(lz4.block.decompress(kept.ink))  # the placer marked the last
    kept.hexes, kept.above, kept.placed = hexes, base.above, placed
    # what to draw again (output pixels)
    texts = [t for key in differ for rec in (old.get(key), placed.get(key)) if rec is not None
             for t in rec.texts]
    if old_above != base.above and old_above is not None and base.above is not None:
        texts.extend(set(old_above[1]) ^ set(base.above[1]))
    regions = [*small, *deferred_boxes(texts)]
    for key in differ:
        for rec in (old.get(key), placed.get(key)):
            if rec is not None:
                regions.extend(_small(_aligned(b, k), k) for b, _, disc in rec.takes if disc)
    regions = _outer([r for r in ((max(0, r[0]), max(0, r[1]), min(w, r[2]), min(h, r[3]))
                                  for r in regions) if r[0] < r[2] and r[1] < r[3]])
    if regions:
        _draw_again(kept, base, bands, regions, [_aligned(b, k) for b in placer.patches], boxes,
                    discs, pending, palette)
    KEPT.put(kept)
    return kept.png.png()


def _around_all(boxes: list[Box] | list[tuple[int, int, int, int]]) -> Box:
    """The box around all of them (one that meets nothing when there are none)."""
    if not boxes:
        return (0.0, 0.0, 0.0, 0.0)
    return (float(min(b[0] for b in boxes)), float(min(b[1] for b in boxes)),
            float(max(b[2] for b in boxes)), float(max(b[3] for b in boxes)))


def _outer(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The boxes less those inside another (the first of equal ones kept)."""
    out: list[tuple[int, int, int, int]] = []
    for i, b in enumerate(boxes):
        if not any(j != i and o[0] <= b[0] and o[1] <= b[1] and b[2] <= o[2] and b[3] <= o[3]
                   and (o != b or j < i) for j, o in enumerate(boxes)):
            out.append(b)
    return out


def _small(b: tuple[int, int, int, int], k: int) -> tuple[int, int, int, int]:
    return (b[0] // k, b[1] // k, b[2] // k, b[3] // k)


def _draw_again(kept: Kept, base: _Base, bands: Bands, regions: list[tuple[int, int, int, int]],
                patches: list[tuple[int, int, int, int]], changed: list[tuple[int, int, int, int]],
                discs: _Recorded, pending: Any, palette: Image.Image) -> None:
    """Draw these regions (output pixels) of the posted image again, as a full drawing has
    them: the kept canvas (`bands`), the discs' patches (`patches`, canvas pixels, the discs
    drawn on the base drawing redrawn or pasted under them: as `_under_discs`), every text over
    them, in the palette."""
    assert kept.png is not None
    k = SUPERSAMPLE
    need = [b for b in dict.fromkeys(patches) if any(_meets(_small(b, k), r) for r in regions)]
    under = {b: kept.under[b] for b in dict.fromkeys(patches)
             if b in kept.under and not any(_meets(b, c) for c in changed)}
    canvas = None
    if need:
        size = (kept.size[0] * k, kept.size[1] * k)
        stale = [b for b in need if b not in under]
        canvas = _redraw(base, size, stale) if stale else scratch("canvas", "RGB", size)
        for b in need:  # after the redraw, which may draw over these boxes
            if b not in stale:
                canvas.paste(Image.frombytes("RGB", (b[2] - b[0], b[3] - b[1]),
                                             lz4.block.decompress(under[b])), b[:2])
        for b in stale:
            under[b] = lz4.block.compress(canvas.crop(b).tobytes())
        discs.replay(ImageDraw.Draw(canvas))
    kept.under = under
    reduced = {b: canvas.crop(b).reduce(k) for b in need} if canvas is not None else {}
    around = _around_all(regions)
    items = [(t, tb) for t, tb in zip(pending.items, deferred_boxes(pending.items), strict=True)
             if _meets(tb, around)]
    for r in regions:
        crop = bands.crop(r)
        for b in patches:  # in the order pasted
            if b in reduced and _meets(_small(b, k), r):
                crop.paste(reduced[b], (b[0] // k - r[0], b[1] // k - r[1]))
        draw_deferred(crop, pending, r[:2], [t for t, tb in items if _meets(tb, r)])
        kept.png.paste(crop.quantize(palette=palette, dither=Image.Dither.NONE), r[:2])


def _under_discs(kept: Kept, base: _Base, size: tuple[int, int],
                 under: list[tuple[int, int, int, int]], changed: list[tuple[int, int, int, int]]
                 ) -> Image.Image:
    """The scratch canvas holding the base drawing in the boxes `under` (the discs' boxes):
    pasted from the kept map's (`Kept.under`) where no changed hex's box meets them, redrawn
    elsewhere (the discs are mostly where they were: redrawing under all of them took half of
    the hexes of a map); the boxes' base drawing kept for the next map."""
    def meets(b: tuple[int, int, int, int]) -> bool:
        return any(b[0] < c[2] and c[0] < b[2] and b[1] < c[3] and c[1] < b[3] for c in changed)

    stale = [b for b in under if b not in kept.under or meets(b)]
    canvas = _redraw(base, size, stale) if stale else scratch("canvas", "RGB", size)
    for b in under:  # after the redraw, which may draw over these boxes
        if b not in stale:
            canvas.paste(Image.frombytes("RGB", (b[2] - b[0], b[3] - b[1]),
                                         lz4.block.decompress(kept.under[b])), b[:2])
    kept.under = {b: lz4.block.compress(canvas.crop(b).tobytes()) for b in under}
    return canvas


class _Recorded:
    """Stands for the canvas's ImageDraw while labels are placed on a patched map: the discs'
    drawing calls are kept, to be made (`replay`) once the canvas under them is redrawn."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[object, ...], dict[str, object]]] = []

    def __getattr__(self, name: str) -> Callable[..., None]:
        def call(*args: object, **kwargs: object) -> None:
            self.calls.append((name, args, kwargs))
        return call

    def replay(self, d: ImageDraw.ImageDraw) -> None:
        for name, args, kwargs in self.calls:
            getattr(d, name)(*args, **kwargs)


def _stage_location(d: ImageDraw.ImageDraw, pl: Placer, hl: HexLabels) -> None:
    place_location(pl, hl)


def _stage_words(d: ImageDraw.ImageDraw, pl: Placer, hl: HexLabels) -> None:
    place_words(pl, hl)


def _stage_numbers(d: ImageDraw.ImageDraw, pl: Placer, hl: HexLabels) -> None:
    place_numbers(pl, hl)


# the kinds of label, placed in this order over all the hexes (names first: the widest)
_STAGES: tuple[Callable[[ImageDraw.ImageDraw, Placer, HexLabels], None], ...] = (
    _stage_location, place_revenues, place_discs, _stage_words, _stage_numbers)


def _place(d: _Recorded, ink: Image.Image | tuple[tuple[int, int], bytes | bytearray],
           shapes: list[ShapeMark], lay: HexLayout, arts: list[tuple[Hex, Point, HexArt]],
           exits: dict[str, list[float]], kept: dict[tuple[int, str], Placed] | None = None,
           redo: set[str] | None = None) -> tuple[Placer, dict[tuple[int, str], Placed]]:
    """Place the labels of every hex (discs drawn into `d`), and what each (kind, hex) did;
    with `kept` (what placing them did on the last map), the hexes not in `redo` do again what
    they did then, without looking for room: the same as placing them when the free space they
    looked at is as it was then (render.map._png_patched makes sure of it)."""
    placer = Placer(d, ink, shapes)  # type: ignore[arg-type]
    items = deferred_items()
    calls = d.calls
    placed: dict[tuple[int, str], Placed] = {}
    todo = [(h.name, HexLabels(lay, c, art, exits[h.name])) for h, c, art in arts]
    for stage, place in enumerate(_STAGES):
        for name, hl in todo:
            key = (stage, name)
            if kept is not None and redo is not None and name not in redo:
                got = kept.get(key)
                if got is not None:
                    items.extend(got.texts)
                    for b, kind, disc in got.takes:
                        placer.take_later(b, kind, disc)
                    calls.extend(got.calls)
                    note_again(got.notes)
                    placed[key] = got
                continue
            n_items, n_takes, n_calls, n_shapes = len(items), len(placer.taken), len(calls), \
                len(shapes)
            placer.read = None
            place(d, placer, hl)  # type: ignore[arg-type]
            read = placer.read
            if read is None and len(items) == n_items and len(placer.taken) == n_takes \
                    and len(calls) == n_calls:
                continue
            placed[key] = Placed(tuple(items[n_items:]), tuple(placer.taken[n_takes:]),
                                 tuple(calls[n_calls:]), tuple(shapes[n_shapes:]),
                                 None if read is None else (read[0], read[1], read[2], read[3]))
    return placer, placed


def _paste_patches(out: Image.Image, img: Image.Image, patches: list[Box], k: int) -> None:
    for b in patches:  # the discs drawn while placing: reduce just their regions
        x0, y0, x1, y1 = _aligned(b, k)
        out.paste(img.crop((x0, y0, x1, y1)).reduce(k), (x0 // k, y0 // k))


def _blank(size: tuple[int, int], lay: HexLayout, arts: list[tuple[Hex, Point, HexArt]]
           ) -> Image.Image:
    blank = Image.new("RGB", size, theme.BACKGROUND)
    bd = ImageDraw.Draw(blank)
    for h, _, art in arts:
        bd.polygon(lay.polygon(lay.center(h.x, h.y)), fill=art.fill)
    return blank


_INK = [255 if v > 24 else 0 for v in range(256)]  # ink where the difference's grey is over 24


def render_map(
    view: GameView,
    *,
    size: int | None = None,
    highlight_last: bool = True,
    emphasise: Iterable[str] = (),
    coordinates: bool = True,
    header: bool = True,
    focus: Iterable[str] = (),
    rings: int = 1,
    legend: bool = True,
    caption: str | None = None,
    compress_level: int = 1,
) -> bytes:
    """PNG bytes of the map.

    size: image width in pixels (the height follows the map's shape); default 1600 for the
    full map, 800 for a close-up.
    focus: hex names (e.g. view.last_hexes) for a close-up around them instead of the whole
    map: the hexes within `rings` steps, at least 4 hexes across, so that revenues, token
    labels and names stay legible in Discord's phone preview (~400 px wide).  The full 1870
    map is 11½ hexes across and 15 rows, which no font size makes legible at that width.
    highlight_last: outline view.last_hexes (the last action) in magenta.
    emphasise: more hex names to outline in blue (e.g. a route or the hexes a command names).
    coordinates: letters and numbers along the border (every hex also shows its coordinate
    inside, small).  header: the title / round / phase line.
    legend: a strip under the map naming every colour and mark it shows (default on; on a
    close-up or region its text is legible in the phone preview, and the hexes are made
    smaller when the image, legend included, would be taller than the preview shows).  caption: what the header names a close-up by (default: the
    focus hexes).
    Track, circles and borders are drawn at SUPERSAMPLE times the size and reduced (antialiased);
    text is drawn at the output size afterwards.
    """
    if not focus:  # a full map: its kept image patched, when one is kept
        png = _kept_png(view, size, highlight_last, emphasise, coordinates, header, legend,
                        compress_level)
        if png is not None:
            return png
    img = render_map_image(
        view,
        size=size,
        highlight_last=highlight_last,
        emphasise=emphasise,
        coordinates=coordinates,
        header=header,
        focus=focus,
        rings=rings,
        legend=legend,
        caption=caption,
    )
    return unfiltered_png(img.quantize(palette=title_palette(view.data.title),
                                       dither=Image.Dither.NONE), compress_level)


PALETTE_EXACT = 128  # at most this many of the 256 colours are the flat colours, exactly


# the theme's colours of the market and the status sheet, not drawn on maps
_NOT_ON_MAPS = ("ZONE_FILL", "PAR_OUTLINE", "HEADER_FILL", "HEADER_INK", "ROW_ALT", "ACTING_FILL",
                "NEXT_TRAIN_FILL", "GONE_INK")


def _theme_colours() -> list[theme.RGB]:
    out: list[theme.RGB] = [(0, 0, 0), (255, 255, 255), TILE_INK]  # theme.text_on's, labels'
    for name, v in vars(theme).items():
        if name in _NOT_ON_MAPS:
            continue
        for c in v.values() if isinstance(v, dict) else (v,):
            if isinstance(c, tuple) and len(c) == 3 and all(isinstance(x, int) for x in c):
                out.append(c)
    return out


def _title_colours(view: GameView) -> list[theme.RGB]:
    """The flat colours a title's maps are drawn in: the theme's, the corporations', the hexes'
    and the tiles' (as render.mapparts gives them)."""
    data = view.data
    return sorted({*_theme_colours(), *corp_colors(view).values(),
                   *(theme.rgb(h.color) for h in data.hexes.values()),
                   *(theme.rgb(t.color) for t in data.tiles.values())})


@cache
def title_palette(title: str) -> Image.Image:
    """The 256 colours a title's maps are written in (a "P" image holding the palette): chosen
    once per process (the render workers' warm-up pays it): every flat colour of the theme and
    the title exactly (`_title_colours`), the rest by Pillow's fast octree over the title's
    crowded demonstration board (render.demo.busy_view: its full map, and a close-up around its
    busiest city with the last move and an emphasised hex outlined), where the antialiased
    edges' blends are.  Each map is then only mapped to it, pixel by pixel (nearest colour):
    an adaptive palette, chosen from a sample of each map's own pixels, doubled the quantizing
    and was not closer to the map on average (bench/README.md, section 9)."""
    from render.demo import busy_view  # render.demo is not needed to draw a map

    view = busy_view(title)
    busiest = max(sorted(view.hexes),
                  key=lambda n: sum(1 for t in view.hexes[n].tokens for c in t if c))
    with LOCK:  # drawn from nothing and not kept (render_map_image finds the kept maps taken)
        full = render_map_image(view)
        close = render_map_image(view, focus=(busiest,), emphasise=(busiest,))
    src = Image.new("RGB", (full.width, full.height + close.height), theme.BACKGROUND)
    src.paste(full, (0, 0))
    src.paste(close, (0, full.height))
    exact = _title_colours(view)[:PALETTE_EXACT]
    blends = src.quantize(256 - len(exact), method=Image.Quantize.FASTOCTREE,
                          dither=Image.Dither.NONE).getpalette("RGB") or []
    pal = Image.new("P", (1, 1))
    pal.putpalette([x for c in exact for x in c] + blends[:3 * (256 - len(exact))])
    return pal
