"""The end-of-game chart: each player's worth over the operating rounds (top) and each
corporation's share price over the game (bottom), as a PNG. Input: engine.timeline.Timeline
(plain data); names shown are given by the caller."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from render import theme
from render.draw import to_png
from render.fonts import font

WIDTH, PANEL, MARGIN, LEFT = 1000, 330, 24, 70
PLAYER_COLORS = ((31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189), (255, 127, 14),
                 (23, 190, 207), (140, 86, 75), (227, 119, 194))


def _panel(d: ImageDraw.ImageDraw, top: int, title: str, labels: Sequence[str],
           series: Sequence[tuple[str, tuple[int, int, int], Sequence[int | None]]]) -> None:
    x0, x1 = LEFT, WIDTH - 170
    y0, y1 = top + 34, top + PANEL - 30
    d.text((MARGIN, top + 6), title, fill=theme.rgb("black"), font=font(20, bold=True))
    values = [v for _n, _c, vs in series for v in vs if v is not None]
    hi = max(values, default=1)
    lo = min(0, min(values, default=0))
    span = max(hi - lo, 1)
    d.rectangle((x0, y0, x1, y1), outline=(180, 180, 180))
    for k in range(5):  # value grid
        v = lo + span * k / 4
        y = y1 - (v - lo) / span * (y1 - y0)
        d.line((x0, y, x1, y), fill=(225, 225, 225))
        d.text((MARGIN, y - 8), f"${int(v)}", fill=(90, 90, 90), font=font(13))
    n = max(len(labels) - 1, 1)

    def xy(i: int, v: int) -> tuple[float, float]:
        return x0 + (x1 - x0) * i / n, y1 - (v - lo) / span * (y1 - y0)

    step = max(1, len(labels) // 12)
    for i, label in enumerate(labels):
        if i % step == 0 or i == len(labels) - 1:
            x, _ = xy(i, lo)
            d.text((x - 14, y1 + 6), label, fill=(90, 90, 90), font=font(12))
    for row, (name, color, vs) in enumerate(series):
        pts = [xy(i, v) for i, v in enumerate(vs) if v is not None]
        if len(pts) > 1:
            d.line(pts, fill=color, width=3)
        for x, y in pts:
            d.ellipse((x - 3, y - 3, x + 3, y + 3), fill=color)
        ly = y0 + row * 22
        d.rectangle((x1 + 14, ly + 4, x1 + 30, ly + 16), fill=color)
        d.text((x1 + 36, ly), name[:16], fill=theme.rgb("black"), font=font(15))


def render_chart(timeline: object, name_of: Callable[[str], str] = str) -> bytes:
    """PNG bytes of the chart for an engine.timeline.Timeline."""
    points = list(getattr(timeline, "points", ()))
    labels = [p.label for p in points]
    players = list(getattr(timeline, "players", ()))
    corps = list(getattr(timeline, "corporations", ()))
    img = Image.new("RGB", (WIDTH, 2 * PANEL + MARGIN), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    worth = [(name_of(pid), PLAYER_COLORS[i % len(PLAYER_COLORS)],
              [p.worth.get(pid) for p in points]) for i, (pid, _n) in enumerate(players)]
    _panel(d, 0, "Players' worth", labels, worth)
    prices = [(cid, theme.corp_rgb(color), [p.prices.get(cid) for p in points])
              for cid, color in corps]
    _panel(d, PANEL + MARGIN // 2, "Share prices", labels, prices)
    return to_png(img, -1)  # zlib's default level
