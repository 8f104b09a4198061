"""A run drawn on the map (render/routes.py): each train's route in its own colour on the hexes
its track goes through, on a position of the recorded 18MS game 14375 (Fr's three trains in
OR 3: G3-F2-E1, I1-H2-G3 and I1-I1)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

GAME = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "18MS" / "14375.json"
pytestmark = pytest.mark.skipif(not GAME.is_file(), reason=f"{GAME} is absent (../shared)")


def test_each_route_in_its_colour_on_its_hexes() -> None:
    from engine.io.export18xx import import_game
    from render.map import map_geometry
    from render.routes import ROUTE_COLORS, render_routes, route_hexes

    data = json.loads(GAME.read_text())
    game = import_game(dict(data, actions=[a for a in data["actions"] if a["id"] <= 122]))
    routes = next(a for a in data["actions"] if a["id"] == 122)["routes"]
    view = game.view()
    img = Image.open(io.BytesIO(render_routes(view, routes, ["2+ $40", "2+ $70", "3+ $70"])))
    img = img.convert("RGB")
    hexes = [h for r in routes for chain in route_hexes(r) for h in chain]
    geo = map_geometry(view, focus=hexes, highlight_last=False)
    width = max(6, round(geo.layout.radius / 7))
    for i, route in enumerate(routes):
        shift = (i - (len(routes) - 1) / 2) * width * 0.9
        pts = [geo.hex_center(view.data, h) for chain in route_hexes(route) for h in chain]
        samples = [(a[0] + (b[0] - a[0]) * t / 10 + shift, a[1] + (b[1] - a[1]) * t / 10 + shift)
                   for a, b in zip(pts, pts[1:] or pts, strict=False) for t in range(11)]
        hits = sum(img.getpixel((round(x), round(y))) == ROUTE_COLORS[i] for x, y in samples)
        # along its own track the route shows its colour (a label may cover a little of it)
        assert hits >= 0.6 * len(samples), (i, hits, len(samples))
    # a hex no route uses keeps the map's own colours
    x, y = geo.hex_center(view.data, "E5")
    assert img.getpixel((round(x), round(y) + 30)) not in ROUTE_COLORS
