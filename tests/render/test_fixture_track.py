"""Track rebuilt from a real log joins up across hex edges (worked example of tiles-geometry.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.data import load_title_data
from render.demo import effective_actions, view_from_export
from render.layout import lerp
from render.map import map_layout, render_map_image
from tests.render.conftest import SIZE, dark, pixel

FIXTURE = Path("/work/shared/fixtures/18MS/14375.json")
pytestmark = pytest.mark.skipif(not FIXTURE.exists(), reason="shared fixtures not mounted")


def test_undo_redo_resolution_matches_the_reference_example() -> None:
    actions = json.loads(FIXTURE.read_text())["actions"]
    ids = {a["id"] for a in effective_actions([a for a in actions if a["id"] <= 27])}
    assert 22 in ids and 23 not in ids and 27 in ids
    assert not {24, 25, 26} & ids


def test_ic_route_of_action_91_is_continuous_track() -> None:
    # IC runs Memphis A1 - B2 (58 rot 2) - B4..B10 (9 rot 1) - Chattanooga B12 after action 91
    export = json.loads(FIXTURE.read_text())
    view = view_from_export(export, at=91)
    assert view.hexes["B2"].tile == "58" and view.hexes["B2"].rotation == 2
    assert all(view.hexes[h].tile == "9" for h in ("B4", "B6", "B8", "B10"))
    data = load_title_data("18MS")
    geo = map_layout(data, SIZE)
    img = render_map_image(view, size=SIZE, highlight_last=False)
    chain = ["A1", "B2", "B4", "B6", "B8", "B10", "B12"]
    for a, b in zip(chain, chain[1:], strict=False):
        ca, cb = geo.hex_center(data, a), geo.hex_center(data, b)
        for t in (0.42, 0.58):  # just inside each hex, either side of the shared edge
            assert dark(pixel(img, lerp(ca, cb, t))), (a, b, t)
    # and no track from B4 towards its other neighbours (edges 0, 2, 5)
    c = geo.hex_center(data, "B4")
    for e in (0, 2, 5):
        other = geo.hex_center(data, data.hexes["B4"].neighbors[e])
        assert not dark(pixel(img, lerp(c, other, 0.42)))
