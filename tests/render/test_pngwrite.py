"""The PNG writer (render.pngwrite: the flat images and the map's palette images) and the
market's kept grid change no pixel."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image, ImageChops

from render import market, pngwrite
from render.card import render_card, render_card_image
from render.demo import busy_view, make_view
from render.map import render_map, render_map_image, title_palette
from render.market import render_market, render_market_image
from render.pngwrite import unfiltered_png
from render.status import render_status, render_status_image


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def _decoded(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.convert("RGB")


def _row_filters(png: bytes) -> set[int]:
    """The filter type byte of every row of an 8-bit RGB or palette PNG."""
    pos, idat, width, height, bpp = 8, b"", 0, 0, 3
    while pos < len(png):
        (n,) = struct.unpack(">I", png[pos:pos + 4])
        kind, body = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", body[:8])
            bpp = 3 if body[9] == 2 else 1
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = 1 + bpp * width
    assert len(raw) == stride * height
    return {raw[i * stride] for i in range(height)}


@pytest.mark.parametrize("level", [0, 1, 3, 9, -1])
def test_unfiltered_png_holds_the_pixels(level: int) -> None:
    rng = random.Random(level)
    img = Image.frombytes("RGB", (37, 23), bytes(rng.randrange(256) for _ in range(37 * 23 * 3)))
    png = unfiltered_png(img, level)
    assert _same(_decoded(png), img)
    assert _row_filters(png) == {0}


@pytest.mark.parametrize("level", [0, 1, 2, 3, 6, -1])
def test_unfiltered_png_holds_a_palette_image(level: int) -> None:
    rng = random.Random(level)
    rgb = Image.frombytes("RGB", (41, 19), bytes(rng.randrange(256) for _ in range(41 * 19 * 3)))
    img = rgb.quantize(200, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    png = unfiltered_png(img, level)
    got = Image.open(io.BytesIO(png))
    got.load()
    assert got.mode == "P"
    assert got.tobytes() == img.tobytes()
    assert _same(got.convert("RGB"), img.convert("RGB"))
    assert _row_filters(png) == {0}


@pytest.mark.parametrize("level", [0, 1, 2, 3, 4, 9, -1])
def test_deflate_is_plain_zlib_deflate(level: int) -> None:
    data = bytes(random.Random(level).choices(range(8), k=50_000)) * 3
    packed = pngwrite.deflate(memoryview(data)[1:], level, prefix=data[:1])
    assert zlib.decompress(packed) == data  # what any PNG reader inflates
    if level == 0:
        assert len(packed) > len(data)  # stored
    else:
        assert len(packed) < len(data) / 2


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_the_map_png_is_its_image_in_the_titles_palette(title: str) -> None:
    view = busy_view(title)
    png = render_map(view)
    want = render_map_image(view).quantize(palette=title_palette(title), dither=Image.Dither.NONE)
    got = Image.open(io.BytesIO(png))
    got.load()
    assert got.mode == "P" and got.size == want.size
    assert _same(got.convert("RGB"), want.convert("RGB"))
    assert _row_filters(png) == {0}


def test_unfiltered_png_refuses_other_modes() -> None:
    with pytest.raises(ValueError, match="RGB"):
        unfiltered_png(Image.new("L", (4, 4)))


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_market_status_and_card_pngs_are_their_images_unfiltered(title: str) -> None:
    view = busy_view(title)
    for png, img in ((render_market(view), render_market_image(view)),
                     (render_status(view), render_status_image(view)),
                     (render_card(view), render_card_image(view))):
        assert _same(_decoded(png), img)
        assert _row_filters(png) == {0}  # Pillow's encoder filters most rows of these


def test_a_market_from_the_kept_grid_is_the_market_drawn_from_nothing() -> None:
    views = [busy_view("1870"), make_view("1870", market={(4, 12): ("SSW", "SP", "MKT")}),
             busy_view("18MS"), make_view("1870")]
    kept = [render_market_image(v) for v in views]  # later ones use the grids kept before
    assert market._GRIDS
    for v, img in zip(views, kept, strict=True):
        market._GRIDS.clear()
        assert _same(render_market_image(v), img)
    # the kept grid is never drawn on: the empty market after a busy one is still empty
    market._GRIDS.clear()
    empty = render_market_image(make_view("1870"))
    render_market_image(busy_view("1870"))
    assert _same(render_market_image(make_view("1870")), empty)


def test_the_kept_grids_are_bounded() -> None:
    market._GRIDS.clear()
    for size in range(600, 2000, 100):
        render_market_image(make_view("18MS"), size=size)
        kept = [market._grid_bytes(g) for _, g in market._GRIDS.values()]
        assert sum(kept) <= market.GRIDS_BUDGET or len(kept) == 1
    assert 1 < len(market._GRIDS) < 14  # the newest kept, the oldest dropped
    assert next(reversed(market._GRIDS))[1] == 1900
