"""Discord sharding: the AutoShardedClient from the configuration, against the fake Discord
(which gives the guild, and its interactions, to the shard (guild_id >> 22) % count)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from bot.app import ShardedRailBot, make_bot
from bot.config import Config, load_config
from bot.service import Service
from bot.store import Store
from tests.bot.conftest import DRAFT, play
from tests.bot.fake_discord import GUILD_ID


def test_shards_come_from_the_configuration(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[bot]\ndatabase_url = "postgresql://u@h/db"\nshard_count = 4\n'
                    "shard_ids = [2, 3]\n")
    config = load_config(path)
    assert config.store_target == "postgresql://u@h/db"
    assert (config.shard_count, config.shard_ids, config.sharded) == (4, (2, 3), True)
    assert not Config().sharded and Config().store_target == Config().database


async def test_one_process_runs_every_shard(env_factory: Any, tmp_path: Path,
                                            database: str | Path) -> None:
    env = env_factory(tmp_path, database)
    env.shard_count = 2
    await env.start()
    try:
        assert isinstance(env.bot, ShardedRailBot)
        assert sorted(env.fake.identifies) == [[0, 2], [1, 2]]
        assert env.bot.shard_count == 2 and sorted(env.bot.shards) == [0, 1]
        thread = await env.new_game(env.alice, env.bob, env.cy)
        replies = await play(env, thread, DRAFT)
        assert len(replies) == 3 and await env.log_types() == ["bid", "bid", "bid"]
        assert not env.errors
    finally:
        await env.stop()


async def test_two_processes_split_the_shards_on_one_database(
        env_factory: Any, tmp_path: Path, pg_url: str) -> None:
    owner = (GUILD_ID >> 22) % 2
    env = env_factory(tmp_path, pg_url)  # the process running the guild's shard
    env.shard_count, env.shard_ids = 2, (owner,)
    await env.start()
    other_store = await Store.open(pg_url)
    other = make_bot(Config(database_url=pg_url, guild_ready_timeout=0.05, shard_count=2,
                            shard_ids=(1 - owner,)), Service(other_store, render_images=False))
    await other.login("fake-token")
    task = asyncio.create_task(other.connect(reconnect=False))
    try:
        await asyncio.wait_for(other.wait_until_ready(), 10)
        assert sorted(env.fake.identifies) == [[0, 2], [1, 2]]
        assert other.get_guild(GUILD_ID) is None  # not its shard
        thread = await env.new_game(env.alice, env.bob, env.cy)
        await play(env, thread, DRAFT[:2])
        # the other process sees the game as stored, and whose turn it is (Alice's)
        assert await other.service.legal_for(thread, env.alice.id) is not None
        assert await other.service.legal_for(thread, env.bob.id) is None
    finally:
        await other.close()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(task, 5)
        other.service.close()
        await other_store.close()
        await env.stop()
