"""Writes under load: batches arriving together share one SQLite commit, a refused batch is
rolled back alone, every caller returns only once its batch is committed; images go to the
render workers without the title data, which each worker keeps."""

from __future__ import annotations

import asyncio
import pickle
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import imagewire
from bot.ports import RealRenderer
from bot.store import DuplicateInteraction, Store
from bot.store.batch import Step
from bot.store.db import IntegrityError, SqliteDb
from bot.store.longgames import LongGameRepo


async def _new_game(store: Store, *, channel_id: int, thread_id: int | None, interaction_id: str,
                    status: str) -> int:
    """An 18MS game of guild 1 created by player 10."""
    return await store.create_game(
        guild_id=1, channel_id=channel_id, thread_id=thread_id, title="18MS", options=[], seed=1,
        creator_id=10, creator_name="A", interaction_id=interaction_id, status=status)


async def test_batches_arriving_together_share_a_commit(tmp_path: Path) -> None:
    db = await SqliteDb.open(tmp_path / "b.sqlite3")
    await db.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
    try:
        writes = [db.write_batch([Step("INSERT INTO t VALUES (?, ?)", (k, "a")),
                                  Step("UPDATE t SET v = 'b' WHERE k = ?", (k,))])
                  for k in range(50)]
        # one of them collides with another's key: refused alone
        writes.append(db.write_batch([Step("INSERT INTO t VALUES (?, ?)", (999, "x")),
                                      Step("INSERT INTO t VALUES (?, ?)", (7, "dup"))]))
        got = await asyncio.gather(*writes, return_exceptions=True)
        assert got[:50] == [[1, 1]] * 50
        assert isinstance(got[50], IntegrityError) and "UNIQUE" in str(got[50])
        assert db.group.batches == 51 and db.group.commits < 10
        rows = await db.fetch("SELECT k, v FROM t ORDER BY k")
        assert [tuple(r) for r in rows] == [(k, "b") for k in range(50)]  # 999 rolled back
    finally:
        await db.close()
    # committed: another connection sees every stored batch
    other = sqlite3.connect(tmp_path / "b.sqlite3")
    assert other.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 50
    other.close()


async def test_a_retried_interaction_is_still_refused_in_a_shared_commit(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.sqlite3")
    try:
        game_id = await _new_game(store, channel_id=2, thread_id=3, interaction_id="create", status="active")
        first = store.append_action(game_id, 1, {"type": "pass"}, interaction_id="i1",
                                    user_id=10)
        again = store.append_action(game_id, 2, {"type": "pass"}, interaction_id="i1",
                                    user_id=10)
        other = store.append_action(game_id, 2, {"type": "bid"}, interaction_id="i2",
                                    user_id=10)
        got = await asyncio.gather(first, again, other, return_exceptions=True)
        assert got[0] is None and isinstance(got[1], DuplicateInteraction) and got[2] is None
        assert [r.action["type"] for r in await store.actions(game_id)] == ["pass", "bid"]
        assert await store.game_id_in_channel(3) == game_id
        assert await store.game_id_in_channel(99) is None
    finally:
        await store.close()


async def test_a_games_record_is_read_once_then_again_after_each_change(tmp_path: Path) -> None:
    """Every move asks for its game's record: on SQLite it is kept in memory, and every write
    to the game's row or players drops it (the next ask reads the database again)."""
    store = await Store.open(tmp_path / "bot.sqlite3")
    reads: list[int] = []
    read = store._read_game

    async def counted(game_id: int) -> Any:
        reads.append(game_id)
        return await read(game_id)

    store._read_game = counted  # type: ignore[method-assign]
    long = LongGameRepo(store)
    try:
        gid = await _new_game(store, channel_id=2, thread_id=3, interaction_id="c", status="open")

        async def check(read_again: bool) -> None:
            before = len(reads)
            kept = await store.game(gid)
            assert kept == await read(gid)  # as stored
            assert len(reads) == before + read_again
            assert await store.game(gid) is kept and len(reads) == before + read_again

        await check(True)
        assert await store.add_player(gid, 11, "B", "11")
        await check(True)
        assert await store.remove_player(gid, 11)
        await check(True)
        assert await store.add_player(gid, 12, "C", "12")
        await store.start_game(gid, [10, 12])
        await check(True)
        await store.append_action(gid, 1, {"type": "pass"}, interaction_id="i1", user_id=10)
        await check(False)  # the same record, its revision one write later
        await long.change_seat(gid, "12", 13, "D", "test", 0.0)
        await check(True)
        with pytest.raises(DuplicateInteraction):
            await store.append_action(gid, 2, {"type": "pass"}, interaction_id="i1", user_id=10)
        await check(True)
        await store.append_action(gid, 2, {"type": "pass"}, interaction_id="i2", user_id=10,
                                  finished=True)
        await check(True)
        assert (await store.game(gid) or pytest.fail()).status == "finished"
        await store.set_status(gid, "abandoned")
        await check(True)
        await store.set_thread(gid, 4)
        await check(True)
        assert await store.game(gid + 1) is None
        assert await store.interaction_seen("i1") and await store.interaction_seen("c")
        assert not await store.interaction_seen("i3")
    finally:
        await store.close()


async def test_a_record_read_across_a_change_is_not_kept(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.sqlite3")
    read = store._read_game
    gate = asyncio.Event()

    async def slow(game_id: int) -> Any:
        record = await read(game_id)  # read before the change below...
        await gate.wait()  # ...returned after it
        return record

    try:
        gid = await _new_game(store, channel_id=2, thread_id=3, interaction_id="c", status="active")
        store._read_game = slow  # type: ignore[method-assign]
        asking = asyncio.ensure_future(store.game(gid))
        for _ in range(20):
            await asyncio.sleep(0.01)
        await store.set_status(gid, "abandoned")
        gate.set()
        assert (await asking or pytest.fail()).status == "active"  # as read
        store._read_game = read  # type: ignore[method-assign]
        assert (await store.game(gid) or pytest.fail()).status == "abandoned"
    finally:
        await store.close()


async def test_a_thread_names_its_game_for_good_a_channel_its_live_game(tmp_path: Path) -> None:
    """A game's thread is known after one query (kept: it never changes); the game of a plain
    channel (no thread) is looked up each time: it is the channel's live one."""
    store = await Store.open(tmp_path / "bot.sqlite3")
    try:
        in_thread = await _new_game(store, channel_id=2, thread_id=3, interaction_id="c1", status="active")
        in_channel = await _new_game(store, channel_id=5, thread_id=None, interaction_id="c2", status="active")
        assert await store.game_id_in_channel(3) == in_thread
        assert await store.game_id_in_channel(5) == in_channel
        await store.set_status(in_thread, "finished")
        await store.set_status(in_channel, "finished")
        assert await store.game_id_in_channel(3) == in_thread  # a thread keeps its game
        assert await store.game_id_in_channel(5) is None  # a channel's game is over
        newer = await _new_game(store, channel_id=5, thread_id=None, interaction_id="c3", status="open")
        assert await store.game_id_in_channel(5) == newer
    finally:
        await store.close()


def test_a_worker_keeps_the_title_data_it_was_sent() -> None:
    from engine.game import Game

    view = Game("18MS", players=[("1", "A"), ("2", "B"), ("3", "C")], options=[]).view()
    packed = imagewire.Packer().pack(view.data)
    bare = imagewire.strip(view)
    assert bare.data is None and len(pickle.dumps(bare)) * 10 < len(packed.blob)
    renderer = RealRenderer()
    imagewire._held.clear()
    assert imagewire.draw_remote(renderer, "market", bare, packed.key, None, None) == \
        imagewire.MISSING
    png = imagewire.draw_remote(renderer, "market", bare, packed.key, packed.blob, None)
    assert png is not None and png.startswith(b"\x89PNG")
    # held now: drawn without the data, the same picture as from the full view
    assert imagewire.draw_remote(renderer, "market", bare, packed.key, None, None) == png
    assert png == renderer.render("market", view)


@pytest.mark.parametrize("title", ["1870"])
def test_a_variant_s_data_has_its_own_key(title: str) -> None:
    from engine.core.data import load_title_data

    data = load_title_data(title)
    import dataclasses

    variant = dataclasses.replace(data, trains=list(data.trains[:-1]))
    packer = imagewire.Packer()
    assert packer.pack(data).key != packer.pack(variant).key
    assert packer.pack(data) is packer.pack(data)
