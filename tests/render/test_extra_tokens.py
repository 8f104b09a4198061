"""Tokens beyond a city's printed spaces (1870 destination tokens in extra slots, a station-wars
token squeezed into a full city) are drawn beside the city, in their corporation's colour."""

from __future__ import annotations

from engine.core.data import load_title_data
from render import theme
from render.demo import make_view
from render.hexplace import slot_centers, slot_radius
from render.map import map_layout, render_map_image
from tests.render.conftest import SIZE, near, pixel


def test_a_token_beyond_the_printed_spaces_is_drawn_beside_the_city() -> None:
    data = load_title_data("18MS")
    h = next(
        n
        for n, x in sorted(data.hexes.items())
        if x.kind == "city" and not x.geometry.cities[0].reserved_for
    )
    geo = map_layout(data, SIZE)
    c = geo.hex_center(data, h)
    s = slot_radius(geo.layout, 1)
    (centre,) = slot_centers(geo.layout, c, 1)
    extra = (centre[0] + s * 1.6, centre[1] - s * 0.5 + s * 0.75 * 0.7)  # below its label
    fr = theme.corp_rgb("#ed1c24")
    one = render_map_image(make_view("18MS", tiles={h: ("57", 1)}, tokens={h: [["IC"]]}), size=SIZE)
    two = render_map_image(make_view("18MS", tiles={h: ("57", 1)}, tokens={h: [["IC", "Fr"]]}), size=SIZE)
    assert not near(pixel(one, extra), fr, 10)
    assert near(pixel(two, extra), fr, 10)
    assert near(pixel(two, (centre[0], centre[1] + s * 0.7)), theme.corp_rgb("#397641"), 10)
