"""Several bot processes on one PostgreSQL database: each is its own Store (its own pool of
connections), Service (its own cache of replayed games) and command layer, as in two
processes; moves reach them through the command layer the Discord cogs call."""

from __future__ import annotations

import asyncio

from bot.store import Store
from tests.bot.conftest import DRAFT, STOCK_ROUND
from tests.bot.shared_db import SEATS, Proc

OPENING = DRAFT + STOCK_ROUND


async def _two(url: str) -> tuple[Proc, Proc]:
    return await Proc.open(url, "p1"), await Proc.open(url, "p2")


async def test_moves_alternating_between_processes_see_each_other(pg_url: str) -> None:
    p1, p2 = await _two(pg_url)
    try:
        gid = await p1.new_game(10)
        for i, (who, name, options) in enumerate(OPENING):
            proc = (p1, p2)[i % 2]  # each process's cached game is one move behind
            reply = await proc.run(SEATS[who], 10, name, **options)
            assert not reply.ephemeral, f"move {i} {name} {options} on {proc.name}: {reply.text}"
        for proc in (p1, p2):
            log = await proc.store.actions(gid)
            assert [r.seq for r in log] == list(range(1, len(OPENING) + 1))
            assert [r.action["type"] for r in log][:3] == ["bid", "bid", "bid"]
        # both caches now hold the game as stored: the next player's turn agrees
        legal1 = await p1.service.legal_for(10, SEATS["A"].user_id)
        legal2 = await p2.service.legal_for(10, SEATS["A"].user_id)
        assert legal1 is not None and legal2 is not None  # GMO's first operating turn: Alice
    finally:
        await p1.close()
        await p2.close()


async def test_one_interaction_sent_to_both_processes_is_applied_once(pg_url: str) -> None:
    p1, p2 = await _two(pg_url)
    try:
        gid = await p1.new_game(11)
        who, name, options = OPENING[0]
        replies = await asyncio.gather(
            p1.run(SEATS[who], 11, name, interaction_id="same-1", **options),
            p2.run(SEATS[who], 11, name, interaction_id="same-1", **options))
        applied = [r for r in replies if not r.ephemeral]
        assert len(applied) == 1, [r.text for r in replies]
        assert "already handled" in next(r for r in replies if r.ephemeral).text
        assert [r.interaction_id for r in await p1.store.actions(gid)] == ["same-1"]
    finally:
        await p1.close()
        await p2.close()


async def test_the_same_move_from_two_processes_at_once_is_stored_once(pg_url: str) -> None:
    p1, p2 = await _two(pg_url)
    try:
        gid = await p1.new_game(12)
        await p2.service.legal_for(12, SEATS["C"].user_id)  # both have the game cached
        await p1.service.legal_for(12, SEATS["C"].user_id)
        for round_ in range(3):  # Cy, Bob, Alice bid: each sent twice at once
            who, name, options = OPENING[round_]
            replies = await asyncio.gather(p1.run(SEATS[who], 12, name, **options),
                                           p2.run(SEATS[who], 12, name, **options))
            texts = [r.text for r in replies]
            assert sorted(r.ephemeral for r in replies) == [False, True], texts
            refused = next(r for r in replies if r.ephemeral).text
            # judged against the game as the other process left it (a refusal, not a fault)
            assert "went wrong" not in refused and "Another move" not in refused, refused
        log = await p2.store.actions(gid)
        assert [(r.seq, r.action["type"], r.action["entity"]) for r in log] == [
            (1, "bid", str(SEATS["C"].user_id)), (2, "bid", str(SEATS["B"].user_id)),
            (3, "bid", str(SEATS["A"].user_id))]
    finally:
        await p1.close()
        await p2.close()


async def test_migrations_from_two_processes_starting_together(pg_url: str) -> None:
    a, b = await asyncio.gather(Store.open(pg_url), Store.open(pg_url))
    try:
        rows = await a.db.fetch("SELECT version FROM schema_version ORDER BY version")
        # every migration applied once, though both processes started them
        from bot.store.repo import _migrations

        assert [int(r[0]) for r in rows] == [v for v, _name, _sql in _migrations()]
        assert len(rows) >= 6
    finally:
        await a.close()
        await b.close()


async def test_a_game_lock_excludes_the_other_process(pg_url: str) -> None:
    a, b = await Store.open(pg_url), await Store.open(pg_url)
    order: list[str] = []
    try:
        async def hold(store: Store, name: str, pause: float) -> None:
            async with store.lock(7):
                order.append(f"{name} in")
                await asyncio.sleep(pause)
                order.append(f"{name} out")

        first = asyncio.create_task(hold(a, "a", 0.3))
        await asyncio.sleep(0.1)
        await hold(b, "b", 0)
        await first
        assert order == ["a in", "a out", "b in", "b out"]
        async with a.lock(8), b.lock(9):  # other games are not held up
            pass
    finally:
        await a.close()
        await b.close()
