"""Pure renderers: a read-only GameView in, PNG bytes out (no I/O, no engine internals).

    from render import render_map, render_market, render_status
    png = render_map(game.view(), size=1600, highlight_last=True, emphasise=("E12",))
"""

from render.map import render_map
from render.market import render_market
from render.status import render_status

__all__ = ["render_map", "render_market", "render_status"]
