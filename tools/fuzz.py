"""The full fuzz of issue 12: random and malformed actions per title from start, mid-game and
late positions (fixtures and random play), and command lines / slash-option values through the
command layer. Prints the figures; exits 1 on any exception other than EngineError or any
refusal that changed the state or the log.

    python tools/fuzz.py [--per-title 10000] [--commands 2000] [--seed 1] [--titles 18MS,1870]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.bot._fuzz_commands import fuzz_commands  # noqa: E402
from tests.engine._fuzz import TITLES, fuzz_title  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--per-title", type=int, default=10_000)
    ap.add_argument("--commands", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--titles", default=",".join(TITLES))
    args = ap.parse_args()
    logging.disable(logging.CRITICAL)
    bad = 0
    for title in [t for t in args.titles.split(",") if t]:
        t0 = time.time()
        tally = fuzz_title(title, args.per_title, seed=args.seed)
        print(f"{title}: {tally.applied} actions, {tally.accepted} accepted, {tally.refused} "
              f"refused (EngineError), {len(tally.faults)} other exceptions, {len(tally.torn)} "
              f"refusals that changed state or log ({time.time() - t0:.0f} s)", flush=True)
        print("  top refusal rules: " + ", ".join(f"{r} {n}" for r, n in tally.rules.most_common(8)))
        for line in (tally.faults + tally.torn)[:20]:
            print("  ", line)
        bad += len(tally.faults) + len(tally.torn)
    if args.commands:
        t0 = time.time()
        with tempfile.TemporaryDirectory() as tmp:
            ct = asyncio.run(fuzz_commands(Path(tmp), args.commands, seed=args.seed))
        print(f"commands: {ct.lines} command lines, {ct.options} slash-option sets, "
              f"{len(ct.faults)} faults ({time.time() - t0:.0f} s)")
        for line in ct.faults[:20]:
            print("  ", line)
        bad += len(ct.faults) + len(ct.torn)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
