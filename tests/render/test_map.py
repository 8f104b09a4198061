"""Map pixels: tiles, tokens and highlights are drawn where the hex geometry says.

Edge midpoints are found from the title data itself (the hex across edge e, by the data's
`neighbors`), not from the renderer's edge angles, so a wrong rotation or edge numbering fails.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.core.data import TitleData, load_title_data
from render import theme
from render.demo import busy_view, make_view
from render.draw import TextMark, record_text
from render.hexplace import slot_centers, slot_radius
from render.layout import HexLayout, Point, lerp
from render.map import map_layout, render_map, render_map_image
from render.theme import RGB
from tests.render.conftest import SIZE, dark, near, pixel


def _inner_hex(data: TitleData) -> str:
    """A plain hex whose six neighbours all exist (so every edge midpoint can be located)."""
    for name in sorted(data.hexes):
        h = data.hexes[name]
        if (
            h.kind == "plain"
            and not h.terrain_cost
            and len([n for n in h.neighbors.values() if n in data.hexes]) == 6
        ):
            return name
    raise AssertionError("no inner hex")


def _edge_probe(data: TitleData, hexname: str, edge: int, frac: float = 0.85) -> Point:
    """A point `frac` of the way from the hex centre to the middle of `edge`, via the neighbour."""
    geo = map_layout(data, SIZE)
    c = geo.hex_center(data, hexname)
    other = geo.hex_center(data, data.hexes[hexname].neighbors[edge])
    return lerp(c, lerp(c, other, 0.5), frac)


def _track_edges(img: Image.Image, data: TitleData, hexname: str) -> set[int]:
    return {e for e in range(6) if dark(pixel(img, _edge_probe(data, hexname, e)))}


CASES = [
    (title, tile, rot)
    for title in ("18MS", "18MEX")
    for tile in ("9", "8", "7")
    for rot in range(6)
]


@pytest.mark.parametrize(("title", "tile", "rot"), CASES)
def test_track_leaves_through_the_rotated_exits(title: str, tile: str, rot: int) -> None:
    data = load_title_data(title)
    h = _inner_hex(data)
    img = render_map_image(make_view(title, tiles={h: (tile, rot)}), size=SIZE)
    expected = set(data.tiles[tile].geometry.exits(rot))
    assert _track_edges(img, data, h) == expected
    # the tile is drawn in its colour where there is no track
    free = next(e for e in range(6) if e not in expected)
    assert near(pixel(img, _edge_probe(data, h, free)), theme.HEX_FILL["yellow"])


@pytest.mark.parametrize("title", ["18MS", "18MEX"])
def test_straight_crosses_the_centre_and_sharp_curve_does_not(title: str) -> None:
    data = load_title_data(title)
    h = _inner_hex(data)
    geo = map_layout(data, SIZE)
    c = geo.hex_center(data, h)
    straight = render_map_image(make_view(title, tiles={h: ("9", 0)}), size=SIZE)
    sharp = render_map_image(make_view(title, tiles={h: ("7", 0)}), size=SIZE)
    assert dark(pixel(straight, c))
    assert near(pixel(sharp, c), theme.HEX_FILL["yellow"])
    # a sharp curve hugs the corner between its two edges: probe the corner side of the centre
    corner = lerp(_edge_probe(data, h, 0, 0.5), _edge_probe(data, h, 1, 0.5), 0.5)
    mid = lerp(c, lerp(corner, c, 0), 1.0)
    assert dark(pixel(sharp, lerp(c, mid, 1.55))) or dark(pixel(sharp, lerp(c, mid, 1.45)))


def test_printed_track_of_an_untiled_hex() -> None:
    # 18MS E1 Jackson (gray): printed exits 3, 4, 5
    data = load_title_data("18MS")
    img = render_map_image(make_view("18MS"), size=SIZE)
    nb = {e for e, n in data.hexes["E1"].neighbors.items() if n in data.hexes}
    found = {e for e in nb if dark(pixel(img, _edge_probe(data, "E1", e, 0.9)))}
    assert found == {3, 4, 5} & nb


def test_token_colour_at_its_slot() -> None:
    data = load_title_data("18MS")
    h = next(
        n
        for n, x in sorted(data.hexes.items())
        if x.kind == "city" and not x.geometry.cities[0].reserved_for
    )
    view = make_view("18MS", tiles={h: ("57", 1)}, tokens={h: [["IC"]]})
    img = render_map_image(view, size=SIZE)
    geo = map_layout(data, SIZE)
    c = geo.hex_center(data, h)
    below_name = (
        c[0],
        c[1] + slot_radius(geo.layout, 1) * 0.7,
    )  # the short name sits in the middle
    assert near(pixel(img, below_name), theme.corp_rgb("#397641"), 10)


def test_two_tokens_in_a_two_slot_city_keep_their_order() -> None:
    data = load_title_data("18MS")
    h = next(
        n
        for n, x in sorted(data.hexes.items())
        if x.kind == "city" and not x.geometry.cities[0].reserved_for
    )
    view = make_view("18MS", tiles={h: ("14", 0)}, tokens={h: [["Fr", "L&N"]]})
    img = render_map_image(view, size=SIZE)
    geo = map_layout(data, SIZE)
    left, right = slot_centers(geo.layout, geo.hex_center(data, h), 2)
    assert left[0] < right[0]
    dy = slot_radius(geo.layout, 2) * 0.7
    assert near(pixel(img, (left[0], left[1] + dy)), theme.corp_rgb("#ed1c24"), 10)
    assert near(pixel(img, (right[0], right[1] + dy)), theme.corp_rgb("#0d5ba5"), 10)


def test_reserved_home_is_tinted_and_placed_home_is_solid() -> None:
    data = load_title_data("18MS")
    # H6 Mobile is GMO's (black) home
    geo = map_layout(data, SIZE)
    c = geo.hex_center(data, "H6")
    empty = render_map_image(make_view("18MS"), size=SIZE)
    placed = render_map_image(make_view("18MS", tokens={"H6": [["GMO"]]}), size=SIZE)
    assert not dark(pixel(empty, (c[0], c[1] + geo.layout.radius * 0.12)))
    assert dark(pixel(placed, (c[0], c[1] + geo.layout.radius * 0.12)))


def test_last_move_is_highlighted() -> None:
    data = load_title_data("1870")
    h = _inner_hex(data)
    geo = map_layout(data, SIZE)
    lay = geo.layout
    c = geo.hex_center(data, h)
    img = render_map_image(make_view("1870", tiles={h: ("9", 0)}, last_hexes=[h]), size=SIZE)
    corner = lay.corner(c, 0, 0.97)
    assert near(pixel(img, corner), theme.HIGHLIGHT, 30)
    plain = render_map_image(make_view("1870", tiles={h: ("9", 0)}), size=SIZE)
    assert not near(pixel(plain, corner), theme.HIGHLIGHT, 30)


def test_double_hex_partner_is_drawn_with_its_piece() -> None:
    data = load_title_data("18MEX")
    geo = map_layout(data, SIZE)
    img = render_map_image(make_view("18MEX", tiles={"O10": ("485MC", 0)}), size=SIZE)
    c = geo.hex_center(data, "P11")
    box = img.crop((round(c[0]) - 30, round(c[1]) - 30, round(c[0]) + 30, round(c[1]) + 30))
    colors = box.getcolors(10000) or []
    brown = sum(
        n
        for n, col in colors
        if isinstance(col, tuple) and near((col[0], col[1], col[2]), theme.HEX_FILL["brown"], 6)
    )
    assert brown > 200


def test_river_and_flat_png() -> None:
    view = busy_view("1870", seed=3)
    png = render_map(view, size=SIZE)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(png))
    assert img.size[0] == SIZE
    assert len(png) < 2_000_000


def _marks_of(view: object, role: str, size: int = 1600) -> tuple[Image.Image, list[TextMark]]:
    with record_text() as marks:
        img = render_map_image(view, size=size)  # type: ignore[arg-type]
    return img, [m for m in marks if m.role == role]


def _ink_share(img: Image.Image, box: tuple[float, float, float, float], fill: RGB) -> float:
    crop = img.crop((round(box[0]), round(box[1]), round(box[2]), round(box[3])))
    px = list(crop.get_flattened_data())
    return sum(1 for p in px if not near((p[0], p[1], p[2]), fill, 60)) / max(1, len(px))


def _inside_hex(lay: HexLayout, c: Point, box: tuple[float, float, float, float]) -> bool:
    """Every corner of the box inside the hex (a convex polygon, corners clockwise)."""
    poly = lay.polygon(c)

    def inside(x: float, y: float) -> bool:
        for (ax, ay), (bx, by) in zip(poly, poly[1:] + poly[:1], strict=True):
            if (bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0:
                return False
        return True

    return all(inside(x, y) for x in (box[0], box[2]) for y in (box[1], box[3]))


@pytest.mark.parametrize(("title", "tile", "rot"), [("18MS", "57", 1), ("1870", "9", 0),
                                                     ("18MEX", "8", 2)])
def test_laid_tile_shows_its_number_in_ink_clear_of_track(title: str, tile: str, rot: int) -> None:
    data = load_title_data(title)
    h = _inner_hex(data)
    if tile == "57":  # a city tile on a city hex
        h = next(n for n, x in sorted(data.hexes.items())
                 if x.kind == "city" and not x.geometry.cities[0].reserved_for)
    view = make_view(title, tiles={h: (tile, rot)})
    img, marks = _marks_of(view, "tile")
    assert [m.text for m in marks] == [tile]
    geo = map_layout(data, 1600)
    c = geo.hex_center(data, h)
    box = marks[0].box
    assert _inside_hex(geo.layout, c, box)
    assert box[3] - box[1] >= 6  # legible on the full map at full size
    # the number is drawn: its box holds dark ink on the tile colour ...
    assert 0.08 < _ink_share(img, box, theme.HEX_FILL["yellow"]) < 0.7
    # ... and no track: the hex's track pixels stay out of the box
    plain = render_map_image(make_view(title), size=1600)
    assert _ink_share(plain, box, theme.HEX_FILL[data.hexes[h].color]) < 0.05


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_every_hex_shows_its_coordinate_inside(title: str) -> None:
    data = load_title_data(title)
    view = busy_view(title, seed=2)
    img, marks = _marks_of(view, "hexname")
    assert sorted(m.text for m in marks) == sorted(data.hexes)
    geo = map_layout(data, 1600)
    for m in marks:
        c = geo.hex_center(data, m.text)
        assert _inside_hex(geo.layout, c, m.box), m
        assert m.box[3] - m.box[1] >= 5, m
    # drawn where the recorder says: ink in the box of a plain hex's coordinate
    plain = next(m for m in marks if data.hexes[m.text].kind == "plain"
                 and m.text not in view.hexes)
    fill = theme.HEX_FILL[data.hexes[plain.text].color]
    assert _ink_share(img, plain.box, fill) > 0.05
