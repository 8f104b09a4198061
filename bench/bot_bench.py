"""Bot latency: slash command → final reply (with images), through the fake Discord.

    python bench/bot_bench.py --games 50 --moves 60

Two measurements, both through the real discord.py client against tests/bot/fake_discord.py:
1. one game at a time: each command's time from dispatch to the bot's final answer;
2. N games active at once: one move in every game dispatched together, wave after wave.
Real engine, real renderer, real SQLite file: each game re-plays the first --moves actions in
effect of the 18MS fixture ../shared/fixtures/18MS/14375.json as slash commands by the right
users (tests/bot/replay.py maps actions to commands).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.service import EnginePort, RealEngine, RealRenderer, Renderer  # noqa: E402
from tests.bot.conftest import FIXTURES, Env  # noqa: E402
from tests.bot.fake_discord import User  # noqa: E402

FIXTURE = FIXTURES / "18MS" / "14375.json"

Step = tuple[str, str, dict[str, Any]]  # (player key, command, options)


def real_script(moves: int) -> tuple[list[str], list[Step]]:
    """The fixture's moves in effect (undone moves and undo/redo left out), as commands."""
    from tests.bot.replay import command_for, effective_log

    data = json.loads(FIXTURE.read_text())
    log = effective_log(data)
    players = [str(p["id"]) for p in data["players"]]
    steps: list[Step] = []
    for a in log[:moves]:
        name, options = command_for(a)
        who = str(a["entity"]) if a.get("entity_type") == "player" else ""
        steps.append((who, name, options))
    return players, steps


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _play(
    env: Env, thread: int, users: dict[str, User], step: Step, gid: int
) -> tuple[float, int]:
    who, name, options = step
    if who:
        user = users[who]
    else:
        live = await env.service._live(gid)
        uid = live.game.acting_players()[0]
        user = next(u for u in users.values() if str(u.id) == uid)
    t0 = time.perf_counter()
    sent = await env.fake.invoke(user, thread, name, timeout=60, **options)
    elapsed = time.perf_counter() - t0
    if sent.ephemeral:
        raise RuntimeError(f"/{name} {options} refused: {sent.content}")
    return elapsed, sent.interaction_id or 0


def _image_times(env: Env, iid: int) -> list[float]:
    """Seconds from dispatch to each edit of the reply that brought images (they are edited in
    after the first reply)."""
    p = env.fake.pending.get(iid)
    if p is None:
        return []
    return [r.at - p.dispatched for r in p.replies if r.kind == "edit" and r.files]


async def bench(
    engine: EnginePort, renderer: Renderer, script: Any, games: int, moves: int
) -> dict[str, Any]:
    players, steps = script(moves)
    out: dict[str, Any] = {"steps": len(steps)}
    with tempfile.TemporaryDirectory() as tmp:
        env = Env(Path(tmp), engine, renderer)
        await env.start()
        try:
            # 1. one game alone
            users = {p: User(7000 + i, f"P{p}") for i, p in enumerate(players)}
            thread = await env.new_game(*users.values())
            single: list[float] = []
            images: list[float] = []  # one game: dispatch to its images, each drawn alone
            for step in steps:
                t, iid = await _play(env, thread, users, step, 1)
                single.append(t)
                await env.service.images.idle()
                await env.settle()
                times = _image_times(env, iid)
                if times:
                    images.append(times[-1])
            out["single"] = (single, images)
            # 2. many games at once
            threads = []
            all_users = []
            for g in range(games):
                us = {p: User(100000 + g * 10 + i, f"G{g}P{i}") for i, p in enumerate(players)}
                threads.append(await env.new_game(*us.values()))
                all_users.append(us)
            many: list[float] = []
            iids: list[int] = []
            t0 = time.perf_counter()
            for step in steps:
                results = await asyncio.gather(
                    *(_play(env, threads[g], all_users[g], step, g + 2) for g in range(games))
                )
                many.extend(t for t, _n in results)
                iids.extend(i for _t, i in results)
            out["many"] = (many, time.perf_counter() - t0)
            await env.service.images.idle()
            await env.settle()
            many_images = [ts[-1] for ts in (_image_times(env, i) for i in iids) if ts]
            out["many_images"] = many_images
            if env.errors or env.fake.unknown:
                raise RuntimeError(f"errors {env.errors} unknown routes {env.fake.unknown}")
        finally:
            await env.stop()
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    if not FIXTURE.exists():
        print(f"{FIXTURE} is absent: the bench re-plays that recorded game", file=sys.stderr)
        return 2
    engine: EnginePort = RealEngine()
    renderer: Renderer = RealRenderer()
    script = real_script
    result = asyncio.run(bench(engine, renderer, script, args.games, args.moves))
    single, images = result["single"]
    many, wall = result["many"]
    ms = 1000
    print(f"real engine and renderer; {result['steps']} commands per game")
    print(
        f"one game:  n={len(single)} median {statistics.median(single) * ms:.1f} ms, "
        f"p95 {_pct(single, 0.95) * ms:.1f} ms, max {max(single) * ms:.1f} ms (first reply)"
    )
    if images:
        print(f"one game:  {len(images)} replies got images: median "
              f"{statistics.median(images) * ms:.1f} ms, p95 {_pct(images, 0.95) * ms:.1f} ms, "
              f"max {max(images) * ms:.1f} ms after dispatch")
    print(
        f"{args.games} games at once: n={len(many)} median {statistics.median(many) * ms:.1f} ms, "
        f"p95 {_pct(many, 0.95) * ms:.1f} ms, max {max(many) * ms:.1f} ms; "
        f"{len(many) / wall:.0f} commands/s (first reply)"
    )
    shown = result["many_images"]
    if shown:
        print(f"{args.games} games at once: {len(shown)} replies got images: median "
              f"{statistics.median(shown) * ms:.0f} ms, p95 {_pct(shown, 0.95) * ms:.0f} ms, "
              f"max {max(shown) * ms:.0f} ms after dispatch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
