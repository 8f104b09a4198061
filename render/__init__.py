"""Pure renderers: a read-only GameView in, PNG bytes out (no I/O, no engine internals).

    from render import render_card, render_map, render_market, render_status
    png = render_map(game.view(), size=1600, highlight_last=True, emphasise=("E12",))
    png = render_card(game.view())  # the phone card: legible in a 400 px wide preview
    png = render_map(view, focus=view.last_hexes)  # close-up of the last move (phone)
    for name in map_regions(view.data):  # the map cut in ~4 x 4 hex regions, "A2-D7", ...
        png = render_region(view, name)  # each legible in a 400 px wide preview
"""

from render.card import render_card
from render.map import map_regions, render_map, render_region
from render.market import render_market
from render.status import render_status

__all__ = [
    "map_regions",
    "render_card",
    "render_map",
    "render_market",
    "render_region",
    "render_status",
]
