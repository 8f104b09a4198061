"""Store migrations and idempotency; start-up without a token; discord.py patch points."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import discord
import pytest

from bot.store import DuplicateInteraction, Store
from bot.store.repo import _migrations


async def test_first_start_creates_and_migrates(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "bot.sqlite3"
    store = await Store.open(path)
    latest = max(v for v, _n, _s in _migrations())
    assert await store.schema_version() == latest
    await store.close()
    store = await Store.open(path)  # a second start applies nothing again
    assert await store.schema_version() == latest
    await store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()


async def test_migrations_apply_once_in_order(database: str | Path) -> None:
    store = await Store.open(database)
    again = await Store.open(database)  # a second start (or process) applies nothing again
    versions = [v for v, _n, _s in _migrations()]
    rows = await again.db.fetch("SELECT version FROM schema_version ORDER BY applied_at, version")
    assert [int(r[0]) for r in rows] == versions
    assert await again.schema_version() == versions[-1]
    await store.close()
    await again.close()


async def test_action_log_is_idempotent_per_interaction(database: str | Path) -> None:
    store = await Store.open(database)
    gid = await store.create_game(
        guild_id=1,
        channel_id=2,
        thread_id=3,
        title="18MS",
        options=[],
        seed=1,
        creator_id=7,
        creator_name="A",
        interaction_id="create-1",
    )
    with pytest.raises(DuplicateInteraction):
        await store.create_game(
            guild_id=1,
            channel_id=2,
            thread_id=4,
            title="18MS",
            options=[],
            seed=1,
            creator_id=7,
            creator_name="A",
            interaction_id="create-1",
        )
    await store.append_action(gid, 1, {"type": "pass"}, interaction_id="i1", user_id=7)
    with pytest.raises(DuplicateInteraction):
        await store.append_action(gid, 2, {"type": "pass"}, interaction_id="i1", user_id=7)
    assert [a.seq for a in await store.actions(gid)] == [1]
    assert await store.interaction_seen("i1") and await store.interaction_seen("create-1")
    # a quote in the JSON or the name is data, not SQL
    await store.add_player(gid, 8, "Robert'); DROP TABLE games;--", "8")
    record = await store.game(gid)
    assert record is not None and record.players[-1].name.startswith("Robert'")
    await store.close()


def test_main_without_token_starts_local_mode(tmp_path: Path) -> None:
    env = {
        "PATH": "/usr/bin:/bin",
        "RAIL_CONFIG": str(tmp_path / "none.toml"),
        "HOME": str(tmp_path),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "bot"],
        input="help\nquit\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "DISCORD_TOKEN" in proc.stderr and "python -m bot --local" in proc.stderr
    assert "Local mode" in proc.stdout


def test_discord_patch_points_exist() -> None:
    """The fake Discord patches these; a discord.py upgrade that moves them must fail here."""
    assert discord.__version__ == "2.7.1"
    assert discord.http.Route.BASE.startswith("https://discord.com/api/v")
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith("wss://")
