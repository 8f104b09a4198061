"""The maps' fixed palette (render.map.title_palette): every flat colour in it, and the maps of
real games, written in it, as close to their RGB images as an adaptive palette was."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageStat

from render.demo import busy_view
from render.map import _title_colours, render_map_image, title_palette
from tests.render.test_legibility import FIXTURES, view_of


def _colours(pal: Image.Image) -> set[tuple[int, ...]]:
    flat = pal.getpalette("RGB") or []
    return {tuple(flat[i:i + 3]) for i in range(0, len(flat), 3)}


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_every_flat_colour_is_in_the_palette(title: str) -> None:
    pal = title_palette(title)
    assert len(pal.getpalette("RGB") or []) == 3 * 256
    flat = _title_colours(busy_view(title))
    assert len(flat) > 20  # the theme's, the corporations', the hexes' and tiles'
    assert set(flat) <= _colours(pal)


def _errors(img: Image.Image, title: str) -> tuple[float, float, int]:
    """(mean error a channel, share of pixels off by more than 24 in some channel, the largest
    error on a flat colour's pixels).  Pillow maps a pixel to the palette colour nearest its
    cell of 4 x 4 x 4 colours, so a flat colour may come out a level or two off."""
    q = img.quantize(palette=title_palette(title), dither=Image.Dither.NONE).convert("RGB")
    diff = ImageChops.difference(img, q)
    r, g, b = diff.split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b).histogram()
    present = {c for _, c in img.getcolors(1 << 22) or []}
    flat = [c for c in _title_colours(busy_view(title)) if c in present]
    swatch = Image.new("RGB", (len(flat), 1))
    swatch.putdata(flat)
    got = swatch.quantize(palette=title_palette(title), dither=Image.Dither.NONE).convert("RGB")
    off = max(max(abs(x - y) for x, y in zip(a, b, strict=True))
              for i, a in enumerate(flat) for b in [got.getpixel((i, 0))])
    return (sum(ImageStat.Stat(diff).mean) / 3, sum(worst[25:]) / sum(worst), off)


@pytest.mark.parametrize(("title", "name"), FIXTURES)
def test_real_maps_in_the_fixed_palette_stay_close(title: str, name: str) -> None:
    for frac in (0.25, 0.6, 1.0):
        view = view_of(title, name, frac)
        focus = tuple(view.last_hexes) or (sorted(view.hexes)[0],)
        for img in (render_map_image(view), render_map_image(view, focus=focus)):
            mean, far, off = _errors(img, title)
            assert mean < 1.0  # an adaptive palette per map gave 0.78-1.01
            assert far < 0.001  # and 0.001-0.032 % of the pixels off by more than 24
            assert off <= 4  # the flat colours (fills, ink, tokens) as drawn, within a cell
