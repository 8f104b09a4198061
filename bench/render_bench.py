"""Render timings: python bench/render_bench.py [-n N] [--against REV [--rounds R]]

Median of N renders of the largest map (1870, a crowded hand-built board: ~75 % of the hexes
tiled, tokens in the cities), a close-up around its busiest city (render_map focus=), one
region (render_region), the market, the status sheet and the phone card (render_card, 800 px),
plus PNG sizes.  Wall-clock and CPU time (of this process) are both given: on a shared machine
the CPU time moves less with the load.

"map" alternates between the board and the board one move later (a tile laid on one more hex),
as a game's maps follow each other: what the renderer keeps between maps (render.draw's text
masks) is used as in a game.  "map cold" empties those caches before each render: the first
map after a start, or of a game whose maps were pushed out by many others.

--against REV: the maps only, of this tree and of git revision REV (extracted to a temporary
directory), alternately in R rounds of separate processes, so that both meet the same load.

Targets (2-core machine): map < 150 ms, market < 50 ms, every PNG < 2 MB.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from io import BytesIO
from pathlib import Path

from engine.view import GameView, HexState

ROOT = Path(__file__).resolve().parent.parent


def median_ms(fn: Callable[[], bytes], n: int) -> tuple[float, float, int]:
    """(median wall ms, median CPU ms, PNG bytes)."""
    fn()  # warm caches (fonts, title data)
    fn()
    wall, cpu = [], []
    size = 0
    for _ in range(n):
        t0, c0 = time.perf_counter(), time.process_time()
        size = len(fn())
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(wall), statistics.median(cpu), size


def moved(view: GameView) -> GameView:
    """The view one move later: a yellow tile on the first untiled hex that takes one."""
    for name, h in sorted(view.data.hexes.items()):
        yellow = h.possible_tiles.get("yellow") if h.possible_tiles else None
        st = view.hexes.get(name)
        if yellow and (st is None or not st.tile):
            tile = sorted(yellow)[0]
            hexes = dict(view.hexes)
            hexes[name] = HexState(name, tile, yellow[tile][0])
            return dataclasses.replace(view, hexes=hexes, last_hexes=(name,))
    raise AssertionError("no hex to lay on")


def clear_caches() -> None:
    """Forget what the renderer keeps between maps (nothing in trees that keep nothing)."""
    from render import draw

    for name in ("text_masks", "fit_font_size"):
        clear = getattr(getattr(draw, name, None), "cache_clear", None)
        if clear is not None:
            clear()


def maps_only(n: int) -> dict[str, tuple[float, float, int]]:
    from render.demo import busy_view
    from render.map import render_map

    out = {}
    for title in ("1870", "18MEX", "18MS"):
        views = [busy_view(title)]
        views.append(moved(views[0]))
        turn = iter(range(1 << 30))

        def warm(v: list[GameView] = views, t: Iterator[int] = turn) -> bytes:
            return render_map(v[next(t) % 2])

        out[f"{title} map"] = median_ms(warm, n)

        def cold(v: GameView = views[0]) -> bytes:
            clear_caches()
            return render_map(v)

        out[f"{title} map cold"] = median_ms(cold, n)
    return out


def everything(n: int) -> None:
    from render.card import render_card
    from render.demo import busy_view
    from render.map import map_regions, render_map, render_region
    from render.market import render_market
    from render.status import render_status

    print(f"{'image':<24}{'wall ms':>9}{'cpu ms':>9}{'PNG bytes':>12}")
    for title in ("1870", "18MEX", "18MS"):
        view = busy_view(title)
        tiles = sum(1 for h in view.hexes.values() if h.tile)
        focus = (max(view.hexes, key=lambda n: sum(1 for t in view.hexes[n].tokens for c in t if c)),)
        region = max(map_regions(view.data).items(), key=lambda kv: len(kv[1]))[0]
        pair = (view, moved(view))
        turn = iter(range(1 << 30))

        def cold(v: GameView = view) -> bytes:
            clear_caches()
            return render_map(v)

        for name, fn in (
            ("map", lambda p=pair, t=turn: render_map(p[next(t) % 2])),
            ("map cold", cold),
            ("close-up", lambda v=view, f=focus: render_map(v, focus=f)),
            ("region", lambda v=view, r=region: render_region(v, r)),
            ("market", lambda v=view: render_market(v)),
            ("status", lambda v=view: render_status(v)),
            ("card", lambda v=view: render_card(v)),
        ):
            wall, cpu, size = median_ms(fn, n)
            label = f"{title} {name}" + (f" ({tiles} tiles)" if name == "map" else "")
            print(f"{label:<24}{wall:>9.1f}{cpu:>9.1f}{size:>12,}")


def against(rev: str, n: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                             capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(tar)) as tf:
            tf.extractall(tmp, filter="data")
        runs: dict[str, dict[str, list[tuple[float, float, int]]]] = {rev: {}, "this tree": {}}
        for _ in range(rounds):
            for label, path in ((rev, tmp), ("this tree", str(ROOT))):
                env = dict(os.environ, PYTHONPATH=path)
                res = subprocess.run(
                    [sys.executable, __file__, "--worker", "-n", str(n)],
                    check=True, capture_output=True, text=True, env=env, cwd=path,
                )
                for k, v in json.loads(res.stdout).items():
                    runs[label].setdefault(k, []).append(tuple(v))
    print(f"{'map':<16}{'tree':<12}{'wall ms':>9}{'cpu ms':>9}{'PNG bytes':>12}")
    for key in runs["this tree"]:
        for label in (rev, "this tree"):
            got = runs[label][key]
            wall = statistics.median(w for w, _, _ in got)
            cpu = statistics.median(c for _, c, _ in got)
            print(f"{key:<16}{label[:11]:<12}{wall:>9.1f}{cpu:>9.1f}{got[-1][2]:>12,}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=15)
    ap.add_argument("--against", metavar="REV")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        print(json.dumps(maps_only(args.n)))
    elif args.against:
        against(args.against, args.n, args.rounds)
    else:
        everything(args.n)


if __name__ == "__main__":
    main()
