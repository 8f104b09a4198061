"""Legibility at the size Discord shows an attached image inline on a phone.

Discord shows an image attachment inline scaled down to fit the message column: at most about
400 px wide on a phone (about 550 px on desktop; a tall image is limited further by height).
These tests render real replayed positions at their real sizes, scale them to PREVIEW px wide
(as Discord does), and require:

* text (from the fonts actually used, via render.draw.record_text) at least a minimum digit
  height at the preview size: revenues and market prices MIN_NUMBER px, token labels MIN_TOKEN
  px.  These are CSS pixels; phones have 2-3 device pixels per CSS pixel, so the image the
  phone draws is sharper than the downscale used here;
* token and market-chip colours still detectable in the downscaled image at their slot / chip
  positions.

The full 1870 map (11½ hexes across, 15 rows) cannot carry legible text at 400 px: its text is checked on
the close-up (`render_map(view, focus=...)`) and only its token colours on the full map.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from pathlib import Path

import pytest
from PIL import Image

from engine.view import GameView
from render import render_map, render_market, theme
from render.draw import TextMark, record_text
from render.hexplace import place_nodes, slot_centers, slot_radius
from render.map import (
    PHONE_PREVIEW_WIDTH,
    focus_hexes,
    map_geometry,
    map_layout,
    map_regions,
    render_map_image,
)
from render.market import market_layout, render_market_image

PREVIEW = PHONE_PREVIEW_WIDTH  # 400
MIN_NUMBER = 6.0  # px digit height of revenues and prices in the preview
MIN_TOKEN = 5.0  # px digit height of token labels in the preview
MIN_SMALL = 5.0  # px digit height of tile numbers, hex coordinates and place names
MIN_CHIP_SHARE = 0.3  # share of a market chip's preview pixels still in its colour

SHARED = Path("/work/shared/fixtures")
pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="shared fixtures not mounted")

FIXTURES = [
    ("1870", "1870_game_end_bank.json"),
    ("18MEX", "13315.json"),
    ("18MS", "14375.json"),
]


def _replay(title: str, name: str, frac: float) -> GameView:
    from engine.game import effective_actions
    from engine.io.export18xx import import_game

    data = json.loads((SHARED / title / name).read_text())
    full = import_game(data)
    if frac >= 1:
        return full.view()
    live = [a for a in effective_actions(full.log) if a.type != "message"]
    return import_game(data, upto=live[int(len(live) * frac)].id).view()


_CACHE: dict[tuple[str, str, float], GameView] = {}


def view_of(title: str, name: str, frac: float = 1.0) -> GameView:
    key = (title, name, frac)
    if key not in _CACHE:
        _CACHE[key] = _replay(*key)
    return _CACHE[key]


def preview(img: Image.Image) -> tuple[Image.Image, float]:
    scale = PREVIEW / img.width
    return img.resize((PREVIEW, round(img.height * scale)), Image.Resampling.LANCZOS), scale


def _dist(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return float(sum((x - y) ** 2 for x, y in zip(a[:3], b[:3], strict=True)) ** 0.5)


def colour_share(img: Image.Image, centre: tuple[float, float], r: float, color: theme.RGB) -> float:
    """Share of the pixels within r of centre whose colour is near `color`."""
    near = total = 0
    ri = max(1, round(r))
    for dy in range(-ri, ri + 1):
        for dx in range(-ri, ri + 1):
            if dx * dx + dy * dy > r * r + 0.5:
                continue
            x, y = round(centre[0]) + dx, round(centre[1]) + dy
            if not (0 <= x < img.width and 0 <= y < img.height):
                continue
            total += 1
            px = img.getpixel((x, y))
            assert isinstance(px, tuple)
            near += _dist(px, color) < 60
    return near / max(1, total)


def box_share(img: Image.Image, box: tuple[float, float, float, float], color: theme.RGB) -> float:
    """Share of the pixels inside box (inset by one pixel) whose colour is near `color`."""
    near = total = 0
    for y in range(round(box[1]) + 1, round(box[3])):
        for x in range(round(box[0]) + 1, round(box[2])):
            px = img.getpixel((x, y))
            assert isinstance(px, tuple)
            total += 1
            near += _dist(px, color) < 60
    return near / max(1, total)


def token_slots(view: GameView, size: int, hexes: Iterable[str] | None = None,  # type: ignore[no-untyped-def]
                focus: Iterable[str] = ()):
    """(corporation, slot centre, slot radius) of every placed token on the rendered map (of
    the close-up around `focus`, whose hexes are `hexes`)."""
    data = view.data
    shown = list(hexes) if hexes is not None else None
    lay = (map_geometry(view, size=size, focus=focus) if focus else map_layout(data, size)).layout
    out = []
    for name, st in view.hexes.items():
        if shown is not None and name not in shown:
            continue
        h = data.hexes[name]
        geom = data.tiles[st.tile].geometry if st.tile else h.geometry
        c = lay.center(h.x, h.y)
        places = place_nodes(lay, c, geom, st.rotation)
        for city in geom.cities:
            if city.slots == 0 or ("city", city.index) not in places:
                continue
            toks = st.tokens[city.index] if city.index < len(st.tokens) else ()
            centres = slot_centers(lay, places[("city", city.index)].pos, city.slots)
            for corp, p in zip(toks, centres, strict=False):
                if corp:
                    out.append((corp, p, slot_radius(lay, city.slots)))
    return out


def _busiest_city(view: GameView) -> str:
    return max(view.hexes, key=lambda n: sum(1 for t in view.hexes[n].tokens for c in t if c))


def _marks(marks: list[TextMark], role: str) -> list[TextMark]:
    return [m for m in marks if m.role == role]


CASES = [(t, n, f) for t, n in FIXTURES for f in (0.5, 1.0)]


@pytest.mark.parametrize(("title", "name", "frac"), CASES)
def test_closeup_text_is_legible_at_the_phone_preview(title: str, name: str, frac: float) -> None:
    view = view_of(title, name, frac)
    with record_text() as marks:
        img = render_map_image(view, focus=[_busiest_city(view)])
    scale = PREVIEW / img.width
    revenues, tokens = _marks(marks, "revenue"), _marks(marks, "token")
    assert revenues and tokens
    for m in revenues:
        assert m.digit_height * scale >= MIN_NUMBER, m
    for m in tokens:
        assert m.digit_height * scale >= MIN_TOKEN, m
        # and the ink really is that tall in the image (the recorder's box is the drawn text)
        assert (m.box[3] - m.box[1]) * scale >= MIN_TOKEN - 1, m
    small = [m for m in marks if m.role in ("tile", "hexname", "location", "legend")]
    assert {m.role for m in small} >= {"tile", "hexname", "legend"}  # the close-up's legend
    for m in small:
        assert m.digit_height * scale >= MIN_SMALL, m
    legend = {m.text for m in marks if m.role == "legend"}
    assert {"station token", "tile number", "hex (for /lay)"} <= legend


@pytest.mark.parametrize(("title", "name", "frac"), CASES)
def test_every_region_is_legible_at_the_phone_preview(title: str, name: str, frac: float) -> None:
    """render_region: the map cut in regions of about 4 x 4 hexes, each legible at 400 px."""
    view = view_of(title, name, frac)
    regions = map_regions(view.data)
    assert sum(len(h) for h in regions.values()) == len(view.data.hexes)
    for hexes in regions.values():
        with record_text() as marks:
            img = render_map_image(view, focus=hexes, rings=0)
        scale = PREVIEW / img.width
        assert img.height * scale <= 450  # about square: the preview is not cut down by height
        assert "hex (for /lay)" in {m.text for m in marks if m.role == "legend"}  # its legend
        for m in marks:
            if m.role == "revenue":
                assert m.digit_height * scale >= MIN_NUMBER, m
            elif m.role in ("token", "reserved"):
                assert m.digit_height * scale >= MIN_TOKEN - 0.5, m
            elif m.role in ("tile", "hexname", "location", "legend"):
                assert m.digit_height * scale >= MIN_SMALL, m


def test_full_map_text_needs_the_closeup() -> None:
    """What the full 1870 map shows at 400 px: colours and track, but its text is below
    legibility (this is why the bot posts the close-up and the regions)."""
    view = view_of("1870", "1870_game_end_bank.json")
    with record_text() as marks:
        img = render_map_image(view)
    scale = PREVIEW / img.width
    heights = {m.role: m.digit_height * scale for m in marks if m.role in ("revenue", "hexname")}
    assert heights["revenue"] < MIN_NUMBER and heights["hexname"] < MIN_SMALL


@pytest.mark.parametrize(("title", "name", "frac"), CASES)
def test_closeup_token_colours_survive_the_preview(title: str, name: str, frac: float) -> None:
    view = view_of(title, name, frac)
    focus = [_busiest_city(view)]
    img = render_map_image(view, focus=focus)
    small, scale = preview(img)
    colors = {c.id: theme.corp_rgb(c.color) for c in view.corporations}
    slots = token_slots(view, img.width, focus_hexes(view.data, focus), focus)
    assert slots
    for corp, p, s in slots:
        share = colour_share(small, (p[0] * scale, p[1] * scale), s * scale * 0.8, colors[corp])
        assert share >= 0.4, (corp, share)


@pytest.mark.parametrize(("title", "name", "frac"), CASES)
def test_full_map_token_colours_survive_the_preview(title: str, name: str, frac: float) -> None:
    view = view_of(title, name, frac)
    img = render_map_image(view)
    small, scale = preview(img)
    colors = {c.id: theme.corp_rgb(c.color) for c in view.corporations}
    slots = token_slots(view, img.width)
    assert slots
    for corp, p, s in slots:
        share = colour_share(small, (p[0] * scale, p[1] * scale), s * scale * 0.8, colors[corp])
        assert share >= 0.25, (corp, share)


@pytest.mark.parametrize(("title", "name", "frac"), CASES)
def test_market_is_legible_at_the_phone_preview(title: str, name: str, frac: float) -> None:
    view = view_of(title, name, frac)
    with record_text() as marks:
        img = render_market_image(view)
    small, scale = preview(img)
    prices = _marks(marks, "price")
    assert prices
    for m in prices:
        assert m.digit_height * scale >= MIN_NUMBER, m
    geo = market_layout(view.data, img.width)
    colors = {c.id: theme.corp_rgb(c.color) for c in view.corporations}
    assert view.market
    for (row, col), stack in view.market.items():
        for i, cid in enumerate(stack):
            x0, y0, x1, y1 = geo.chip_box(row, col, i, len(stack))
            box = (x0 * scale, y0 * scale, x1 * scale, y1 * scale)
            share = box_share(small, box, colors[cid])
            assert share >= MIN_CHIP_SHARE, (cid, share)


def test_png_bytes_of_a_closeup() -> None:
    view = view_of("1870", "1870_game_end_bank.json")
    png = render_map(view, focus=("H13",))
    img = Image.open(io.BytesIO(png))
    assert img.width == 800 and img.height < 1000
    full = Image.open(io.BytesIO(render_map(view)))
    assert full.width == 1600
    assert render_market(view)[:8] == b"\x89PNG\r\n\x1a\n"


def test_focus_hexes_cover_the_neighbours_and_four_hexes_across() -> None:
    for title, centre in (("1870", "H13"), ("18MEX", "E6"), ("18MS", "E9")):
        data = view_of(*next(f for f in FIXTURES if f[0] == title)).data
        shown = set(focus_hexes(data, [centre]))
        h = data.hexes[centre]
        assert centre in shown
        assert {n for n in h.neighbors.values() if n in data.hexes} <= shown
        per_hex = 2 if data.layout == "pointy" else 1
        xs = [data.hexes[n].x for n in shown]
        assert (max(xs) - min(xs)) // per_hex + 1 >= 4
    assert focus_hexes(data, ["nowhere"]) == ()


TILE_COLOURS = ("white", "yellow", "green", "brown", "gray", "red", "blue")


@pytest.mark.parametrize(("title", "name", "frac"), CASES)
def test_full_map_tile_colours_survive_the_preview(title: str, name: str, frac: float) -> None:
    """At 400 px every laid tile still shows its colour: of 24 points on a ring at 0.6 of the
    hex's apothem, at least a third are nearest to the tile's colour (of the map's hex colours)
    and within 60 of it (measured: 0.42-0.67 at the worst tile, 0.76-0.84 on average)."""
    import math

    view = view_of(title, name, frac)
    img = render_map_image(view)
    small, scale = preview(img)
    lay = map_layout(view.data, img.width).layout
    palette = {c: theme.rgb(c) for c in TILE_COLOURS}
    tiles = [(n, st.tile) for n, st in view.hexes.items() if st.tile in view.data.tiles]
    assert tiles
    for hex_name, tile in tiles:
        color = view.data.tiles[tile].color
        h = view.data.hexes[hex_name]
        cx, cy = lay.center(h.x, h.y)
        kept = 0
        for a in range(0, 360, 15):
            x = (cx + 0.6 * lay.apothem * math.cos(math.radians(a))) * scale
            y = (cy + 0.6 * lay.apothem * math.sin(math.radians(a))) * scale
            px = small.getpixel((round(x), round(y)))
            assert isinstance(px, tuple)
            nearest = min(palette, key=lambda c: _dist(px, palette[c]))
            kept += nearest == color and _dist(px, palette[color]) < 60
        assert kept >= 8, (hex_name, tile, color, kept)
