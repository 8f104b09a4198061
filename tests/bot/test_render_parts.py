"""The renderer port draws a region of the map and a close-up around any hex."""

from __future__ import annotations

import io

from PIL import Image

from bot.ports import RealRenderer
from render.demo import busy_view
from render.map import FOCUS_WIDTH, map_regions


def test_region_and_area_images() -> None:
    view = busy_view("18MS")
    r = RealRenderer()
    name = next(iter(map_regions(view.data)))
    for kind in (f"region:{name}", "area:E5"):
        png = r.render(kind, view)
        assert png is not None
        assert Image.open(io.BytesIO(png)).width == FOCUS_WIDTH
    assert r.render("region:nowhere", view) is None
    assert r.render("area:Z99", view) is None
