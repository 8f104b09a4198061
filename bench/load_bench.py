"""Many busy games at once, through the real discord.py client and the fake Discord.

    python bench/load_bench.py --games 200 --moves 80 [--import-undos 9000] [--render-processes N]

The fake Discord runs on its own thread and event loop, so the times it stamps (interaction
sent, first reply received, images edited in) do not wait for the bot's loop. The bot runs in
this process as in production: real engine on its threads, images in worker processes, a
real SQLite file. Every game re-plays the moves in effect of the 18MS game
../shared/fixtures/18MS/14375.json (through its first operating rounds) as slash commands
by the right users; one move in every game is sent at the same instant, wave after wave (the
next wave when every game has its first reply, while images may still be drawn).

`--import-undos N`: during the waves, one player imports a game of N undo/redo pairs; the
figures say whether the other games' replies stayed fast meanwhile.

Reported: first reply (the answer a player reads, with the ping) p50/p95/max; missed
deadlines (no callback of any kind within Discord's 3 s); images (edited into the reply)
p50/p95/max and how many replies were left to a newer move of the same game; the worst
event-loop lag of the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import RailBot  # noqa: E402
from bot.config import Config  # noqa: E402
from bot.service import Service  # noqa: E402
from bot.store import Store  # noqa: E402
from tests.bot.conftest import FIXTURES  # noqa: E402
from tests.bot.fake_discord import FakeDiscord, Pending, User  # noqa: E402

FIXTURE = FIXTURES / "18MS" / "14375.json"
T = TypeVar("T")


class FakeThread:
    """The fake Discord on a thread of its own, with its own event loop."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.fake: FakeDiscord = self.call(self._make())

    async def _make(self) -> FakeDiscord:
        fake = FakeDiscord()
        await fake.start()
        return fake

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))


def script(moves: int) -> tuple[list[str], list[tuple[str, str, dict[str, Any]]]]:
    """(export player ids, [(acting export player id, command, options)]) for the first
    `moves` moves in effect of the fixture."""
    from engine.game import Game
    from tests.bot.replay import command_for, effective_log

    data = json.loads(FIXTURE.read_text())
    log = effective_log(data)[:moves]
    players = [str(p["id"]) for p in data["players"]]
    ref = Game(data["title"], [(p, p) for p in players], [])
    steps = []
    for action in log:
        name, options = command_for(action)
        who = (str(action["entity"]) if action.get("entity_type") == "player"
               else ref.acting_players()[0])
        steps.append((who, name, options))
        ref.apply(action)
    return players, steps


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def new_game(ft: FakeThread, users: list[User]) -> int:
    fake = ft.fake
    before = {c for c, d in fake.channels.items() if d["type"] == 11}
    await ft.run(fake.invoke(users[0], fake.main_channel, "create", title="18MS", timeout=60))
    (thread,) = {c for c, d in fake.channels.items() if d["type"] == 11} - before
    for u in users[1:]:
        await ft.run(fake.invoke(u, thread, "join", timeout=60))
    seating = " ".join(f"<@{u.id}>" for u in users)
    sent = await ft.run(fake.invoke(users[0], thread, "start", seating=seating, timeout=60))
    assert "starts" in sent.content, sent.content
    return thread


def undo_file(pairs: int) -> dict[str, Any]:
    """The fixture's first moves, then `pairs` undo/redo pairs."""
    data = json.loads(FIXTURE.read_text())
    head = [a for a in data["actions"] if a["type"] != "message"][:10]
    actions = list(head)
    entity = head[-1]["entity"]
    for i in range(pairs):
        for kind in ("undo", "redo"):
            actions.append({"type": kind, "entity": entity, "entity_type": "player",
                            "id": len(actions) + 1, "created_at": 1_600_000_000 + i})
    for i, a in enumerate(actions):
        a["id"] = i + 1
    return {**data, "actions": actions, "result": {}}


async def bench(games: int, moves: int, processes: int | None, undos: int) -> dict[str, Any]:
    players, steps = script(moves)
    ft = FakeThread()
    fake = ft.fake
    old = fake.patch()
    out: dict[str, Any] = {"steps": len(steps)}
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(database=Path(tmp) / "bot.sqlite3", guild_ready_timeout=0.05,
                        render_processes=processes)
        store = await Store.open(config.database)
        service = Service.from_config(store, config)
        bot = RailBot(config, service)
        await bot.login("fake-token")
        task = asyncio.create_task(bot.connect(reconnect=False))
        await asyncio.wait_for(bot.wait_until_ready(), 30)
        try:
            t0 = time.perf_counter()
            tables = []
            for g in range(games):
                users = [User(100000 + g * 10 + i, f"G{g}P{i}") for i in range(len(players))]
                tables.append((await new_game(ft, users), dict(zip(players, users, strict=True))))
            await service.images.idle()
            out["setup_s"] = time.perf_counter() - t0
            service.lag.start()
            importer = None
            if undos:
                blob = json.dumps(undo_file(undos)).encode()
                mapping = " ".join(f"{p}=<@{200 + i}>" for i, p in enumerate(players))
                importer = asyncio.ensure_future(ft.run(fake.invoke(
                    User(200, "Importer"), fake.main_channel, "import", players=mapping,
                    attachment=("undos.json", blob), timeout=600)))
            iids: list[int] = []
            t0 = time.perf_counter()
            for who, name, options in steps:
                async def one(thread: int, seat: dict[str, User], who: str = who,
                              name: str = name, options: dict[str, Any] = options) -> int:
                    sent = await fake.invoke(seat[who], thread, name, timeout=120, **options)
                    if sent.ephemeral:
                        raise RuntimeError(f"/{name} {options} refused: {sent.content}")
                    assert sent.interaction_id is not None
                    return sent.interaction_id

                async def wave() -> list[int]:
                    return list(await asyncio.gather(*(one(t, s) for t, s in tables)))

                iids.extend(await ft.run(wave()))
            out["wall_s"] = time.perf_counter() - t0
            if importer is not None:
                sent = await importer
                out["import"] = (sent.content[:120], sent.at - fake.pending[sent.interaction_id].dispatched)  # type: ignore[index]
            await service.images.idle()
            await asyncio.sleep(0.5)
            out.update(measure(fake.pending, iids))
            out["lag_worst_ms"] = service.lag.worst * 1000
            out["lag_warnings"] = service.lag.warnings
            out["superseded"] = service.images.superseded
            out["drawn"] = service.images.drawn
        finally:
            await service.lag.stop()
            await bot.close()
            task.cancel()
            service.close()
            await store.close()
            ft.call(fake.stop())
            FakeDiscord.restore(old)
    return out


def measure(pending: dict[int, Pending], iids: list[int]) -> dict[str, Any]:
    first: list[float] = []
    images: list[float] = []
    missed = 0
    for iid in iids:
        p = pending[iid]
        any_answer = min(r.at for r in p.replies if r.kind in ("callback", "followup"))
        missed += any_answer - p.dispatched > 3.0
        answer = next(r for r in p.replies if r.kind != "edit" and r.callback_type != 5)
        first.append(answer.at - p.dispatched)
        edits = [r.at for r in p.replies if r.kind == "edit" and r.files]
        if edits:
            images.append(edits[-1] - p.dispatched)
    return {"first": first, "images": images, "missed": missed}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=80)
    parser.add_argument("--render-processes", type=int, default=None,
                        help="worker processes drawing images (default: one per core)")
    parser.add_argument("--import-undos", type=int, default=0)
    args = parser.parse_args()
    if not FIXTURE.exists():
        print(f"{FIXTURE} is absent: the bench re-plays that recorded game", file=sys.stderr)
        return 2
    r = asyncio.run(bench(args.games, args.moves, args.render_processes, args.import_undos))
    ms = 1000
    first, images = r["first"], r["images"]
    print(f"{args.games} games, {r['steps']} waves, {len(first)} moves in {r['wall_s']:.1f} s "
          f"({len(first) / r['wall_s']:.0f} moves/s); cores {os.cpu_count()}; "
          f"render processes {args.render_processes or os.cpu_count()}; setup {r['setup_s']:.0f} s")
    print(f"first reply: median {statistics.median(first) * ms:.0f} ms, p95 "
          f"{pct(first, 0.95) * ms:.0f} ms, max {max(first) * ms:.0f} ms; "
          f"missed 3 s deadlines: {r['missed']}")
    if images:
        print(f"images: {len(images)} replies got images ({r['drawn']} drawn), "
              f"{r['superseded']} left to a newer move of their game; median "
              f"{statistics.median(images) * ms:.0f} ms, p95 {pct(images, 0.95) * ms:.0f} ms, "
              f"max {max(images) * ms:.0f} ms")
    print(f"event loop: worst lag {r['lag_worst_ms']:.0f} ms, {r['lag_warnings']} warnings")
    if "import" in r:
        text, took = r["import"]
        print(f"import of {args.import_undos} undo/redo pairs: {took:.1f} s: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
