"""Small drawing helpers on top of Pillow's ImageDraw."""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.fonts import Font
from render.layout import Point
from render.theme import RGB


@dataclass(frozen=True, slots=True)
class TextMark:
    """One piece of text as drawn (recorded by `record_text`, for the legibility tests)."""

    role: str  # "revenue", "token", "price", "chip", "location", ... ("" = unclassified)
    text: str
    size: int  # font size in pixels
    box: tuple[float, float, float, float]  # ink bounding box in image pixels
    digit_height: float  # height of the digit "0" at this font size (cap-height proxy)


_RECORDER: ContextVar[list[TextMark] | None] = ContextVar("render_text_recorder", default=None)


@contextmanager
def record_text() -> Iterator[list[TextMark]]:
    """Collect every text drawn (in this context) as TextMarks."""
    marks: list[TextMark] = []
    token = _RECORDER.set(marks)
    try:
        yield marks
    finally:
        _RECORDER.reset(token)


def digit_height(f: Font) -> float:
    """Ink height of "0" in font f (the height of the numbers the images show)."""
    b = f.getbbox("0", anchor="ls")
    return float(b[3] - b[1])


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
    """Text anchored at xy ("mm" = centred); an optional halo keeps it readable over track."""
    rec = _RECORDER.get()
    if rec is not None:
        box = d.textbbox(xy, s, font=f, anchor=anchor)
        rec.append(TextMark(role, s, int(f.size), box, digit_height(f)))
    if halo is not None and halo_width > 0:
        d.text(xy, s, font=f, fill=fill, anchor=anchor, stroke_width=halo_width, stroke_fill=halo)
    else:
        d.text(xy, s, font=f, fill=fill, anchor=anchor)


def text_width(s: str, f: Font) -> float:
    return float(f.getlength(s))


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


def polyline(
    d: ImageDraw.ImageDraw, pts: Sequence[Point], fill: RGB, width: float, caps: bool = False
) -> None:
    """A thick polyline with round joints (and round end caps if `caps`)."""
    w = max(1, round(width))
    d.line(list(pts), fill=fill, width=w, joint="curve")
    r = w / 2 - 0.5
    if caps and r >= 1:
        for p in (pts[0], pts[-1]):
            circle(d, p, r, fill)


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
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=compress_level)
    return buf.getvalue()
