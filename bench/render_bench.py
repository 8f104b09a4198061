"""Render timings: python bench/render_bench.py [-n N]

Median of N renders of the largest map (1870, a crowded hand-built board: ~75 % of the hexes
tiled, tokens in the cities), a close-up around its busiest city (render_map focus=), the
market, the status sheet and the phone card (render_card, 800 px), plus PNG sizes.
Targets (2-core machine): map < 150 ms, market < 50 ms, every PNG < 2 MB.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from render.card import render_card
from render.demo import busy_view
from render.map import render_map
from render.market import render_market
from render.status import render_status


def median_ms(fn: Callable[[], bytes], n: int) -> tuple[float, int]:
    fn()  # warm caches (fonts, title data)
    times = []
    size = 0
    for _ in range(n):
        t0 = time.perf_counter()
        size = len(fn())
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times), size


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=15)
    args = ap.parse_args()
    print(f"{'image':<22}{'median ms':>10}{'PNG bytes':>12}")
    for title in ("1870", "18MEX", "18MS"):
        view = busy_view(title)
        tiles = sum(1 for h in view.hexes.values() if h.tile)
        focus = (max(view.hexes, key=lambda n: sum(1 for t in view.hexes[n].tokens for c in t if c)),)
        for name, fn in (
            ("map", lambda v=view: render_map(v)),
            ("close-up", lambda v=view, f=focus: render_map(v, focus=f)),
            ("market", lambda v=view: render_market(v)),
            ("status", lambda v=view: render_status(v)),
            ("card", lambda v=view: render_card(v)),
        ):
            ms, size = median_ms(fn, args.n)
            label = f"{title} {name}" + (f" ({tiles} tiles)" if name == "map" else "")
            print(f"{label:<22}{ms:>10.1f}{size:>12,}")


if __name__ == "__main__":
    main()
