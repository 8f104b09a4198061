"""A move's work through the real discord.py client, counted in instructions rather than timed
(the timed benches cannot tell a few per cent apart on a shared machine).

    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \\
        python bench/move_count.py --games 20 --waves 2      # then --waves 6: the difference
    python bench/move_count.py --games 20 --waves 6          # (without valgrind: it runs)

One process: the fake Discord (tests/bot/fake_discord.py) and the bot (RailBot, its engine
threads, a real SQLite file; no images drawn), as the end-to-end tests run them. `--games`
games of 18MS are set up, then `--waves` waves: one move in every game sent at once (the moves
of ../shared/fixtures/18MS/14375.json in order, as slash commands), each wave once the one
before is answered. A run with 6 waves minus one with 2, divided by 4 x games, is the
instructions of one move (the bot's and the fake's: the fake is the same code in both trees
compared). The answer is not deferred (Discord's 3 s would pass under valgrind), the bot's
clock is the tests' fake clock; run with PYTHONHASHSEED=0.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import bot.cogs._base as base  # noqa: E402
from bench.bot_bench import FIXTURE, _play, real_script  # noqa: E402
from bot.service import RealEngine, RealRenderer  # noqa: E402
from tests.bot.conftest import Env  # noqa: E402
from tests.bot.fake_discord import User  # noqa: E402


async def run(games: int, waves: int) -> int:
    base.DEFER_AFTER = 1e9  # under valgrind a move takes seconds: never deferred
    players, steps = real_script(waves)
    with tempfile.TemporaryDirectory() as tmp:
        env = Env(Path(tmp), RealEngine(), RealRenderer())
        await env.start()
        try:
            env.service.render_images = False
            threads, seats = [], []
            for g in range(games):
                us = {p: User(100000 + g * 10 + i, f"G{g}P{i}") for i, p in enumerate(players)}
                threads.append(await env.new_game(*us.values()))
                seats.append(us)
            for step in steps:
                await asyncio.gather(*(_play(env, threads[g], seats[g], step, g + 1)
                                       for g in range(games)))
                await env.settle()
            if env.errors or env.fake.unknown:
                raise RuntimeError(f"errors {env.errors} unknown routes {env.fake.unknown}")
        finally:
            await env.stop()
    return games * len(steps)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--waves", type=int, default=6)
    args = parser.parse_args()
    if not FIXTURE.exists():
        print(f"{FIXTURE} is absent: the bench re-plays that recorded game", file=sys.stderr)
        return 2
    moves = asyncio.run(run(args.games, args.waves))
    print(f"{moves} moves in {args.games} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
