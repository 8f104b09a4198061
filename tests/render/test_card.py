"""The phone card (render.card): legible at Discord's 400 px phone preview, nothing overflows.

The legibility tests render real replayed positions (they skip without /work/shared), scale
the card to PREVIEW px wide as Discord does, and require every text of the card to keep a digit
height of at least MIN_CARD_TEXT px there: more than the close-up's MIN_NUMBER (6 px).  The
overflow tests check the ink box of every drawn text against the box the layout gave it, on
the real positions and on a crowded hand-built 1870 (6 players with long names, all 10
corporations floated, four trains each).
"""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

from engine.view import GameView
from render import render_card
from render.card import CARD_WIDTH, card_layout, render_card_image
from render.demo import make_view
from render.draw import TextMark, record_text
from tests.render.test_legibility import FIXTURES, MIN_NUMBER, PREVIEW, SHARED, preview, view_of

MIN_CARD_TEXT = 7.0  # px digit height of every card text at the preview (close-up: 6)
MAX_PREVIEW_HEIGHT = 1.25 * PREVIEW  # the card stays about one phone screen high

needs_shared = pytest.mark.skipif(not SHARED.exists(), reason="shared fixtures not mounted")
# 18MEX at 0.2 still has its minors A, B and C operating
CASES = [(t, n, f) for t, n in FIXTURES for f in (0.5, 1.0)] + [("18MEX", "13315.json", 0.2)]


def _draw(view: GameView, **kw: object) -> tuple[Image.Image, list[TextMark]]:
    with record_text() as marks:
        img = render_card_image(view, **kw)  # type: ignore[arg-type]
    return img, marks


def _crowded_1870() -> GameView:
    """Six players with long names, every corporation floated with four trains."""
    names = [
        ("p1", "Alexandra the Great Railroader"),
        ("p2", "Bob"),
        ("p3", "Cyrille-Anne de Montmorency"),
        ("p4", "D"),
        ("p5", "Evangeline Featherstonehaugh"),
        ("p6", "Fitzgerald Wolfeschlegelstein"),
    ]
    base = make_view("1870", players=names)
    data = base.data
    row = data.market["grid_prices"][0]
    corps = [c["id"] for c in data.corporations]
    market = {(0, len(row) - 1 - i): (cid,) for i, cid in enumerate(corps)}
    view = make_view("1870", players=names, market=market)
    players = tuple(
        dataclasses.replace(p, cash=12_345 + i, value=123_456, cert_count=27, priority=i == 2)
        for i, p in enumerate(view.players)
    )
    corporations = tuple(
        dataclasses.replace(
            c, trains=("10", "12", "8", "6"), treasury=10_950, operated=True, tokens_left=1
        )
        for c in view.corporations
    )
    return dataclasses.replace(
        view,
        players=players,
        corporations=corporations,
        acting=(corporations[0].id,),
        acting_players=("p1",),
        bank_cash=-12_345,
        notes=("ATSF must buy a train: its president may have to sell shares to pay for it",),
    )


def _assert_nothing_overflows(view: GameView, **kw: object) -> None:
    lay = card_layout(view, **kw)  # type: ignore[arg-type]
    img, marks = _draw(view, **kw)
    assert img.size == (lay.width, lay.height)
    # one drawn text per layout item, each inside its box, every box inside the image
    assert [m.text for m in marks] == [it.text for it in lay.items]
    for m, it in zip(marks, lay.items, strict=True):
        x0, y0, x1, y1 = it.box
        assert x0 >= 0 and x1 <= lay.width and y0 >= 0 and y1 <= lay.height, it
        bx0, by0, bx1, by1 = m.box
        assert x0 <= bx0 and bx1 <= x1 and y0 <= by0 and by1 <= y1, (m, it.box)
    # texts do not share space: boxes that overlap vertically are apart horizontally
    items = lay.items
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            if a.box[1] < b.box[3] and b.box[1] < a.box[3]:
                assert a.box[2] <= b.box[0] or b.box[2] <= a.box[0], (a, b)
    # colour chips lie in their rows, left of the corporation's name
    for sw in lay.swatches:
        (cx, cy), r = sw.center, sw.radius
        assert cx >= r and cx + r <= lay.width and cy >= r and cy + r <= lay.height


@needs_shared
@pytest.mark.parametrize(("title", "name", "frac"), CASES)
def test_card_is_legible_at_the_phone_preview(title: str, name: str, frac: float) -> None:
    view = view_of(title, name, frac)
    img, marks = _draw(view)
    small, scale = preview(img)
    assert small.width == PREVIEW and small.height <= MAX_PREVIEW_HEIGHT, small.size
    assert marks
    for m in marks:
        assert m.digit_height * scale >= MIN_CARD_TEXT >= MIN_NUMBER, m
        # and the drawn ink really is that tall (a digit or a capital in every text)
        if any(ch.isdigit() or ch.isupper() for ch in m.text):
            assert (m.box[3] - m.box[1]) * scale >= MIN_CARD_TEXT - 1, m
    shown = {m.text for m in marks}
    for p in view.players:
        assert f"${p.cash:,}" in shown and f"{p.cert_count}/{p.cert_limit}" in shown
    for c in view.corporations:
        if c.floated and not c.closed:
            assert any(t.startswith(c.id) for t in shown), c.id
            if c.price is not None:
                assert f"${c.price:,}" in shown, c.id
    if view.finished:
        assert "Final scores" in shown
    else:
        assert any(t.startswith("▶ ") for t in shown)


@needs_shared
@pytest.mark.parametrize(("title", "name", "frac"), CASES)
def test_card_text_stays_in_its_boxes(title: str, name: str, frac: float) -> None:
    _assert_nothing_overflows(view_of(title, name, frac))


def test_crowded_card_fits_and_stays_legible() -> None:
    view = _crowded_1870()
    _assert_nothing_overflows(view)
    img, marks = _draw(view)
    scale = PREVIEW / img.width
    assert img.width == CARD_WIDTH and img.height * scale <= MAX_PREVIEW_HEIGHT
    for m in marks:
        assert m.digit_height * scale >= MIN_CARD_TEXT, m
    shown = [m.text for m in marks]
    assert sum(t.endswith("…") for t in shown) >= 2  # long names are cut, not spilled
    assert "-$12,345" in " ".join(shown)
    assert sum(t == "10 12 8 6" for t in shown) == 10  # every corporation, every train
    assert sum(t == "$12,345" or t == "$12,346" for t in shown) == 2


def test_card_says_who_acts_and_what_they_may_do() -> None:
    view = make_view("18MS", market={(1, 4): ("GMO",)})
    view = dataclasses.replace(view, acting=("GMO",), acting_players=("p1",))
    _img, marks = _draw(view, may=("lay_tile", "place_token", "buy_train", "pass"))
    shown = [m.text for m in marks]
    assert "▶ GMO (Alice)" in shown
    assert "may: lay track · place a token · buy a train · pass" in shown
    # without the engine's list the round's moves are named
    _img, marks = _draw(view)
    assert "may: lay track · place a token · run trains · buy trains" in [m.text for m in marks]
    # an unstarted corporation is not a row, but is named
    assert any(m.text.startswith("Not started: ") and "IC" in m.text for m in marks)


def test_card_of_a_finished_game_ranks_the_players() -> None:
    view = make_view("18MEX")
    ids = [p.id for p in view.players]
    result = dict(zip(ids, (500, 900, 700), strict=True))
    view = dataclasses.replace(view, finished=True, acting=(), acting_players=(), result=result)
    _img, marks = _draw(view)
    text = " ".join(m.text for m in marks)
    assert "Final scores" in text and "1. Bob $900" in text and "3. Alice $500" in text


@pytest.mark.parametrize("width", [400, 1200])
def test_card_scales_with_its_width(width: int) -> None:
    view = _crowded_1870()
    _assert_nothing_overflows(view, width=width)
    assert card_layout(view, width=width).width == width


def test_card_png() -> None:
    png = render_card(make_view("1870"))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert Image.open(io.BytesIO(png)).width == CARD_WIDTH


def test_card_shows_the_players_clocks() -> None:
    """With the players' clocks the card has a Clock column; it still fits and stays legible
    on the crowded six-player card (a seat with no clock shows a dash)."""
    from render.card import clock_text

    assert [clock_text(s) for s in (59, 45 * 60, 3 * 3600 + 5 * 60, 2 * 86400 + 4 * 3600)] == [
        "0m", "45m", "3h 05m", "2d 4h"]
    view = _crowded_1870()
    clocks = {p.id: 3600.0 * (i + 1) * 7 for i, p in enumerate(view.players[:5])}
    _assert_nothing_overflows(view, clocks=clocks)
    img, marks = _draw(view, clocks=clocks)
    scale = PREVIEW / img.width
    for m in marks:
        assert m.digit_height * scale >= MIN_CARD_TEXT, m
    shown = [m.text for m in marks]
    assert "Clock" in shown and "7h 00m" in shown and "1d 11h" in shown and "—" in shown
    _img, plain = _draw(view)
    assert "Clock" not in [m.text for m in plain]
