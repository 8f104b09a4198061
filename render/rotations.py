"""The legal rotations of a tile on a hex, side by side, each drawn on the hex's close-up and
numbered (the player picks one for /lay). Input: a GameView and the legal rotations."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine.view import GameView, HexState
from render import theme
from render.draw import to_png
from render.fonts import font
from render.map import render_map_image

PANEL = 360  # each close-up's width
PER_ROW = 3


def render_rotations(view: GameView, hex_name: str, tile: str, rotations: Sequence[int]) -> bytes:
    """PNG bytes: one close-up of `hex_name` per rotation with `tile` laid, numbered (no
    legend: the panels differ only by the tile's track, and a legend in each would shrink
    their hexes)."""
    panels = []
    old = view.hexes.get(hex_name)
    for r in rotations:
        state = HexState(hex_name, tile, r, old.tokens if old else (), old.reserved if old else (),
                         old.markers if old else ())
        shown = dataclasses.replace(view, hexes={**view.hexes, hex_name: state},
                                    last_hexes=(hex_name,))
        img = render_map_image(shown, size=PANEL, focus=(hex_name,), rings=1, header=False,
                               highlight_last=True, coordinates=False, legend=False)
        d = ImageDraw.Draw(img)
        label = str(r)
        f = font(56, bold=True)
        d.rounded_rectangle((8, 8, 78, 78), radius=12, fill=(20, 20, 20))
        box = d.textbbox((0, 0), label, font=f)
        d.text((43 - (box[2] - box[0]) / 2 - box[0], 43 - (box[3] - box[1]) / 2 - box[1]), label,
               fill=(255, 255, 255), font=f)
        panels.append(img)
    if not panels:
        raise ValueError("no rotation to draw")
    w = max(p.width for p in panels)
    h = max(p.height for p in panels)
    cols = min(PER_ROW, len(panels))
    rows = (len(panels) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * w + (cols + 1) * 8, rows * h + (rows + 1) * 8),
                      theme.BACKGROUND)
    for i, p in enumerate(panels):
        sheet.paste(p, (8 + (i % cols) * (w + 8), 8 + (i // cols) * (h + 8)))
    return to_png(sheet, -1)  # zlib's default level
