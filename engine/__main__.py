"""Command line: `python -m engine replay PATH [--json]`, `python -m engine routes PATH --json`."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from engine.errors import EngineError


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m engine")
    sub = ap.add_subparsers(dest="cmd", required=True)
    rp = sub.add_parser("replay", help="replay an 18xx.games export and print the result")
    rp.add_argument("path")
    rp.add_argument("--json", action="store_true", help="end with one JSON line")
    ro = sub.add_parser("routes", help="best routes at each run_routes of an export")
    ro.add_argument("path")
    ro.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)

    from engine.io.export18xx import end_state, import_game

    data = json.loads(Path(args.path).read_text(encoding="utf-8"))
    if args.cmd == "routes":
        from engine.io.routes_cli import run_routes_cli

        return run_routes_cli(data, as_json=args.json)
    t0 = time.perf_counter()
    try:
        game = import_game(data)
    except EngineError as err:
        print(f"action {err.action_id}: rejected: {err}", file=sys.stderr)
        if args.json:
            print(json.dumps({"error": str(err), "action_id": err.action_id, "rule": err.rule}))
        return 1
    ms = (time.perf_counter() - t0) * 1000
    result = game.result()
    out = {
        "title": game.title_name,
        "actions_applied": game.applied_count,
        "finished": game.finished,
        "result": result,
        "warnings": game.warnings,
        "end_state": end_state(game),
        "ms": round(ms, 1),
    }
    if not args.json:
        print(f"{game.title_name}: {out['actions_applied']} actions, finished={game.finished}, {ms:.1f} ms")
        for pid, v in sorted(result.items(), key=lambda kv: -kv[1]):
            print(f"  {game.player_name(pid)} ({pid}): {v}")
        for w in game.warnings:
            print(f"  warning: {w}")
    else:
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
