"""Replay speed beside the 18xx.games engine (../shared/referee), same files, one run.

    python bench/referee_bench.py [-n 7] [--rounds R] [--cpu] [--fresh] [--strict]
                                  [--in-process] [FIXTURE ...]   (FIXTURE: e.g. 1870/34110.json)

Like with like: both sides are timed in a process of their own, warm, on an export already
parsed from JSON, and both load it the same way.

Default, what is compared: **a stored game loaded**, on both sides lenient. The site loads a
stored game without the tile/token/route legality checks (logged values stand); ours loads it as
the bot reloads a stored game, whose moves were each accepted when made (`Game.load_log(...,
accepted=True)`: the checks that can only refuse a move are not made again; the states are the
same as with them, tests/engine/test_accepted_replay.py). Ours also pays the export's check and
the normalising of its actions (`start_from_export`), which a reload from the bot's store does not.

`--strict`: **a foreign file imported**, on both sides with every check: the site's `replay
--strict` (the legality checks of a live move on every action) against our `import_game` (a
player's upload: every lay's and token's connection checked, as always for a foreign log).

- Site: `ruby ../shared/referee/referee.rb replay [--strict] FILE FILE ...` (the file n + 1 times
  in one Ruby process); the referee reports the milliseconds of each `Engine::Game.load` itself.
  The first load of a process is given apart (cold); the figure compared is the median of the
  other n. Ruby's start-up and its JSON parsing are not counted.
- Ours: the same shape, `python bench/referee_bench.py --child n+1 FILE` (the export check, the
  normalising of actions, undo/redo resolution and every action applied): the first load of
  the process given apart (cold), the median of the other n. Python's start-up, its imports
  and its JSON parsing are not counted. `--in-process`: ours timed in the bench's own process
  instead (one warm-up, then n), as before: a process that has loaded other fixtures and just
  waited on Ruby's, whose loads measured 20-70 % slower than a fresh process's at times (see
  bench/README.md section 22).

`--fresh`: before each of our loads the engine forgets the boards it has seen (their track
graphs and reach answers: `engine.routes.reach.forget_boards`), as for a game this process has
not replayed before; without it, a load after the first finds the positions of the earlier loads
of the same file in those caches (the site keeps nothing between loads).

The two sides run one after the other, fixture by fixture, so a change in the machine's load
touches both alike. `--rounds R` does that R times a fixture (site, ours, site, ours, ...) and
compares the medians over all the rounds' loads (CPU: the medians of the rounds' figures): a
spell of the machine's noise then weighs on one round of each side, not on one side's only
run. Each side's end result (players' values) is compared too.

`--cpu` also compares CPU time per load (what a busy shared machine disturbs least), both
sides alike from their processes' CPU (getrusage of children): a process loading the file
n + 1 times minus one loading it once, over n, so start-up is not counted but parsing the
JSON of each load is (with `--in-process`, ours: `json.loads` of the file's text plus the
load, CPU time of this process).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
REFEREE = SHARED / "referee" / "referee.rb"
sys.path.insert(0, str(ROOT))

from engine.game import Game  # noqa: E402
from engine.io.export18xx import import_game, start_from_export  # noqa: E402
from engine.routes.reach import forget_boards  # noqa: E402

FRESH = False  # --fresh: forget the boards seen before each of our loads
STRICT = False  # --strict: a foreign file imported, every check on both sides


def load(data: dict[str, Any]) -> Game:
    """Our load: a stored game (accepted moves, not re-judged), or with --strict a foreign
    file imported (every check)."""
    if STRICT:
        return import_game(data)
    game, actions = start_from_export(data)
    game.load_log(actions, accepted=True)
    return game


def site(path: Path, n: int) -> tuple[list[float], dict[str, Any], float]:
    """(ms of each load, the last answer, wall seconds of the Ruby process)."""
    t0 = time.perf_counter()
    strict = ["--strict"] if STRICT else []
    out = subprocess.run(["ruby", str(REFEREE), "replay", *strict, *([str(path)] * (n + 1))],
                         capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.startswith("{")]
    if len(lines) != n + 1 or any("ms" not in x for x in lines):
        raise RuntimeError(f"referee failed on {path}: {out.stderr[-500:]}")
    return [float(x["ms"]) for x in lines], lines[-1], wall


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def process_cpu(run: Callable[[Path, int], Any], path: Path, n: int) -> float:
    """CPU ms of one warm load (and JSON parse) on a side whose loads run in a process of their
    own (`site`, `ours_process`): a process loading the file n + 1 times minus one loading it
    once, over n (the better of two tries)."""
    best = float("inf")
    for _ in range(2):
        t0 = _child_cpu()
        run(path, 0)
        t1 = _child_cpu()
        run(path, n)
        t2 = _child_cpu()
        best = min(best, ((t2 - t1) - (t1 - t0)) / n * 1000)
    return best


def ours_cpu(text: str, n: int) -> float:
    load(json.loads(text))
    times = []
    for _ in range(n):
        if FRESH:
            forget_boards()
        t0 = time.process_time()
        load(json.loads(text))
        times.append((time.process_time() - t0) * 1000)
    return statistics.median(times)


def ours_process(path: Path, n: int) -> tuple[list[float], dict[str, Any]]:
    """Ours as the site's side is timed: a process of its own loading the file n + 1 times
    (its first load, cold, given apart by the caller); (ms of each load, the last result)."""
    flags = [*(["--fresh"] if FRESH else []), *(["--strict"] if STRICT else [])]
    out = subprocess.run([sys.executable, __file__, "--child", str(n + 1), *flags, str(path)],
                         capture_output=True, text=True, check=False)
    lines = [json.loads(x) for x in out.stdout.splitlines() if x.startswith("{")]
    if len(lines) != n + 1:
        raise RuntimeError(f"our load failed on {path}: {out.stderr[-500:]}")
    return [float(x["ms"]) for x in lines], lines[-1]["result"]


def child(path: Path, count: int) -> None:
    """--child: load the file `count` times, one JSON line each (ms, result), as the referee's
    replay prints its loads."""
    text = path.read_text()
    for _ in range(count):
        data = json.loads(text)  # (each load parses the file, as the referee's does: not timed)
        if FRESH:
            forget_boards()
        t0 = time.perf_counter()
        game = load(data)
        ms = (time.perf_counter() - t0) * 1000
        raw = getattr(game, "raw_player_ids", {})
        result = {str(raw.get(k, k)): v for k, v in game.result().items()}
        print(json.dumps({"ms": ms, "result": result}), flush=True)


def ours(data: dict[str, Any], n: int) -> tuple[list[float], dict[str, Any]]:
    game = load(data)
    times = []
    for _ in range(n):
        if FRESH:
            forget_boards()
        t0 = time.perf_counter()
        load(data)
        times.append((time.perf_counter() - t0) * 1000)
    raw = getattr(game, "raw_player_ids", {})
    result = {str(raw.get(k, k)): v for k, v in game.result().items()}
    return times, result


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=7, help="timed loads per side and fixture")
    ap.add_argument("--cpu", action="store_true", help="also compare CPU time per load")
    ap.add_argument("--fresh", action="store_true",
                    help="forget the boards seen before each of our loads (engine caches)")
    ap.add_argument("--strict", action="store_true",
                    help="a foreign file imported: every check on both sides (site --strict)")
    ap.add_argument("--rounds", type=int, default=1,
                    help="site then ours R times a fixture (medians over all the rounds' loads)")
    ap.add_argument("--in-process", action="store_true",
                    help="time ours in this process (warm-up load, then n) instead of a "
                         "process of its own per round like the site's")
    ap.add_argument("--child", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("fixtures", nargs="*")
    args = ap.parse_args()
    global FRESH, STRICT
    FRESH, STRICT = args.fresh, args.strict
    if args.child:
        child(Path(args.fixtures[0]), args.child)
        return 0
    if not REFEREE.is_file():
        print(f"{REFEREE} is absent", file=sys.stderr)
        return 2
    paths = ([SHARED / "fixtures" / f for f in args.fixtures] if args.fixtures
             else sorted((SHARED / "fixtures").glob("*/*.json")))
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"n = {args.n} per side and round, {args.rounds} round(s)"
          f"{'; ours with fresh board caches' if FRESH else ''}; "
          f"{'a foreign file imported, every check on both sides' if STRICT else 'a stored game loaded, lenient on both sides'}\n")
    cpu_head = " site CPU ms | ours CPU ms | CPU ratio |" if args.cpu else ""
    print("| fixture | actions | site cold ms | site median ms | ours cold ms | ours median ms "
          f"| ratio | ruby process s | results agree |{cpu_head}")
    print("|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if args.cpu else ""))
    cpu_ratios = []
    ratios = []
    tot_site = tot_ours = 0.0
    for path in paths:
        data = json.loads(path.read_text())
        # each round: the site's process (its first, cold, load given apart), then ours; a
        # spell of the machine's noise then falls on both sides of a round alike
        s_ms, o_ms, colds, o_colds, wall = [], [], [], [], 0.0
        for _ in range(args.rounds):
            loads, answer, took = site(path, args.n)
            colds.append(loads[0])
            s_ms += loads[1:]
            wall += took
            if args.in_process:
                o_loads, result = ours(data, args.n)
            else:
                o_all, result = ours_process(path, args.n)
                o_colds.append(o_all[0])
                o_loads = o_all[1:]
            o_ms += o_loads
        s_med, o_med = statistics.median(s_ms), statistics.median(o_ms)
        ratios.append(s_med / o_med)
        tot_site += s_med
        tot_ours += o_med
        agree = {str(k): v for k, v in (answer.get("result") or {}).items()} == result
        cpu = ""
        if args.cpu:
            cpus = [(process_cpu(site, path, args.n),
                     ours_cpu(path.read_text(), args.n) if args.in_process
                     else process_cpu(ours_process, path, args.n))
                    for _ in range(args.rounds)]
            s_cpu = statistics.median(c[0] for c in cpus)
            o_cpu = statistics.median(c[1] for c in cpus)
            cpu_ratios.append(s_cpu / o_cpu)
            cpu = f" {s_cpu:.0f} | {o_cpu:.0f} | {s_cpu / o_cpu:.1f}× |"
        print(f"| {path.parent.name}/{path.name} | {len(data['actions'])} "
              f"| {statistics.median(colds):.0f} | {s_med:.1f} "
              f"| {f'{statistics.median(o_colds):.0f}' if o_colds else '-'} | {o_med:.1f} "
              f"| {s_med / o_med:.1f}× "
              f"| {wall / args.rounds:.1f} | {agree} |{cpu}")
    print(f"\nall fixtures: site {tot_site:.0f} ms, ours {tot_ours:.0f} ms, "
          f"{tot_site / tot_ours:.1f}× in total; lowest ratio {min(ratios):.1f}×; "
          f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if cpu_ratios:
        print(f"CPU ratios: lowest {min(cpu_ratios):.1f}×, median {statistics.median(cpu_ratios):.1f}×")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
