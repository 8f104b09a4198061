"""A run drawn on the map: each train's route in its own colour, through the hexes of its
track, with the train and its revenue at its first stop (a close-up of the hexes it uses).
Input: a GameView and the run's routes (the run_routes action's `routes`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import ImageDraw

from engine.view import GameView
from render.draw import to_png
from render.fonts import font
from render.map import map_geometry, render_map_image

ROUTE_COLORS = ((230, 25, 75), (0, 130, 200), (60, 180, 75), (245, 130, 48), (145, 30, 180),
                (70, 240, 240))


def route_hexes(route: dict[str, Any]) -> list[list[str]]:
    """The hex chains a route's track goes through (its connections; its stops if none)."""
    chains = [list(c) for c in route.get("connections") or () if c]
    return chains or [list(route.get("hexes") or ())]


def render_routes(view: GameView, routes: Sequence[dict[str, Any]],
                  labels: Sequence[str] = ()) -> bytes:
    """PNG bytes: the close-up of the run's hexes with each route drawn in its colour;
    `labels`: one per route (e.g. "2+ $90")."""
    hexes = list(dict.fromkeys(h for r in routes for chain in route_hexes(r) for h in chain
                               if h in view.data.hexes))  # in order, each once (the caption)
    img = render_map_image(view, focus=hexes, rings=1, highlight_last=False)
    geo = map_geometry(view, focus=hexes, rings=1, highlight_last=False)
    d = ImageDraw.Draw(img)
    width = max(6, round(geo.layout.radius / 7))
    for i, r in enumerate(routes):
        color = ROUTE_COLORS[i % len(ROUTE_COLORS)]
        shift = (i - (len(routes) - 1) / 2) * width * 0.9  # side by side where they meet
        for chain in route_hexes(r):
            pts = [geo.hex_center(view.data, h) for h in chain if h in view.data.hexes]
            pts = [(x + shift, y + shift) for x, y in pts]
            if len(pts) > 1:
                d.line(pts, fill=color, width=width, joint="curve")
            for x, y in pts:
                d.ellipse((x - width, y - width, x + width, y + width), fill=color)
        label = labels[i] if i < len(labels) else str(r.get("train", ""))
        first = next((h for chain in route_hexes(r) for h in chain if h in view.data.hexes), None)
        if first and label:
            x, y = geo.hex_center(view.data, first)
            size = max(14, width * 3)
            f = font(size, bold=True)
            at = (x + shift, y - width * 5 - i * (size + 12))  # labels stacked, never on top
            box = d.textbbox(at, label, font=f)
            d.rounded_rectangle((box[0] - 4, box[1] - 3, box[2] + 4, box[3] + 3), radius=6,
                                fill=color)
            d.text(at, label, fill=(255, 255, 255), font=f)
    return to_png(img, -1)  # zlib's default level
