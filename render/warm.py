"""Warming a render process before its first image (the bot's render workers call `warm_up`
when they start).

The first map a process draws costs about half again a later one (bench/README.md, "Rendering"):
the process takes its memory from the system (page faults on the ~50 MB supersampled image and
the images made from it, which Pillow keeps for the next map), Pillow loads its file plugins
at the first PNG, FreeType opens every font size and renders every text for the first time, and
the fitted font sizes are worked out.  Drawing each title's start board once (its full map,
a close-up and the phone card) pays all of that before a player waits: the place names, the
coordinates and most numbers of a game's map are then kept (render.textmasks.text_masks) at the
places they are drawn, and the memory is Pillow's to reuse.  The first map of a title also
chooses the title's palette (render.map.title_palette: two maps of its demonstration board
drawn and an octree over them, 0.1-0.3 s of CPU a title), which every later map of it uses.

The kept text masks change no pixel of a later image (tests/render/test_render_caches.py), and
the palette is the same in every process.
The full maps drawn are kept (render.mapkeep, under no game): a game's first map of a layout
may be patched from its title's start board (render.map._donor), with the pixels of a map
drawn from nothing (tests/render/test_map_patch.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core.data import TITLE_DIRS
from render.card import render_card
from render.demo import make_view
from render.map import render_map


def warm_up(titles: Iterable[str] | None = None) -> None:
    """Draw the start board of each title (all known titles by default): full map, a
    close-up around a printed city and the phone card."""
    for title in titles if titles is not None else TITLE_DIRS:
        view = make_view(title)
        render_map(view)
        cities = [n for n, h in sorted(view.data.hexes.items()) if h.geometry.cities]
        if cities:
            render_map(view, focus=(cities[len(cities) // 2],))
        render_card(view)
