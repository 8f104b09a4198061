"""The live path on a long game: a refused move, an undo and a redo, and imports full of undos.

    python bench/live_bench.py [--fixture 1870/1870_game_end_bank.json] [-n 30] [--imports]

A game is loaded as the bot loads a stored one (`Game` + `load_log`, a live game, not an
import) at several late positions of the fixture: just before the last logged `lay_tile`,
`run_routes`, `buy_train`, `buy_shares` and `pass`. At each position it times

- refusals: moves the rules refuse after their checks start (a `pass` where none is allowed,
  a tile laid with a rotation the legal answer does not offer, a train bought for $1, a bid in
  an operating round...), each kind N times; the first refusal after the load is given apart;
- an undo then a redo of the last move, N pairs;
- a chain of 8 undos, then 8 redos (each step timed).

`--imports` times `import_game` of exports made of the fixture followed by undo/redo actions up
to the import limit (20,000 actions): only undos, undo/redo pairs, undo-to-the-start/redo
pairs; and an export of 100,000 actions (refused by the limit).

Medians in ms (time.perf_counter, garbage collector on, one process).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from engine import EngineError, Game  # noqa: E402
from engine.io.export18xx import import_game, start_from_export  # noqa: E402


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def _load(data: dict[str, Any], before_id: int) -> Game:
    imp, actions = start_from_export(data)
    game = Game(imp.title_name, imp.players, imp.options)
    game.load_log([a for a in actions if a["id"] < before_id])
    return game


def _refusals(game: Game) -> list[dict[str, Any]]:
    """Moves the acting entity may not make here (checked below: each must be refused)."""
    lg = game.legal()
    eid, etype = lg.entity, lg.entity_type
    out: list[dict[str, Any]] = []
    if "pass" not in lg.kinds:
        out.append({"type": "pass"})
    for hex_name, options in lg.tiles.items():
        for copy_id, rots in options:
            bad = [r for r in range(6) if r not in rots]
            if bad:
                out.append({"type": "lay_tile", "hex": hex_name, "tile": copy_id, "rotation": bad[0]})
                break
        if len(out) and out[-1]["type"] == "lay_tile":
            break
    depot = [t for t in game.state.trains if t.owner is None and not t.gone]
    if depot and etype == "corporation":
        out.append({"type": "buy_train", "train": depot[0].id, "price": 1})
    company = next(iter(game.state.companies))
    out.append({"type": "bid", "company": company, "price": 1})
    corp = next(iter(game.state.corporations.values()))
    out.append({"type": "buy_shares", "shares": [corp.certs[-1].id], "percent": 10})
    return [{**a, "entity": eid, "entity_type": etype} for a in out]


def _undo(game: Game, kind: str) -> float:
    who = game.acting_players() or (game.players[0][0],)
    t0 = time.perf_counter()
    game.apply({"type": kind, "entity": who[0], "entity_type": "player"})
    return _ms(t0)


def live(data: dict[str, Any], n: int) -> None:
    acts = data["actions"]
    last = {}
    for a in acts:
        last[a["type"]] = a["id"]
    positions = [(k, last[k]) for k in ("lay_tile", "run_routes", "buy_train", "buy_shares", "pass")
                 if k in last]
    all_ref: list[float] = []
    all_undo: list[float] = []
    all_redo: list[float] = []
    print("| position | moves in effect | first refusal ms | refusal median ms | undo median ms "
          "| redo median ms | 8 undos in a row, median ms | 8 redos, median ms |")
    print("|---|---|---|---|---|---|---|---|")
    for kind, pid in positions:
        t0 = time.perf_counter()
        game = _load(data, pid)
        load_ms = _ms(t0)
        moves = len([a for a in game._applied])
        cands = _refusals(game)
        first = None
        times: list[float] = []
        rules: dict[str, str] = {}
        for rep in range(n + 1):
            for c in cands:
                t0 = time.perf_counter()
                try:
                    game.apply(c)
                except EngineError as err:
                    dt = _ms(t0)
                    rules[c["type"]] = err.rule or ""
                else:  # accepted after all: take it back, leave it out
                    game.apply({"type": "undo", "entity": game.players[0][0], "entity_type": "player"})
                    cands = [x for x in cands if x is not c]
                    continue
                if first is None:
                    first = dt
                elif rep:
                    times.append(dt)
        undo: list[float] = []
        redo: list[float] = []
        for _ in range(n):
            undo.append(_undo(game, "undo"))
            redo.append(_undo(game, "redo"))
        chain_u = [_undo(game, "undo") for _ in range(8)]
        chain_r = [_undo(game, "redo") for _ in range(8)]
        all_ref += times
        all_undo += undo
        all_redo += redo
        print(f"| before {pid} ({kind}; load {load_ms:.0f} ms; refused: "
              f"{', '.join(f'{k} [{v}]' for k, v in rules.items())}) | {moves} | {first:.2f} "
              f"| {statistics.median(times):.2f} | {statistics.median(undo):.2f} "
              f"| {statistics.median(redo):.2f} | {statistics.median(chain_u):.2f} "
              f"| {statistics.median(chain_r):.2f} |")
    print(f"\nall positions: refusal median {statistics.median(all_ref):.2f} ms (max "
          f"{max(all_ref):.2f}), undo median {statistics.median(all_undo):.2f} ms (max "
          f"{max(all_undo):.2f}), redo median {statistics.median(all_redo):.2f} ms (max "
          f"{max(all_redo):.2f})")


def imports(data: dict[str, Any]) -> None:
    base = data["actions"]
    top = base[-1]["id"]
    who = data["players"][0].get("id", data["players"][0].get("name"))

    def export(kinds: list[tuple[str, int | None]]) -> dict[str, Any]:
        extra = []
        for i, (kind, target) in enumerate(kinds):
            a: dict[str, Any] = {"type": kind, "entity": who, "entity_type": "player", "id": top + 1 + i}
            if target is not None:
                a["action_id"] = target
            extra.append(a)
        return {**data, "actions": base + extra}

    room = 20_000 - len(base)
    cases = [
        ("only undos", export([("undo", None)] * room)),
        ("undo/redo pairs", export([("undo", None), ("redo", None)] * (room // 2))),
        ("undo to the start/redo pairs", export([("undo", 0), ("redo", None)] * (room // 2))),
    ]
    print("| import | actions | undos | ms | moves in effect |")
    print("|---|---|---|---|---|")
    for name, exp in cases:
        t0 = time.perf_counter()
        game = import_game(exp)
        dt = _ms(t0)
        undos = sum(a["type"] == "undo" for a in exp["actions"])
        print(f"| {name} | {len(exp['actions'])} | {undos} | {dt:.0f} | {game.applied_count} |")
    big = export([("undo", None)] * 100_000)
    t0 = time.perf_counter()
    try:
        import_game(big)
        verdict = "accepted"
    except EngineError as err:
        verdict = f"refused ({err.rule})"
    print(f"| 100,000 undos | {len(big['actions'])} | 100000 | {_ms(t0):.1f} | {verdict} |")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixture", default="1870/1870_game_end_bank.json")
    ap.add_argument("-n", type=int, default=30)
    ap.add_argument("--imports", action="store_true")
    ap.add_argument("--no-live", action="store_true")
    args = ap.parse_args()
    data = json.loads((SHARED / "fixtures" / args.fixture).read_text())
    if not args.no_live:
        live(data, args.n)
    if args.imports:
        print()
        imports(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
