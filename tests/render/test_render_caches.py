"""What the renderer keeps between images (render.draw's text masks, fitted font sizes) changes
no pixel: text pasted from a kept mask is the text Pillow draws there, and a map drawn after
other maps is the map drawn from nothing."""

from __future__ import annotations

import dataclasses

from PIL import Image, ImageChops, ImageDraw

from engine.view import GameView, HexState
from render import theme
from render.card import card_layout, render_card_image
from render.demo import busy_view
from render.draw import (
    _Deferred,
    draw_deferred,
    fit_font_size,
    text_masks,
)
from render.fonts import font, scaled_font
from render.map import render_map_image
from tests.render.test_legibility import FIXTURES, SHARED, view_of


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def test_pasted_text_is_the_text_pillow_draws() -> None:
    items = [
        ((40.0, 30.0), "Kansas City", font(15), (30, 30, 30), "mm", None, 0),
        ((91.37, 52.81), "A10", scaled_font(font(22, True), 0.5), (90, 90, 90), "mm", None, 0),
        ((150.5, 80.25), "57", font(13), (20, 20, 20), "lm", (255, 255, 240), 2),
        ((60.71, 110.66), "$40", font(12, True), (0, 90, 200), "mm", (230, 220, 200), 1),
    ]
    drawn = Image.new("RGB", (220, 140), (200, 170, 90))
    d = ImageDraw.Draw(drawn)
    for xy, s, f, fill, anchor, halo, hw in items:
        if halo is not None:
            d.text(xy, s, font=f, fill=fill, anchor=anchor, stroke_width=hw, stroke_fill=halo)
        else:
            d.text(xy, s, font=f, fill=fill, anchor=anchor)
    text_masks.cache_clear()
    for _ in range(2):  # rendered, then from the kept masks
        pasted = Image.new("RGB", drawn.size, (200, 170, 90))
        draw_deferred(pasted, _Deferred(2.0, list(items)))
        assert _same(pasted, drawn)
    assert text_masks.cache_info().hits == len(items)


def test_a_map_after_other_maps_is_the_map_drawn_from_nothing() -> None:
    view = busy_view("18MS")
    name, h = next((n, h) for n, h in sorted(view.data.hexes.items())
                   if h.possible_tiles and "yellow" in h.possible_tiles
                   and not (view.hexes.get(n) and view.hexes[n].tile))
    tile = sorted(h.possible_tiles["yellow"])[0]
    moved = dataclasses.replace(
        view, hexes={**view.hexes, name: HexState(name, tile, 0)}, last_hexes=(name,))
    render_map_image(view)
    render_map_image(view, focus=[name])
    warm = render_map_image(moved)
    assert text_masks.cache_info().hits > 100
    text_masks.cache_clear()
    fit_font_size.cache_clear()
    cold = render_map_image(moved)
    assert _same(warm, cold)
    assert not _same(cold, render_map_image(view))  # the move shows


def test_a_map_after_the_warm_up_is_the_map_drawn_from_nothing() -> None:
    from PIL import Image as PILImage

    from render.warm import warm_up

    view = busy_view("18MS", seed=3)
    warm_up(["18MS"])
    assert PILImage.core.get_stats()["blocks_cached"] > 0  # the memory is kept for the next map
    warm = render_map_image(view)
    text_masks.cache_clear()
    fit_font_size.cache_clear()
    assert _same(warm, render_map_image(view))


def _card_drawn_by_pillow(view: GameView) -> Image.Image:
    """The card as drawn before its text was pasted from the kept masks: every line by
    Pillow's ImageDraw.text."""
    lay = card_layout(view)
    img = Image.new("RGB", (lay.width, lay.height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    for f in lay.fills:
        if f.radius:
            d.rounded_rectangle(f.box, radius=f.radius, fill=f.color, outline=f.outline)
        else:
            d.rectangle(f.box, fill=f.color, outline=f.outline)
    for sw in lay.swatches:
        (cx, cy), r = sw.center, sw.radius
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=sw.color, outline=theme.INK)
    for it in lay.items:
        d.text(it.point, it.text, font=font(it.size, it.bold), fill=it.ink, anchor=it.anchor)
    return img


def _fixture_views() -> list[GameView]:
    """States of each title's fixture game (a quarter, half and all of it)."""
    if not SHARED.exists():
        return []
    return [view_of(t, n, frac) for t, n in FIXTURES for frac in (0.25, 0.5, 1.0)]


def test_a_card_pasted_from_kept_masks_is_the_card_pillow_draws() -> None:
    text_masks.cache_clear()
    views = [busy_view("1870"), busy_view("18MS"), busy_view("18MEX"), *_fixture_views()]
    for _ in range(2):  # text rendered, then (mostly) from the kept masks
        for view in views:
            assert _same(render_card_image(view), _card_drawn_by_pillow(view))
    assert text_masks.cache_info().hits > 10 * len(views)
