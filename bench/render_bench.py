"""Render timings: python bench/render_bench.py [-n N] [--against REV [--rounds R]] [--first P]
[--mix [GAMES]]

Median of N renders of the largest map (1870, a crowded hand-built board: ~75 % of the hexes
tiled, tokens in the cities), a close-up around its busiest city (render_map focus=), one
region (render_region), the market, the status sheet and the phone card (render_card, 800 px),
plus PNG sizes.  Wall-clock and CPU time (of this process) are both given: on a shared machine
the CPU time moves less with the load.

"map" alternates between the board and the board one move later (a tile laid on one more hex),
as a game's maps follow each other: what the renderer keeps between maps (render.draw's text
masks, the kept map a full map is patched from: render.mapkeep) is used as in a game.  "map
emptied" empties those caches and the kept maps before each render (a game whose maps were
pushed out by many others); it is not a process's first map, which also pays
for its memory, its fonts and Pillow's plugins: --first measures that.

--against REV: the maps only, of this tree and of git revision REV (extracted to a temporary
directory), alternately in R rounds of separate processes, so that both meet the same load.

--first P: the first map of P fresh processes per title, in two ways: "cold process" (import
the renderer, build the board, draw it: the first map of a process that was not warmed) and
"started worker" (the same after render.warm.warm_up, which the bot's render workers run when
they start; it draws the titles' start boards, never the board timed).  Medians of the P
processes, wall and CPU; with --against REV, REV's trees are timed alternately with this one
(a tree without render.warm has no "started worker" line).

--mix [GAMES]: the images the load bench's games ask for (bench/load_bench.py: the first 30
moves in effect of 18MS 14375, each move's kinds as the bot works them out: map and close-up
when the hexes change, market, card when the turn passes), drawn as the bot's render workers
draw them (bot.ports.RealRenderer), GAMES times over; CPU ms by kind and per move.

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
    from render import map as rmap

    for name in ("text_masks", "fit_font_size"):
        clear = getattr(getattr(draw, name, None), "cache_clear", None)
        if clear is not None:
            clear()
    for kept in (getattr(rmap, "_KEPT", None),  # maps1's last full map of each title
                 getattr(sys.modules.get("render.mapkeep"), "KEPT", None)):  # each game's
        if kept is not None:
            kept.clear()


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

        out[f"{title} map emptied"] = median_ms(cold, n)
    return out


def first_map(title: str, warmed: bool) -> dict[str, tuple[float, float] | int | None]:
    """In a fresh process: import, (warm-up,) the busy board's first map; (wall, CPU) ms each."""
    import resource

    def clock() -> tuple[float, float]:
        return time.perf_counter() * 1000, time.process_time() * 1000

    def since(t: tuple[float, float]) -> tuple[float, float]:
        now = clock()
        return now[0] - t[0], now[1] - t[1]

    t = clock()
    from render.demo import busy_view
    from render.map import render_map
    out: dict[str, tuple[float, float] | int | None] = {"import": since(t), "warm-up": None}
    if warmed:
        import render

        if not (Path(render.__file__).parent / "warm.py").exists():
            return {}  # a tree from before the warm-up (an editable install would lend its own)
        from render.warm import warm_up
        t = clock()
        warm_up()
        out["warm-up"] = since(t)
    view = busy_view(title)
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t = clock()
    render_map(view)
    out["map"] = since(t)
    out["faults"] = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    return out


def firsts(trees: list[tuple[str, str]], processes: int) -> None:
    got: dict[tuple[str, str, str], list[dict[str, tuple[float, float] | int | None]]] = {}
    for _ in range(processes):
        for title in ("1870", "18MEX", "18MS"):
            for how in ("cold process", "started worker"):
                for label, path in trees:
                    env = dict(os.environ, PYTHONPATH=path)
                    res = subprocess.run(
                        [sys.executable, __file__, "--worker-first", title,
                         *(["--warmed"] if how == "started worker" else [])],
                        check=True, capture_output=True, text=True, env=env, cwd=path,
                    )
                    r = json.loads(res.stdout)
                    if r:
                        got.setdefault((title, how, label), []).append(r)

    def med(rs: list[dict[str, tuple[float, float] | int | None]], key: str, i: int) -> str:
        vals = [v[i] for r in rs if isinstance(v := r.get(key), list | tuple)]
        return f"{statistics.median(vals):.0f}" if vals else "-"

    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    print(f"{'first map':<30}{'tree':<12}{'map wall':>9}{'map cpu':>9}{'faults':>8}"
          f"{'import':>8}{'warm-up':>9}  (ms; import and warm-up: wall)")
    for (title, how, label), rs in got.items():
        faults = statistics.median(int(f) for r in rs if isinstance(f := r["faults"], int))
        print(f"{title + ' ' + how:<30}{label[:11]:<12}{med(rs, 'map', 0):>9}{med(rs, 'map', 1):>9}"
              f"{faults:>8.0f}{med(rs, 'import', 0):>8}{med(rs, 'warm-up', 0):>9}")


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
        # the busiest city, the first by name of those tied (view.hexes's order follows a set's)
        focus = (max(sorted(view.hexes),
                     key=lambda n: sum(1 for t in view.hexes[n].tokens for c in t if c)),)
        region = max(map_regions(view.data).items(), key=lambda kv: len(kv[1]))[0]
        pair = (view, moved(view))
        turn = iter(range(1 << 30))

        def cold(v: GameView = view) -> bytes:
            clear_caches()
            return render_map(v)

        for name, fn in (
            ("map", lambda p=pair, t=turn: render_map(p[next(t) % 2])),
            ("map emptied", cold),
            ("close-up", lambda v=view, f=focus: render_map(v, focus=f)),
            ("region", lambda v=view, r=region: render_region(v, r)),
            ("market", lambda v=view: render_market(v)),
            ("status", lambda v=view: render_status(v)),
            ("card", lambda v=view: render_card(v)),
        ):
            wall, cpu, size = median_ms(fn, n)
            label = f"{title} {name}" + (f" ({tiles} tiles)" if name == "map" else "")
            print(f"{label:<24}{wall:>9.1f}{cpu:>9.1f}{size:>12,}")


def mix(games: int) -> None:
    """CPU of the load bench's images, by kind (see the module docstring)."""
    from bot.play import ServicePlay
    from bot.ports import RealRenderer
    from engine.game import Game
    from tests.bot.conftest import FIXTURES
    from tests.bot.replay import effective_log

    data = json.loads((FIXTURES / "18MS" / "14375.json").read_text())
    ref = Game(data["title"], [(str(p["id"]), str(p["id"])) for p in data["players"]], [])
    jobs: list[tuple[str, GameView]] = []
    before = ref.view()
    for action in effective_log(data)[:30]:
        ref.apply(action)
        after = ref.view()
        jobs.extend((k, after) for k in ServicePlay._changed(before, after))
        before = after
    renderer = RealRenderer()
    for kind, view in jobs[:8]:  # warm: fonts, text masks, the market's grid
        renderer.render(kind, view)
    cpu: dict[str, list[float]] = {}
    for _ in range(games):
        for kind, view in jobs:
            c0 = time.process_time()
            renderer.render(kind, view)
            cpu.setdefault(kind, []).append((time.process_time() - c0) * 1000)
    print(f"load average: {os.getloadavg()[0]:.2f}")
    print(f"{'kind':<10}{'images':>8}{'median ms':>11}{'total ms':>10}  (CPU, a game of 30 moves)")
    for kind, ms in cpu.items():
        print(f"{kind:<10}{len(ms) // games:>8}{statistics.median(ms):>11.1f}"
              f"{sum(ms) / games:>10.0f}")
    total = sum(sum(ms) for ms in cpu.values()) / games
    print(f"{'all':<10}{len(jobs):>8}{'':>11}{total:>10.0f}  ({total / 30:.1f} ms a move)")


def extract(rev: str, where: str) -> None:
    """Git revision rev's tree, written into the directory `where`."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True,
                         capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(tar)) as tf:
        tf.extractall(where, filter="data")


def against(rev: str, n: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        extract(rev, tmp)
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
    ap.add_argument("--first", type=int, metavar="P")
    ap.add_argument("--mix", type=int, nargs="?", const=5, metavar="GAMES")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--worker-first", metavar="TITLE", help=argparse.SUPPRESS)
    ap.add_argument("--warmed", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker_first:
        print(json.dumps(first_map(args.worker_first, args.warmed)))
    elif args.mix:
        mix(args.mix)
    elif args.worker:
        print(json.dumps(maps_only(args.n)))
    elif args.first:
        if args.against:
            with tempfile.TemporaryDirectory() as tmp:
                extract(args.against, tmp)
                firsts([(args.against, tmp), ("this tree", str(ROOT))], args.first)
        else:
            firsts([("this tree", str(ROOT))], args.first)
    elif args.against:
        against(args.against, args.n, args.rounds)
    else:
        everything(args.n)


if __name__ == "__main__":
    main()
