"""Status sheet: it shows the acting entity, the next train and every corporation's colour."""

from __future__ import annotations

import io

from PIL import Image

from render import theme
from render.demo import busy_view, make_view
from render.status import _tables, render_status, render_status_image


def _has_colour(img: Image.Image, rgb: theme.RGB) -> bool:
    colors = img.getcolors(1_000_000) or []
    return any(c == rgb for _, c in colors)


def test_status_marks_acting_next_train_and_corporation_colours() -> None:
    view = busy_view("1870", seed=2)
    img = render_status_image(view)
    assert _has_colour(img, theme.ACTING_FILL)
    assert _has_colour(img, theme.NEXT_TRAIN_FILL)
    for c in view.corporations:
        assert _has_colour(img, theme.corp_rgb(c.color)), c.id


def test_status_tables_carry_the_view_figures() -> None:
    view = make_view("18MS", market={(1, 4): ("GMO",)})
    lines, tables = _tables(view)
    assert view.round in lines[0] and f"Phase {view.phase}" in lines[0]
    players, corps = tables[0], tables[1]
    assert [r[0].text.lstrip("★ ") for r in players.rows] == [p.name for p in view.players]
    gmo = next(r for r in corps.rows if r[0].text.startswith("GMO"))
    price = view.data.market["grid_prices"][1][4]
    assert gmo[5].text == f"${price}"
    certs = players.rows[0][2].text
    assert certs == f"{view.players[0].cert_count}/{view.players[0].cert_limit}"


def test_status_png() -> None:
    png = render_status(make_view("18MEX"))
    assert Image.open(io.BytesIO(png)).size[0] == 1200
