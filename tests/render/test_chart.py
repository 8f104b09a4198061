"""The end-of-game chart: the timeline (engine/timeline.py) of the recorded 18MS game 14375 ends
at the site's result, and the chart (render/chart.py) draws each player's worth and each
corporation's price in its colour (pixels sampled in the legend and on the lines)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

GAME = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "18MS" / "14375.json"
pytestmark = pytest.mark.skipif(not GAME.is_file(), reason=f"{GAME} is absent (../shared)")


def _timeline():  # type: ignore[no-untyped-def]
    from engine.io.export18xx import import_game
    from engine.timeline import timeline

    data = json.loads(GAME.read_text())
    return data, timeline(import_game(data))


def test_timeline_ends_at_the_result_after_each_operating_round() -> None:
    data, tl = _timeline()
    assert [p.label for p in tl.points] == ["start"] + [f"OR {n}" for n in range(1, 11)]
    assert tl.points[-1].worth == {k: int(v) for k, v in data["result"].items()}
    # the site's log: after OR 10 "IC's share price moves right from $150 to $170"
    assert tl.points[-1].prices["IC"] == 170
    # "GMO's share price moves right from $75 to $80" is GMO's last move in OR 2
    assert tl.points[2].prices["GMO"] == 80


def test_chart_draws_each_series_in_its_colour() -> None:
    from render import theme
    from render.chart import PANEL, PLAYER_COLORS, WIDTH, render_chart

    _data, tl = _timeline()
    png = render_chart(tl, {"680": "P1", "4861": "P2", "686": "P3"}.get)
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert img.size == (WIDTH, 2 * PANEL + 24)
    x1 = WIDTH - 170
    for row, color in enumerate(PLAYER_COLORS[:3]):  # legend squares of the players
        assert img.getpixel((x1 + 22, 34 + row * 22 + 10)) == color
    corps = dict(tl.corporations)
    ic = theme.corp_rgb(corps["IC"])
    ic_row = list(corps).index("IC")
    assert img.getpixel((x1 + 22, PANEL + 12 + 34 + ic_row * 22 + 10)) == ic
    # the winner's line ends at the top right of the worth panel (the highest value drawn)
    top, right = 34, x1
    near = [img.getpixel((right - dx, top + dy)) for dx in range(0, 4) for dy in range(0, 4)]
    assert PLAYER_COLORS[1] in near  # "4861" (P2) won with $3685
