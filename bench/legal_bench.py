"""Time the legal answer (`Game.legal()`, what the bot asks for every autocomplete and check)
at every position of real games, the first ask and a second ask of the same position.

Usage: .venv/bin/python bench/legal_bench.py [FIXTURE...] [--from-id N]

Default: the longest 1870 game (1870_game_end_bank.json), whose late lay answers (a network
of junctions, hundreds of candidate upgrades each checked by the reach walk) are the slowest
the engine gives. Prints median, p95 and max of each, in CPU seconds of this process.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FIXTURES = ROOT.parent / "shared" / "fixtures"


def main() -> None:
    from engine.io.export18xx import import_game

    ap = argparse.ArgumentParser()
    ap.add_argument("fixtures", nargs="*", default=["1870/1870_game_end_bank.json"])
    ap.add_argument("--from-id", type=int, default=0)
    args = ap.parse_args()
    for name in args.fixtures:
        data = json.loads((FIXTURES / name).read_text())
        first: list[tuple[float, int, str]] = []
        again: list[float] = []

        def ask(game: Any, act: Any, first: list[tuple[float, int, str]] = first,
                again: list[float] = again) -> None:
            if game.finished or (act.id or 0) < args.from_id:
                return
            t = time.process_time()
            lg = game.legal()
            first.append((time.process_time() - t, act.id, ",".join(lg.kinds)))
            t = time.process_time()
            game.legal()
            again.append(time.process_time() - t)

        import_game(data, before=ask)
        times = sorted(x[0] for x in first)
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"{name}: {len(times)} positions; first ask median {statistics.median(times) * 1000:.1f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms; second ask max "
              f"{max(again) * 1000:.2f} ms")
        for sec, aid, kinds in sorted(first, reverse=True)[:3]:
            print(f"  slowest: before action {aid} ({kinds}) {sec:.2f} s")


if __name__ == "__main__":
    main()
