"""Two bot processes on one PostgreSQL database: lost, doubled and reordered moves, throughput
and latency.

    python bench/shared_bench.py --games 1000 --moves 13 --contended 0.25

A real PostgreSQL server is started in a temporary folder (tests/pg.py). The parent creates
--games active 18MS games (Alice, Bob, Cy seated), then starts two worker processes; each is a
bot process of its own (its own Store with its connection pools, Service with its cache of
replayed games, and the command layer the Discord cogs call, tests/bot/shared_db.py), real
engine, no images. Every game plays the scripted opening of tests/bot/conftest.py (private
draft and first stock round), --moves of it:

- a quiet game alternates between the processes: move k goes to process k % 2, which first
  waits until it sees move k-1 stored (as a player waits to see the previous move);
- a contended game (--contended, a share of the games) gets every move from BOTH processes at
  the same moment, half of them with different interaction ids (two players' clients), half
  with the same one (one interaction delivered twice): exactly one may be applied.

Afterwards the parent checks every game's stored log against the script: a move missing is
lost, a move stored twice (or two replies saying "applied" for one move) is doubled, a log out
of the script's order is reordered. Latency is each command's time from the call to its reply
(the wait for the previous move excluded); throughput is moves stored per second of the
measured phase.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.store import Store  # noqa: E402
from tests.bot.conftest import DRAFT, STOCK_ROUND  # noqa: E402
from tests.bot.shared_db import ALICE, BOB, CY, GUILD, SEATS, Proc  # noqa: E402
from tests.pg import PgServer, why_unavailable  # noqa: E402

OPENING = DRAFT + STOCK_ROUND
CHANNEL0 = 100_000
TYPES = {"buy": "buy_shares"}  # the engine's action type of a command, where they differ
POLL = 1.0  # seconds between looks at a game's stored log length while waiting for a move


def contended(g: int, share: float) -> bool:
    return share > 0 and g % max(1, round(1 / share)) == 0


async def setup(url: str, games: int) -> list[int]:
    store = await Store.open(url)
    ids = []
    seats = [(w.user_id, w.name, str(w.user_id), i) for i, w in enumerate((ALICE, BOB, CY))]
    for g in range(games):
        ids.append(await store.create_game(
            guild_id=GUILD, channel_id=CHANNEL0 + g, thread_id=None, title="18MS", options=[],
            seed=g + 1, creator_id=ALICE.user_id, creator_name=ALICE.name, interaction_id=None,
            status="active", players=seats))
    await store.close()
    return ids


async def worker(index: int, url: str, games: int, moves: int, share: float) -> None:
    proc = await Proc.open(url, f"w{index}")
    print("ready", flush=True)
    sys.stdin.readline()  # the parent starts both together
    results: list[dict[str, Any]] = []
    started = time.perf_counter()

    async def wait_for(gid: int, length: int) -> None:
        while (await proc.store.game_stamp(gid))[1] < length:
            await asyncio.sleep(POLL)

    async def one_game(g: int, gid: int) -> None:
        channel = CHANNEL0 + g
        both = contended(g, share)
        for k in range(moves):
            if not both and k % 2 != index:
                continue
            await wait_for(gid, k)
            who, name, options = OPENING[k]
            iid = f"g{g}-m{k}" if both and (g // 2) % 2 == 0 else None  # same id in both
            t0 = time.perf_counter()
            reply = await proc.run(SEATS[who], channel, name, interaction_id=iid, **options)
            dt = time.perf_counter() - t0
            results.append({"g": g, "k": k, "applied": not reply.ephemeral, "ms": dt * 1000,
                            "fault": "went wrong" in reply.text, "text": reply.text[:80]})

    gids = list(range(1, games + 1))
    await asyncio.gather(*(one_game(g, gids[g]) for g in range(games)))
    wall = time.perf_counter() - started
    print(json.dumps({"worker": index, "wall": wall, "results": results}), flush=True)
    await proc.close()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def check(url: str, games: int, moves: int) -> dict[str, int]:
    store = await Store.open(url)
    lost = doubled = reordered = 0
    for gid in range(1, games + 1):
        log = await store.actions(gid)
        expected = [(SEATS[w].user_id, TYPES.get(n, n)) for w, n, _o in OPENING[:moves]]
        got = [(int(r.user_id or 0), r.action["type"]) for r in log]
        if [r.seq for r in log] != list(range(1, len(log) + 1)):
            reordered += 1
        lost += max(0, len(expected) - len(got))
        doubled += max(0, len(got) - len(expected))
        if got[:len(expected)] != expected[:len(got)]:
            reordered += 1
    await store.close()
    return {"lost": lost, "doubled": doubled, "reordered": reordered}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=len(OPENING))
    ap.add_argument("--contended", type=float, default=0.25)
    ap.add_argument("--worker", type=int)
    ap.add_argument("--url")
    args = ap.parse_args()
    if args.worker is not None:
        asyncio.run(worker(args.worker, args.url, args.games, args.moves, args.contended))
        return 0
    why = why_unavailable()
    if why:
        print(f"cannot run: {why}", file=sys.stderr)
        return 1
    server = PgServer().start()
    try:
        url = server.create_database("bench")
        t0 = time.perf_counter()
        asyncio.run(setup(url, args.games))
        print(f"setup: {args.games} active games in {time.perf_counter() - t0:.1f} s")
        cmd = [sys.executable, __file__, "--url", url, "--games", str(args.games),
               "--moves", str(args.moves), "--contended", str(args.contended)]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        procs = [subprocess.Popen([*cmd, "--worker", str(i)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, env=env) for i in (0, 1)]
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "ready"
        t0 = time.perf_counter()
        for p in procs:
            assert p.stdin is not None
            p.stdin.write("go\n")
            p.stdin.flush()
        outs = [json.loads(p.communicate()[0].strip().splitlines()[-1]) for p in procs]
        wall = time.perf_counter() - t0
        results = [r for o in outs for r in o["results"]]
        verdict = asyncio.run(check(url, args.games, args.moves))
    finally:
        server.stop()
    per_move: dict[tuple[int, int], int] = {}
    for r in results:
        per_move[(r["g"], r["k"])] = per_move.get((r["g"], r["k"]), 0) + int(r["applied"])
    doubled_replies = sum(1 for n in per_move.values() if n > 1)
    unapplied = sum(1 for n in per_move.values() if n == 0)
    stored = args.games * args.moves - verdict["lost"]
    ms = [r["ms"] for r in results]
    contended_ms = [r["ms"] for r in results if contended(r["g"], args.contended)]
    print(f"games {args.games}, moves per game {args.moves}, contended share "
          f"{args.contended}: {len(results)} commands from 2 processes")
    print(f"stored log: lost {verdict['lost']}, doubled {verdict['doubled']}, "
          f"out of order {verdict['reordered']} games")
    print(f"replies: moves applied twice {doubled_replies}, moves applied by neither "
          f"{unapplied}, faults {sum(r['fault'] for r in results)}, refused duplicates "
          f"{sum(1 for r in results if not r['applied'])}")
    print(f"throughput: {stored} moves stored in {wall:.1f} s = {stored / wall:.0f} moves/s")
    print(f"latency per command: p50 {pct(ms, 0.5):.0f} ms, p95 {pct(ms, 0.95):.0f} ms, "
          f"max {max(ms):.0f} ms; contended games p95 {pct(contended_ms, 0.95):.0f} ms")
    bad = verdict["lost"] + verdict["doubled"] + verdict["reordered"] + doubled_replies + unapplied
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
