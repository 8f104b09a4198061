"""Pure renderers: a read-only GameView in, PNG bytes out (no I/O, no engine internals).

    from render import render_card, render_map, render_market, render_status
    png = render_map(game.view(), size=1600, highlight_last=True, emphasise=("E12",))
    png = render_card(game.view())  # the phone card: legible in a 400 px wide preview
"""

from render.card import render_card
from render.map import render_map
from render.market import render_market
from render.status import render_status

__all__ = ["render_card", "render_map", "render_market", "render_status"]
