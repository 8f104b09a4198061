"""The map image: every hex of the title, printed or tiled, with tokens and the last move.

Drawn at SUPERSAMPLE times the output size: first the fixed parts of every hex (render.hexart:
track, towns, cities, tokens, phase values), outlines, borders, highlights, margins and the
legend (render.legend); the image is reduced (antialiased); an ink mask is taken from it; then
render.labels places names, revenues, labels, markers, tile numbers and coordinates where the
mask and the recorded discs leave room.  Text is drawn last, at output size.  Close-ups and
regions (render.regions) are the same map limited to some hexes.

A full map is drawn by patching the last one of its title, size and legend that the process
drew (`_Kept`): only the hexes that changed are drawn again on the kept supersampled canvas
(with every hex within their reach, in the full drawing's order), and the labels are placed
on the whole map as always; the pixels are those of a map drawn from nothing
(tests/render/test_map_patch.py).  Maps are written in a fixed palette per title
(`title_palette`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageChops, ImageDraw

from engine.core.data import Hex, TitleData
from engine.view import GameView, HexState
from render import theme
from render.draw import (
    Box,
    ShapeMark,
    digit_height,
    draw_deferred,
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
    the last full map of its title, size and legend that this process drew, when one is kept
    (`_Kept`): the same pixels as drawn from nothing (tests/render/test_map_patch.py)."""
    data = view.data
    plan = _plan(view, size, focus, rings, legend, highlight_last, emphasise)
    k = SUPERSAMPLE
    geo = plan.geo
    lay = _scaled(geo.layout, k)
    arts = [(h, lay.center(h.x, h.y), plan.art_of[h.name]) for h in plan.hexes]
    polys = {h.name: lay.polygon(c) for h, c, _ in arts}
    title = f"{data.title}  ·  {view.round}  ·  Phase {view.phase}"
    if plan.shown:
        where = caption or ", ".join(n for n in focus if n in data.hexes)
        title = f"{data.title}  ·  {where}  ·  {view.round}"
    base = _Base(plan, data, lay, arts, polys, coordinates, title if header else None)
    # a full map, text not recorded (the legibility tests read it from a drawing from nothing),
    # and no other thread of this process using the kept maps now
    if plan.shown or recording_text() or not MAPS_KEPT or not _LOCK.acquire(blocking=False):
        return _drawn(base, view, keep=False)
    try:
        sig = (data.title, plan.size, geo, tuple(plan.keys), plan.legend_px, coordinates, header)
        kept = _KEPT.get(sig)
        if kept is not None:
            changed = _changed(kept, plan)
            if len(changed) <= len(plan.hexes) * PATCH_AT_MOST:
                return _patched(kept, base, changed)
        return _drawn(base, view, keep=True, sig=sig)
    finally:
        _LOCK.release()


def _drawn(base: _Base, view: GameView, keep: bool, sig: tuple[object, ...] = ()
           ) -> Image.Image:
    """The map drawn from nothing (keep: kept for the next map of its title, size and legend)."""
    plan, lay, arts, k = base.plan, base.lay, base.arts, SUPERSAMPLE
    geo = plan.geo
    img = Image.new("RGB", (geo.width * k, round(geo.height * k + plan.legend_h * k)),
                    theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    with supersampled(k) as pending, record_shapes() as shapes:
        exits = base.draw(d, None)
        out = img.reduce(k)
        blank = _blank(out.size, geo.layout, arts)
        ink = ImageChops.difference(out, blank).convert("L").point(_INK)
        placer = _place(d, ink, shapes, lay, arts, exits, img if keep else None)
    kept = None
    if keep:
        kept = _Kept(sig, dict(plan.art_of), (tuple(plan.emphasise), tuple(plan.last)),
                     img, out.copy(), blank, ink)
        _keep(kept)
    _paste_patches(out, img, placer.patches, k)
    if isinstance(placer, _SavingPlacer):
        placer.undo()  # the kept canvas without the discs
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

    def draw(self, d: ImageDraw.ImageDraw, only: set[str] | None) -> dict[str, list[float]]:
        """Draw it all, or (only) what these hexes draw, in the same order: their fills, art,
        outlines, borders and rings (the text is deferred, the legend is below every hex's
        reach), and return each drawn hex's track exits."""
        plan, lay, k = self.plan, self.lay, SUPERSAMPLE
        polys = self.polys if only is None else {n: p for n, p in self.polys.items() if n in only}
        arts = self.arts if only is None else [a for a in self.arts if a[0].name in only]
        for h, _, art in arts:
            d.polygon(polys[h.name], fill=art.fill)
        exits = {h.name: draw_hex(d, lay, c, art) for h, c, art in arts}
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
        if only is not None:
            return exits
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
        return exits

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
# a map that differs from the kept one in more than this share of its hexes (another game's,
# most likely) is drawn from nothing (and kept instead)
PATCH_AT_MOST = 0.25
# full maps a process keeps, the last of each title, size and legend (a legend with or without
# the last move's entry is another height): canvas, reduction, bare fills and ink mask (about
# 71 MB for 18MS as Pillow holds them, 80 MB for 1870), and one scratch canvas and image as
# large as the largest (57-64 MB): at most about 380 MB
MAPS_KEPT = 4


@dataclass(slots=True)
class _Kept:
    """The last full map of a title, size and legend in this process: its supersampled canvas
    without the discs
    placed on it, that canvas reduced, the bare fills and the ink mask, and what they show."""

    sig: tuple[object, ...]
    art_of: dict[str, HexArt]
    rings: tuple[tuple[str, ...], tuple[str, ...]]
    canvas: Image.Image
    out: Image.Image
    blank: Image.Image
    ink: Image.Image


_KEPT: OrderedDict[tuple[object, ...], _Kept] = OrderedDict()
_LOCK = threading.Lock()  # the kept maps and scratch canvases are one thread's at a time
_SCRATCH: dict[str, Image.Image] = {}  # by use: one as large as the largest kept map


def _keep(kept: _Kept) -> None:
    _KEPT[kept.sig] = kept
    _KEPT.move_to_end(kept.sig)
    while len(_KEPT) > MAPS_KEPT:
        _KEPT.popitem(last=False)


def _scratch(use: str, size: tuple[int, int]) -> Image.Image:
    """A scratch RGB image at least `size` large (what it holds is left over)."""
    img = _SCRATCH.get(use)
    if img is None or img.width < size[0] or img.height < size[1]:
        w, h = (size if img is None else (max(size[0], img.width), max(size[1], img.height)))
        img = _SCRATCH[use] = Image.new("RGB", (w, h))
    return img


def _fbox(b: tuple[int, int, int, int]) -> Box:
    return (float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def _aligned(b: Box, k: int) -> tuple[int, int, int, int]:
    return (int(b[0] // k) * k, int(b[1] // k) * k, int(-(-b[2] // k)) * k, int(-(-b[3] // k)) * k)


def _redraw(canvas: Image.Image, base: _Base, boxes: list[tuple[int, int, int, int]]) -> None:
    """The base drawing within `boxes` (canvas pixels), drawn on a scratch canvas (cleared in
    the boxes; elsewhere what it held) by every hex that reaches into them, in the full
    drawing's order, and copied into canvas."""
    scratch = _scratch("canvas", canvas.size)
    for b in boxes:
        scratch.paste(theme.BACKGROUND, b)
    with unrecorded(SUPERSAMPLE):
        base.draw(ImageDraw.Draw(scratch), base.meeting([_fbox(b) for b in boxes]))
    for b in boxes:
        canvas.paste(scratch.crop(b), b[:2])


def _changed(kept: _Kept, plan: _Plan) -> set[str]:
    """The hexes whose drawing differs from the kept map's: their art, or a ring around them."""
    changed = {n for n, art in plan.art_of.items() if kept.art_of.get(n) != art}
    changed.update(set(kept.rings[0]) ^ set(plan.emphasise), set(kept.rings[1]) ^ set(plan.last))
    return changed


def _patched(kept: _Kept, base: _Base, changed: set[str]) -> Image.Image:
    """The kept map with the changed hexes drawn again (and kept as the new last map)."""
    k = SUPERSAMPLE
    plan = base.plan
    boxes = [_aligned(base.box(n), k) for n in sorted(changed)]
    if boxes:
        _redraw(kept.canvas, base, boxes)
        small = [(b[0] // k, b[1] // k, b[2] // k, b[3] // k) for b in boxes]
        for b, s in zip(boxes, small, strict=True):
            kept.out.paste(kept.canvas.crop(b).reduce(k), s[:2])
        blank = _scratch("blank", kept.blank.size)
        bd = ImageDraw.Draw(blank)
        geo_lay = plan.geo.layout
        for s in small:
            blank.paste(theme.BACKGROUND, s)
        near = base.meeting([_fbox(b) for b in boxes])
        for h, _, art in base.arts:
            if h.name in near:
                bd.polygon(geo_lay.polygon(geo_lay.center(h.x, h.y)), fill=art.fill)
        for s in small:
            kept.blank.paste(blank.crop(s), s[:2])
            kept.ink.paste(ImageChops.difference(kept.out.crop(s), kept.blank.crop(s))
                           .convert("L").point(_INK), s[:2])
    kept.art_of = dict(plan.art_of)
    kept.rings = (tuple(plan.emphasise), tuple(plan.last))
    _KEPT.move_to_end(kept.sig)
    d = ImageDraw.Draw(kept.canvas)
    dummy = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    with supersampled(k) as pending, record_shapes() as shapes:
        exits = base.draw(dummy, None)  # the text, shapes and exits of a full drawing
        placer = _place(d, kept.ink, shapes, base.lay, base.arts, exits, kept.canvas)
    out = kept.out.copy()
    _paste_patches(out, kept.canvas, placer.patches, k)
    assert isinstance(placer, _SavingPlacer)
    placer.undo()
    draw_deferred(out, pending)
    return out


class _SavingPlacer(Placer):
    """A Placer that keeps what is under each disc's box before the disc is drawn there, so
    that the kept canvas can be given back without the discs (`undo`)."""

    def __init__(self, d: ImageDraw.ImageDraw, mask: Image.Image, shapes: list[ShapeMark],
                 canvas: Image.Image) -> None:
        super().__init__(d, mask, shapes)
        self.canvas = canvas
        self.saved: list[tuple[tuple[int, int, int, int], Image.Image]] = []

    def take(self, b: Box, kind: str = "label", disc: bool = False) -> None:
        if disc:
            box = _aligned(b, SUPERSAMPLE)
            self.saved.append((box, self.canvas.crop(box)))
        super().take(b, kind, disc)

    def undo(self) -> None:
        for box, under in reversed(self.saved):
            self.canvas.paste(under, box[:2])
        self.saved.clear()


def _place(d: ImageDraw.ImageDraw, ink: Image.Image, shapes: list[ShapeMark], lay: HexLayout,
           arts: list[tuple[Hex, Point, HexArt]], exits: dict[str, list[float]],
           canvas: Image.Image | None = None) -> Placer:
    placer = Placer(d, ink, shapes) if canvas is None else _SavingPlacer(d, ink, shapes, canvas)
    todo = [HexLabels(lay, c, art, exits[h.name]) for h, c, art in arts]
    for hl in todo:  # names first: they are the widest
        place_location(placer, hl)
    for hl in todo:
        place_revenues(d, placer, hl)
    for hl in todo:
        place_discs(d, placer, hl)
    for hl in todo:
        place_words(placer, hl)
    for hl in todo:
        place_numbers(placer, hl)
    return placer


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
    with _LOCK:  # drawn from nothing and not kept (render_map_image finds the kept maps taken)
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
