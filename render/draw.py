"""Small drawing helpers on top of Pillow's ImageDraw."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from render.fonts import Font, scaled_font
from render.layout import Point
from render.textmasks import kept_blocks_held, text_masks
from render.theme import RGB

Box = tuple[float, float, float, float]

@dataclass(frozen=True, slots=True)
class TextMark:
    """One piece of text as drawn (recorded by `record_text`, for the legibility tests)."""

    role: str  # "revenue", "token", "price", "chip", "location", ... ("" = unclassified)
    text: str
    size: int  # font size in pixels
    box: tuple[float, float, float, float]  # ink bounding box in image pixels (halo included)
    digit_height: float  # height of the digit "0" at this font size (cap-height proxy)


@dataclass(frozen=True, slots=True)
class ShapeMark:
    """A disc or box as drawn on the map (recorded by `record_shapes`, for the overlap tests
    and for placing labels around it)."""

    kind: str  # "city" (a station slot), "token", "bubble" (a revenue), "values", "town", ...
    box: Box  # image pixels
    disc: bool  # a disc inscribed in box (else the box itself)

    @property
    def center(self) -> Point:
        return ((self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2)

    @property
    def radius(self) -> float:
        return (self.box[2] - self.box[0]) / 2

    def hits(self, b: Box) -> bool:
        """Whether box b overlaps this shape (touching edges do not count)."""
        if b[2] <= self.box[0] or b[0] >= self.box[2] or b[3] <= self.box[1] or b[1] >= self.box[3]:
            return False
        if not self.disc:
            return True
        cx, cy = self.center
        qx = min(max(cx, b[0]), b[2])
        qy = min(max(cy, b[1]), b[3])
        return (qx - cx) ** 2 + (qy - cy) ** 2 < self.radius**2


_RECORDER: ContextVar[list[TextMark] | None] = ContextVar("render_text_recorder", default=None)
_SHAPES: ContextVar[tuple[list[ShapeMark], ...]] = ContextVar("render_shape_recorder", default=())


@dataclass(slots=True)
class _Deferred:
    """Text drawn at `scale` times the output size is kept here and drawn after the downscale
    (text is antialiased already; drawing it at output size keeps it crisp and cheap)."""

    scale: float
    items: list[tuple[Point, str, Font, RGB, str, RGB | None, int]] = field(default_factory=list)


_DEFER: ContextVar[_Deferred | None] = ContextVar("render_text_defer", default=None)


@contextmanager
def record_text() -> Iterator[list[TextMark]]:
    """Collect every text drawn (in this context) as TextMarks."""
    marks: list[TextMark] = []
    token = _RECORDER.set(marks)
    try:
        yield marks
    finally:
        _RECORDER.reset(token)


def recording_text() -> bool:
    """Whether text drawn now is recorded (a drawing kept for reuse would miss its marks)."""
    return _RECORDER.get() is not None


@contextmanager
def record_shapes() -> Iterator[list[ShapeMark]]:
    """Collect the discs the map draws (cities, tokens, revenue bubbles) as ShapeMarks."""
    marks: list[ShapeMark] = []
    token = _SHAPES.set((*_SHAPES.get(), marks))
    try:
        yield marks
    finally:
        _SHAPES.reset(token)


@contextmanager
def unrecorded(scale: float) -> Iterator[None]:
    """Inside: drawing seen by nobody: no text or shape recorded (by any recorder around), text
    kept for no one (a map's canvas redrawn in part: render.map)."""
    tokens = (_RECORDER.set(None), _SHAPES.set(()), _DEFER.set(_Deferred(scale)))
    try:
        yield
    finally:
        _DEFER.reset(tokens[2])
        _SHAPES.reset(tokens[1])
        _RECORDER.reset(tokens[0])


def draw_scale() -> float:
    """How many drawing pixels make one output pixel (2 inside a supersampled map)."""
    dfr = _DEFER.get()
    return dfr.scale if dfr is not None else 1.0


def note_shape(kind: str, center: Point, radius: float) -> None:
    """Record a disc (given in drawing pixels) for whoever records shapes."""
    recs = _SHAPES.get()
    if recs:
        k = draw_scale()
        x, y, r = center[0] / k, center[1] / k, radius / k
        m = ShapeMark(kind, (x - r, y - r, x + r, y + r), True)
        for rec in recs:
            rec.append(m)


def note_again(marks: Sequence[ShapeMark]) -> None:
    """Record shapes noted before, again, for whoever records shapes (render.map: a hex's
    drawing kept from the last map)."""
    for rec in _SHAPES.get():
        rec.extend(marks)


def deferred_items() -> list[tuple[Point, str, Font, RGB, str, RGB | None, int]]:
    """The text kept so far by the `supersampled` around (appended to by text())."""
    dfr = _DEFER.get()
    assert dfr is not None, "not inside supersampled()"
    return dfr.items


def note_box(kind: str, box: Box) -> None:
    """Record a box (given in drawing pixels) for whoever records shapes."""
    recs = _SHAPES.get()
    if recs:
        k = draw_scale()
        m = ShapeMark(kind, (box[0] / k, box[1] / k, box[2] / k, box[3] / k), False)
        for rec in recs:
            rec.append(m)


@contextmanager
def supersampled(scale: float) -> Iterator[_Deferred]:
    """Inside: text() calls are given in drawing pixels (`scale` x output) and kept for
    `draw_deferred`, which draws them at output size on the downscaled image."""
    dfr = _Deferred(scale)
    token = _DEFER.set(dfr)
    try:
        yield dfr
    finally:
        _DEFER.reset(token)


# kept_blocks_held costs a write of the kept blocks (~96 MB): worth it from about this many
# masks to render, each of which would take a kept block for good
HOLD_FROM = 32


def _mask_keys(items: Sequence[tuple[Point, str, Font, RGB, str, RGB | None, int]]
               ) -> list[tuple[Font, str, str, int, float, float]]:
    return [(f, s, anchor, hw if halo is not None else 0, math.modf(x)[0], math.modf(y)[0])
            for (x, y), s, f, _, anchor, halo, hw in items]


def draw_deferred(img: Image.Image, dfr: _Deferred, origin: tuple[int, int] = (0, 0),
                  only: Sequence[tuple[Point, str, Font, RGB, str, RGB | None, int]] | None = None
                  ) -> None:
    """The text kept by `supersampled`, drawn on img (RGB, output size) from `text_masks`:
    each line as Pillow's ImageDraw.text draws it (its halo first, then the text), the same
    pixels.  With an origin, img is the part of the output from there (what falls outside it
    is left out); with `only`, those of the texts (in their order)."""
    core = img.im
    items = dfr.items if only is None else only
    keys = _mask_keys(items)
    # many masks to render (a process's first maps): Pillow's kept blocks are held meanwhile
    held = kept_blocks_held() if text_masks.missing(keys) >= HOLD_FROM else nullcontext()
    with held:
        masks = [text_masks(*k) for k in keys]
    ox, oy = origin
    for ((x, y), _, _, fill, _, halo, _), (halo_mask, ink_mask) in zip(items, masks,
                                                                      strict=True):
        ix, iy = math.modf(x)[1], math.modf(y)[1]
        for ink, got in ((halo, halo_mask), (fill, ink_mask)):
            if got is None or ink is None:
                continue
            mask, (dx, dy) = got
            w, h = mask.size
            x0, y0 = int(ix) + dx - ox, int(iy) + dy - oy
            core.paste(ink, (x0, y0, x0 + w, y0 + h), mask)


def deferred_boxes(items: Sequence[tuple[Point, str, Font, RGB, str, RGB | None, int]]
                   ) -> list[tuple[int, int, int, int]]:
    """The box (output pixels) each deferred text's drawing (`draw_deferred`) may change."""
    got = [_BOXES.get(t) for t in items]
    todo = [t for t, b in zip(items, got, strict=True) if b is None]
    if not todo:
        return got  # type: ignore[return-value]
    if len(_BOXES) > BOXES_KEPT:
        _BOXES.clear()
    keys = _mask_keys(todo)
    held = kept_blocks_held() if text_masks.missing(keys) >= HOLD_FROM else nullcontext()
    with held:
        masks = [text_masks(*k) for k in keys]
    fresh: dict[tuple[Point, str, Font, RGB, str, RGB | None, int], tuple[int, int, int, int]] = {}
    for item, (halo_mask, ink_mask) in zip(todo, masks, strict=True):
        (x, y), halo = item[0], item[5]
        ix, iy = int(math.modf(x)[1]), int(math.modf(y)[1])
        box = [1 << 30, 1 << 30, -(1 << 30), -(1 << 30)]
        for mk in (halo_mask if halo is not None else None, ink_mask):
            if mk is None:
                continue
            mask, (dx, dy) = mk
            w, h = mask.size
            box = [min(box[0], ix + dx), min(box[1], iy + dy), max(box[2], ix + dx + w),
                   max(box[3], iy + dy + h)]
        fresh[item] = (box[0], box[1], box[2], box[3]) if box[0] < box[2] else (0, 0, 0, 0)
    _BOXES.update(fresh)
    return [b if b is not None else fresh[t] for t, b in zip(items, got, strict=True)]


# the boxes of the texts of the last maps (a patched map's texts are mostly the last one's)
_BOXES: dict[tuple[Point, str, Font, RGB, str, RGB | None, int], tuple[int, int, int, int]] = {}
BOXES_KEPT = 20000


def digit_height(f: Font) -> float:
    """Ink height of "0" in font f (the height of the numbers the images show)."""
    b = f.getbbox("0", anchor="ls")
    return float(b[3] - b[1])


def output_font(f: Font) -> Font:
    """The font f at output size (f itself outside a supersampled drawing)."""
    k = draw_scale()
    return f if k == 1.0 else scaled_font(f, 1.0 / k)


@lru_cache(maxsize=4096)
def _rel_bbox(f: Font, s: str, anchor: str, stroke: int) -> tuple[float, float, float, float]:
    b = f.getbbox(s, anchor=anchor, stroke_width=stroke)
    return (float(b[0]), float(b[1]), float(b[2]), float(b[3]))


def text_box(xy: Point, s: str, f: Font, anchor: str = "mm", halo_width: int = 0) -> Box:
    """The box text() would record for this text (in drawing pixels)."""
    k = draw_scale()
    b = _rel_bbox(output_font(f), s, anchor, halo_width)
    x, y = xy[0] / k, xy[1] / k
    return ((x + b[0]) * k, (y + b[1]) * k, (x + b[2]) * k, (y + b[3]) * k)


def text(
    d: ImageDraw.ImageDraw,
    xy: Point,
    s: str,
    f: Font,
    fill: RGB,
    anchor: str = "mm",
    halo: RGB | None = None,
    halo_width: int = 0,
    role: str = "",
) -> None:
    """Text anchored at xy ("mm" = centred); an optional halo keeps it readable over track.

    halo_width is in output pixels.  Inside `supersampled`, xy and the font are in drawing
    pixels and the text is drawn later, at output size, over everything else."""
    rec = _RECORDER.get()
    dfr = _DEFER.get()
    hw = halo_width if halo is not None else 0
    if dfr is not None:
        k = dfr.scale
        if k != 1:
            xy = (xy[0] / k, xy[1] / k)
            f = scaled_font(f, 1.0 / k)
        dfr.items.append((xy, s, f, fill, anchor, halo, hw))
    if rec is not None:
        b = _rel_bbox(f, s, anchor, hw)
        box = (xy[0] + b[0], xy[1] + b[1], xy[0] + b[2], xy[1] + b[3])
        rec.append(TextMark(role, s, round(f.size), box, digit_height(f)))
    if dfr is not None:
        return
    if hw > 0:
        d.text(xy, s, font=f, fill=fill, anchor=anchor, stroke_width=hw, stroke_fill=halo)
    else:
        d.text(xy, s, font=f, fill=fill, anchor=anchor)


def text_width(s: str, f: Font) -> float:
    return float(f.getlength(s))


@lru_cache(maxsize=4096)
def fit_font_size(s: str, max_width: float, start: int, bold: bool, minimum: int = 7) -> int:
    """The largest size <= start at which `s` fits in max_width pixels."""
    from render.fonts import font

    size = start
    while size > minimum and font(size, bold).getlength(s) > max_width:
        size -= 1
    return size


def circle(
    d: ImageDraw.ImageDraw,
    c: Point,
    r: float,
    fill: RGB | None,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    d.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), fill=fill, outline=outline, width=width)


def _offset(pts: Sequence[Point], half: float, closed: bool) -> tuple[list[Point], list[Point]]:
    """The two sides of a band of half-width `half` around the polyline (mitred joints)."""
    n = len(pts)
    segs = n if closed else n - 1
    normals: list[tuple[float, float]] = []
    for i in range(segs):
        (ax, ay), (bx, by) = pts[i], pts[(i + 1) % n]
        ln = math.hypot(bx - ax, by - ay) or 1.0
        normals.append((-(by - ay) / ln, (bx - ax) / ln))
    left: list[Point] = []
    right: list[Point] = []
    for i in range(n):
        if closed:
            n1, n2 = normals[i - 1], normals[i]
        else:
            n1, n2 = normals[max(0, i - 1)], normals[min(segs - 1, i)]
        nx, ny = n1[0] + n2[0], n1[1] + n2[1]
        ln = math.hypot(nx, ny)
        if ln < 1e-9:
            nx, ny, cos_half = n1[0], n1[1], 1.0
        else:
            nx, ny = nx / ln, ny / ln
            cos_half = nx * n1[0] + ny * n1[1]  # the offset grows as 1 / cos(half the turn)
        kk = half / max(0.5, cos_half)
        x, y = pts[i]
        left.append((x + nx * kk, y + ny * kk))
        right.append((x - nx * kk, y - ny * kk))
    return left, right


def _smooth_enough(pts: Sequence[Point]) -> bool:
    """No turn sharper than 60 degrees between consecutive segments."""
    for i in range(1, len(pts) - 1):
        ax, ay = pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]
        bx, by = pts[i + 1][0] - pts[i][0], pts[i + 1][1] - pts[i][1]
        la, lb = math.hypot(ax, ay), math.hypot(bx, by)
        if la > 1e-9 and lb > 1e-9 and (ax * bx + ay * by) / (la * lb) < 0.5:
            return False
    return True


def polyline(
    d: ImageDraw.ImageDraw, pts: Sequence[Point], fill: RGB, width: float, caps: bool = False
) -> None:
    """A thick polyline drawn as one filled band (mitred joints; round end caps if `caps`)."""
    pts = [p for i, p in enumerate(pts) if i == 0 or math.dist(p, pts[i - 1]) > 1e-6]
    if len(pts) < 2:
        return
    if width <= 1.5 or not _smooth_enough(pts):
        w = max(1, round(width))
        d.line(list(pts), fill=fill, width=w, joint="curve")
    else:
        left, right = _offset(pts, width / 2, False)
        d.polygon(left + right[::-1], fill=fill)
    r = width / 2
    if caps and r >= 1:
        for p in (pts[0], pts[-1]):
            circle(d, p, r, fill)


def ring(d: ImageDraw.ImageDraw, pts: Sequence[Point], fill: RGB, width: float) -> None:
    """The outline of a closed polygon, `width` thick and centred on its edges (one fill; the
    slow path of ImageDraw.polygon(outline, width > 1) allocates two full-size masks)."""
    if width <= 1.0:
        d.polygon(list(pts), outline=fill, width=1)
        return
    outer, inner = _offset(pts, width / 2, True)
    d.polygon(outer + [outer[0]] + inner[::-1] + [inner[-1]], fill=fill)


def dashed_line(
    d: ImageDraw.ImageDraw, a: Point, b: Point, fill: RGB, width: int, dash: float, gap: float
) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    t = 0.0
    while t < length:
        e = min(length, t + dash)
        d.line((a[0] + ux * t, a[1] + uy * t, a[0] + ux * e, a[1] + uy * e), fill=fill, width=width)
        t = e + gap


def to_png(img: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes by Pillow's encoder (the map's palette PNG is written by render.map)."""
    buf = _PngBuffer()
    img.save(buf, compress_level=compress_level)  # the format from the buffer's name
    return buf.getvalue()


class _PngBuffer(io.BytesIO):
    """A buffer named like a PNG file: Image.save given no format takes it from the name and
    loads only Pillow's PNG plugin, where format="PNG" first loads the BMP, GIF, JPEG, PPM and
    PNG plugins (and the modules they use: logging, subprocess...): 5-18 ms of the first image
    of a process, for formats the renderer never writes."""

    name = "image.png"
