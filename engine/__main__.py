"""Command line.

    python -m engine replay PATH [--json]        replay an export, print the scores
    python -m engine replay PATH --states        apply one action at a time (the live path), one
                                                 JSON line of state after each (lockstep contract)
    python -m engine routes PATH --json          best routes at each run of an export
    python -m engine random TITLE --seed N --players K [--option O]... [--max-actions M]
                            [--programs P] --out FILE
                                                 a game of random legal moves, as an export
"""

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
    rp.add_argument("--states", action="store_true",
                    help="apply each action as in live play and print one JSON state line after it")
    ro = sub.add_parser("routes", help="best routes at each run_routes of an export")
    ro.add_argument("path")
    ro.add_argument("--json", action="store_true")
    rn = sub.add_parser("random", help="play a game of random legal moves and export it")
    rn.add_argument("title", help="the title (with --from: must be the file's)")
    rn.add_argument("--seed", type=int, required=True)
    rn.add_argument("--players", type=int, default=0,
                    help="player count (required unless --from)")
    rn.add_argument("--from", dest="start", metavar="EXPORT",
                    help="go on from a position of this 18xx.games export (its players, options"
                         " and log up to --at) instead of a new game")
    rn.add_argument("--at", type=int, default=None,
                    help="with --from: the export's last action id kept (default: all)")
    rn.add_argument("--option", action="append", default=[])
    rn.add_argument("--max-actions", type=int, default=20000)
    rn.add_argument("--style", choices=("default", "steady"), default="default",
                    help="move weights: steady buys fewer trains, so more games end with the bank")
    rn.add_argument("--programs", type=float, default=0.0,
                    help="chance per stock-round move that a player gives a standing order")
    rn.add_argument("--out", required=True)
    args = ap.parse_args(argv)

    if args.cmd == "random":
        from engine.io.export18xx import export_game
        from engine.randomplay import random_game

        try:
            if args.start and (args.players or args.option):
                print("error: --from takes the players and options of its export",
                      file=sys.stderr)
                return 2
            if args.start:
                from engine.io.export18xx import import_game
                from engine.randomplay import play_on

                game = import_game(json.loads(Path(args.start).read_text(encoding="utf-8")),
                                   upto=args.at)
                if game.title_name != args.title:
                    print(f"error: {args.start} is a {game.title_name} game", file=sys.stderr)
                    return 2
                game = play_on(game, seed=args.seed, max_actions=args.max_actions,
                               style=args.style, programs=args.programs)
            elif args.players < 1:
                print("error: --players is required for a new game", file=sys.stderr)
                return 2
            else:
                game = random_game(args.title, seed=args.seed, players=args.players,
                                   options=args.option, max_actions=args.max_actions,
                                   style=args.style, programs=args.programs)
        except EngineError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        out = export_game(game, game_id=f"random-{args.title}-{args.seed}")
        Path(args.out).write_text(json.dumps(out), encoding="utf-8")
        print(f"{args.title} seed {args.seed}: {len(game.log)} actions, finished={game.finished}"
              f" ({game.state.end_reason}), phase {game.state.phase}")
        return 0

    from engine.io.export18xx import end_state, import_game

    data = json.loads(Path(args.path).read_text(encoding="utf-8"))
    if args.cmd == "routes":
        from engine.io.routes_cli import run_routes_cli

        return run_routes_cli(data, as_json=args.json)
    if args.states:
        from engine.io.states_cli import print_states

        return print_states(data)
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
