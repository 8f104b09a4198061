"""Render timings: python bench/render_bench.py [-n N] [--against REV [--rounds R]]

Median of N renders of the largest map (1870, a crowded hand-built board: ~75 % of the hexes
tiled, tokens in the cities), a close-up around its busiest city (render_map focus=), one
region (render_region), the market, the status sheet and the phone card (render_card, 800 px),
plus PNG sizes.  Wall-clock and CPU time (of this process) are both given: on a shared machine
the CPU time moves less with the load.

--against REV: the maps only, of this tree and of git revision REV (extracted to a temporary
directory), alternately in R rounds of separate processes, so that both meet the same load.

Targets (2-core machine): map < 150 ms, market < 50 ms, every PNG < 2 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def median_ms(fn: Callable[[], bytes], n: int) -> tuple[float, float, int]:
    """(median wall ms, median CPU ms, PNG bytes)."""
    fn()  # warm caches (fonts, title data)
    wall, cpu = [], []
    size = 0
    for _ in range(n):
        t0, c0 = time.perf_counter(), time.process_time()
        size = len(fn())
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return statistics.median(wall), statistics.median(cpu), size


def maps_only(n: int) -> dict[str, tuple[float, float, int]]:
    from render.demo import busy_view
    from render.map import render_map

    out = {}
    for title in ("1870", "18MEX", "18MS"):
        view = busy_view(title)
        out[f"{title} map"] = median_ms(lambda v=view: render_map(v), n)
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
        for name, fn in (
            ("map", lambda v=view: render_map(v)),
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
    print(f"{'map':<12}{'tree':<12}{'wall ms':>9}{'cpu ms':>9}{'PNG bytes':>12}")
    for key in runs["this tree"]:
        for label in (rev, "this tree"):
            got = runs[label][key]
            wall = statistics.median(w for w, _, _ in got)
            cpu = statistics.median(c for _, c, _ in got)
            print(f"{key:<12}{label[:11]:<12}{wall:>9.1f}{cpu:>9.1f}{got[-1][2]:>12,}")


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
