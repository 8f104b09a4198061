"""The pixel layout agrees with the edge numbering of the title data (tiles-geometry.md)."""

from __future__ import annotations

import math

import pytest

from engine.core.data import load_title_data
from render.layout import SQRT3, HexLayout
from render.map import map_layout


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_every_neighbour_lies_across_its_edge(title: str) -> None:
    data = load_title_data(title)
    lay = map_layout(data, 900).layout
    assert lay.orientation == ("flat" if title == "18MEX" else "pointy")
    for h in data.hexes.values():
        c = lay.center(h.x, h.y)
        for e, name in h.neighbors.items():
            if name not in data.hexes:
                continue
            n = data.hexes[name]
            o = lay.center(n.x, n.y)
            assert math.dist(c, o) == pytest.approx(2 * lay.apothem, rel=1e-6)
            ang = math.degrees(math.atan2(o[1] - c[1], o[0] - c[0])) % 360
            assert ang == pytest.approx(lay.edge_angle(e), abs=1e-6) or abs(
                ang - lay.edge_angle(e)
            ) == pytest.approx(360, abs=1e-6)


def test_edge_directions_match_the_reference_drawing() -> None:
    pointy = HexLayout("pointy", 10.0, (0.0, 0.0))
    # 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE (screen y grows downwards)
    assert [round(pointy.edge_angle(e)) for e in range(6)] == [120, 180, 240, 300, 0, 60]
    flat = HexLayout("flat", 10.0, (0.0, 0.0))
    # 0 S, 1 SW, 2 NW, 3 N, 4 NE, 5 SE
    assert [round(flat.edge_angle(e)) for e in range(6)] == [90, 150, 210, 270, 330, 30]
    assert pointy.apothem == pytest.approx(10 * SQRT3 / 2)


def test_hex_polygon_corners_bound_each_edge() -> None:
    lay = HexLayout("pointy", 10.0, (0.0, 0.0))
    for e in range(6):
        a, b = lay.edge_segment((0.0, 0.0), e)
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        m = lay.edge_mid((0.0, 0.0), e)
        assert mid == pytest.approx(m)
