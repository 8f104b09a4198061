"""Best-routes solver time on every real position, with boards from real replays.

    python bench/routes_replay_bench.py

Each fixture of ../shared/fixtures is replayed once; just before each of its run_routes
actions the solver is timed on the operating company (`engine.routes.api.best_routes_for`).
Prints median, p95 and max per title and overall, and the ten slowest positions.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from engine.io.routes_cli import positions  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> int:
    rows: list[tuple[float, str, str, int, str, bool]] = []
    for title in ("18MS", "1870", "18MEX"):
        for path in sorted((SHARED / "fixtures" / title).glob("*.json")):
            data = json.loads(path.read_text())
            try:
                found = positions(data)
            except Exception as err:  # noqa: BLE001 - report and go on
                print(f"{title}/{path.name}: cannot replay ({err})")
                continue
            for p in found:
                if "ms" in p:
                    rows.append((p["ms"], title, path.name, p["action_id"], str(p["entity"]), p["exact"]))
    print("| set | positions | median ms | p95 ms | max ms | all exact |")
    print("|---|---|---|---|---|---|")
    for name in ("all", "18MS", "1870", "18MEX"):
        ms = [r[0] for r in rows if name in ("all", r[1])]
        if ms:
            exact = all(r[5] for r in rows if name in ("all", r[1]))
            print(f"| {name} | {len(ms)} | {statistics.median(ms):.2f} | {pct(ms, 0.95):.2f} "
                  f"| {max(ms):.1f} | {exact} |")
    print("\nSlowest ten:\n")
    print("| ms | title | fixture | action | company |")
    print("|---|---|---|---|---|")
    for r in sorted(rows, reverse=True)[:10]:
        print(f"| {r[0]:.1f} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
