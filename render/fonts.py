"""Fonts shipped with the package (DejaVu Sans Condensed, see fonts/LICENSE-DejaVu.txt)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
REGULAR = FONT_DIR / "DejaVuSansCondensed.ttf"
BOLD = FONT_DIR / "DejaVuSansCondensed-Bold.ttf"

Font = ImageFont.FreeTypeFont


@cache
def font(size: int, bold: bool = False) -> Font:
    """A TrueType font of `size` pixels; falls back to Pillow's built-in font if missing."""
    size = max(6, int(size))
    path = BOLD if bold else REGULAR
    try:
        return ImageFont.truetype(str(path), size)
    except OSError:  # pragma: no cover - the files ship with the package
        f = ImageFont.load_default(size=size)
        assert isinstance(f, ImageFont.FreeTypeFont)
        return f


@cache
def _font_file(path: str, size: float) -> Font:
    return ImageFont.truetype(path, size)


def scaled_font(f: Font, factor: float) -> Font:
    """f at `factor` times its size (fractional sizes kept, so proportions stay exact)."""
    if f.path is None:  # pragma: no cover - the built-in fallback font
        return f
    path = f.path if isinstance(f.path, str) else str(f.path)
    return _font_file(path, round(float(f.size) * factor, 2))
