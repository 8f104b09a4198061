"""Market pixels: each corporation's marker sits in its cell, in stack order; the grid is uneven."""

from __future__ import annotations

import pytest

from engine.core.data import load_title_data
from render import theme
from render.demo import make_view
from render.market import cell_types, market_layout, render_market, render_market_image
from tests.render.conftest import SIZE, near, pixel


def _center(box: tuple[float, float, float, float]) -> tuple[float, float]:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def _chip_probe(box: tuple[float, float, float, float]) -> tuple[float, float]:
    """Inside the chip but left of its centred short name."""
    return (box[0] + (box[2] - box[0]) * 0.1, (box[1] + box[3]) / 2)


@pytest.mark.parametrize(
    ("title", "cell", "stack"),
    [
        ("18MS", (1, 4), ("GMO", "IC")),
        ("1870", (4, 12), ("SSW", "SP", "MKT")),
        ("18MEX", (0, 14), ("CHI",)),
        ("18MEX", (7, 0), ("NdM",)),
    ],
)
def test_marker_colours_in_their_cell_in_stack_order(
    title: str, cell: tuple[int, int], stack: tuple[str, ...]
) -> None:
    data = load_title_data(title)
    colors = {c["id"]: theme.corp_rgb(c["color"]) for c in data.corporations}
    img = render_market_image(make_view(title, market={cell: stack}), size=SIZE)
    geo = market_layout(data, SIZE)
    row, col = cell
    for i, cid in enumerate(stack):
        box = geo.chip_box(row, col, i, len(stack))
        x0, y0, x1, y1 = geo.cell_box(row, col)
        assert x0 <= box[0] < box[2] <= x1 and y0 <= box[1] < box[3] <= y1
        assert near(pixel(img, _chip_probe(box)), colors[cid], 12), cid
    # earlier in the stack (operates first) is drawn higher
    tops = [geo.chip_box(row, col, i, len(stack))[1] for i in range(len(stack))]
    assert tops == sorted(tops)
    # and nothing of the first marker's colour in the same spot of the neighbouring cells
    for other in ((row, col - 1), (row, col + 1)):
        if 0 <= other[1] < data.market["row_lengths"][row]:
            box = geo.chip_box(other[0], other[1], 0, len(stack))
            assert not near(pixel(img, _chip_probe(box)), colors[stack[0]], 12)


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_grid_has_the_true_row_lengths(title: str) -> None:
    data = load_title_data(title)
    img = render_market_image(make_view(title), size=SIZE)
    geo = market_layout(data, SIZE)
    for row, n in enumerate(data.market["row_lengths"]):
        if n < max(data.market["row_lengths"]):
            assert pixel(img, _center(geo.cell_box(row, n))) == theme.BACKGROUND
        inside = pixel(img, (geo.cell_box(row, n - 1)[0] + 3, geo.cell_box(row, n - 1)[3] - 3))
        assert inside != theme.BACKGROUND


def test_zone_fills_and_par_frames() -> None:
    data = load_title_data("1870")
    img = render_market_image(make_view("1870"), size=SIZE)
    geo = market_layout(data, SIZE)
    types = cell_types(data)
    for (row, col), t in types.items():
        x0, y0, x1, y1 = geo.cell_box(row, col)
        if "close" in t:
            assert near(pixel(img, (x0 + 4, y1 - 4)), theme.ZONE_FILL["close"], 5)
        if "par" in t:
            assert near(pixel(img, (x0 + 2.5, (y0 + y1) / 2)), theme.PAR_OUTLINE, 5)


def test_png_bytes() -> None:
    png = render_market(make_view("18MEX", market={(2, 2): ("MC",)}), size=SIZE)
    assert png.startswith(b"\x89PNG")
