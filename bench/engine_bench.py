"""Replay time and memory of the real games in ../shared/fixtures.

    python bench/engine_bench.py [--runs 9] [TITLE ...]

For each fixture: the median (and min) in-process time of `import_game` (parse the export,
resolve undo/redo, replay every action) over several runs, and the memory one loaded game
holds (tracemalloc: bytes still allocated after loading, with the title data already cached,
so the figure is the per-game cost).
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.io.export18xx import import_game  # noqa: E402


def main(argv: list[str]) -> int:
    runs = 9
    if "--runs" in argv:
        runs = int(argv[argv.index("--runs") + 1])
    skip = {argv.index("--runs") + 1} if "--runs" in argv else set()
    titles = [a for i, a in enumerate(argv) if i and i not in skip and not a.startswith("--")]
    titles = titles or ["18MS", "1870", "18MEX"]
    print("| fixture | actions | median ms | min ms | ms/action | memory (KB) |")
    print("|---|---|---|---|---|---|")
    for title in titles:
        for path in sorted((SHARED / "fixtures" / title).glob("*.json")):
            data = json.loads(path.read_text())
            try:
                game = import_game(data)  # warm-up: title data cached, code paths hot
            except (EngineError, KeyError, ModuleNotFoundError) as err:
                print(f"| {title}/{path.name} | - | cannot replay: {err} | | | |")
                continue
            times = []
            for _ in range(runs):
                t0 = time.perf_counter()
                import_game(data)
                times.append((time.perf_counter() - t0) * 1000)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            kept = import_game(data)
            gc.collect()
            after = tracemalloc.get_traced_memory()[0]
            tracemalloc.stop()
            n = game.applied_count
            med = statistics.median(times)
            print(f"| {title}/{path.name} | {n} | {med:.1f} | {min(times):.1f} | {med / max(n, 1):.3f} "
                  f"| {(after - before) / 1024:.0f} |")
            del kept
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
