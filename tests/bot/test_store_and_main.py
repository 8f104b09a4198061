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


SNOWFLAKE = 1_234_567_890_123_456_789  # Discord ids need 64 bits on both databases


async def test_store_round_trip_on_both_databases(database: str | Path) -> None:
    from bot.clock import QuietHours
    from bot.mail.repo import MailRepo
    from bot.store import SeqTaken
    from bot.store.longgames import LongGameRepo, Timing, TurnState

    store = await Store.open(database)
    gid = await store.create_game(
        guild_id=SNOWFLAKE, channel_id=SNOWFLAKE + 1, thread_id=None, title="18MS", options=["x"],
        seed=5, creator_id=SNOWFLAKE + 2, creator_name="A", interaction_id="c",
        players=[(SNOWFLAKE + 2, "A", "a", None), (7, "B", "b", None)],
        actions=[{"type": "bid"}])
    assert (await store.games_in_guild(SNOWFLAKE))[0].id == gid
    assert await store.games_in_guild(None) == []  # NULL-safe equality on both
    assert (await store.game_in_channel(SNOWFLAKE + 1)) is not None
    assert await store.add_player(gid, 8, "C", "c") and not await store.add_player(gid, 8, "C", "c")
    record = await store.game(gid)
    assert record is not None and [p.user_id for p in record.players] == [SNOWFLAKE + 2, 7, 8]
    before = await store.game_stamp(gid)
    await store.start_game(gid, [8, SNOWFLAKE + 2, 7])
    record = await store.game(gid)
    assert record is not None and record.status == "active"
    assert [p.user_id for p in record.seated] == [8, SNOWFLAKE + 2, 7]
    assert await store.game_stamp(gid) > before
    await store.append_action(gid, 2, {"type": "pass"}, interaction_id="m2", user_id=7)
    with pytest.raises(SeqTaken):  # another writer's move at this position: never both
        await store.append_action(gid, 2, {"type": "bid"}, interaction_id="m3", user_id=7)
    assert [a.action["type"] for a in await store.actions(gid)] == ["bid", "pass"]
    rid = await store.create_undo_request(gid, 7, 8, 2, "u1")
    assert (await store.pending_undo_request(gid, 2)) == await store.undo_request(rid)
    assert await store.close_undo_request(rid, "accepted")
    assert not await store.close_undo_request(rid, "declined")
    assert await store.vote_end(gid, 7, 2) == (True, {7})
    assert await store.vote_end(gid, 8, 2) == (True, {7, 8})
    assert await store.vote_end(gid, 8, 2) == (False, {7, 8})
    assert await store.vote_end(gid, 8, 3) == (True, {8})

    long = LongGameRepo(store)
    await long.set_timing(gid, Timing(1.5, None, 2.0))
    assert await long.timing(gid) == Timing(1.5, None, 2.0)
    now = 1_767_225_600.125  # Unix seconds with a fraction: kept exactly (8-byte floats)
    state = TurnState(gid, ("a",), "SR 1", now, now, now, 2)
    await long.record_turn(state, [("a", SNOWFLAKE + 2, 10.5)], [(SNOWFLAKE + 2, now + 60)])
    await long.record_turn(state, [("a", SNOWFLAKE + 2, 1.25)], [(SNOWFLAKE + 2, now + 60)])
    assert await long.turn_state(gid) == state
    assert await long.clocks(gid) == {("a", SNOWFLAKE + 2): 11.75}
    due = await long.due_reminders(now + 61)
    assert [(r.user_id, r.due_at) for r in due] == [(SNOWFLAKE + 2, now + 60)]
    assert await long.claim(due[0], now + 61, now + 120)
    assert not await long.claim(due[0], now + 62, now + 120)  # sent once
    assert await long.next_due() == now + 120
    await long.set_quiet_hours(7, QuietHours("Europe/Paris", 22, 7))
    assert await long.quiet_hours(7) == QuietHours("Europe/Paris", 22, 7)
    assert await long.follow(gid, 9, now) and not await long.follow(gid, 9, now)
    assert await long.followers(gid) == [9]
    vid = await long.create_vote(gid, "drop", "b", None, None, 8, now)
    await long.cast(vid, 7, False)
    await long.cast(vid, 7, True)
    vote = await long.open_vote(gid, "drop", "b")
    assert vote is not None and vote.ballots == ((8, True), (7, True))
    assert await long.open_vote(gid, "end", None) is None
    assert await long.change_seat(gid, "b", 10, "D", "substitute", now) == (7, "B")
    assert await long.seat_history(gid) == [("b", 7, "B", 10, "substitute")]
    assert (await long.vote(vid)).status == "stale"  # type: ignore[union-attr]

    mail = MailRepo(store)
    uid = await mail.user_for("Pat@Example.org", "Pat")
    assert await mail.user_for("pat@example.org", "Pat") == uid
    await mail.add_seat(gid, uid, "pat@example.org", "n1")
    await mail.add_seat(gid, uid, "pat@example.org", "n2")  # once
    assert [s.nonce for s in await mail.seats(gid)] == ["n1"]
    assert await mail.claim("<m1@x>", now) and not await mail.claim("<m1@x>", now)
    await mail.sent("<s1@x>", gid, uid, 2, "turn", "pat@example.org", "failed", "refused", now)
    await mail.sent("<s1@x>", gid, uid, 2, "turn", "pat@example.org", "sent", None, now)
    assert await mail.failures(gid) == []
    invite = await mail.add_invite(gid, "q@example.org", "Q", 7, "n3", now)
    assert await mail.take_invite(invite) and not await mail.take_invite(invite)
    await store.close()


def test_migrate_command_on_both_databases(tmp_path: Path, database: str | Path) -> None:
    """`python -m bot --migrate` (the Procfile's release step) migrates and exits."""
    config = tmp_path / "c.toml"
    key = "database_url" if str(database).startswith("postgresql") else "database"
    config.write_text(f'[bot]\n{key} = "{database}"\n')
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "--migrate", "--config", str(config)],
        capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    latest = max(v for v, _n, _s in _migrations())
    dialect = "postgres" if key == "database_url" else "sqlite"
    assert proc.stdout.strip() == f"schema version {latest} ({dialect})"


def test_postgres_spelling_of_queries_and_migrations() -> None:
    from bot.store.db import pg_migration, pg_query

    assert (pg_query("SELECT 1 FROM t WHERE a = ? AND b IS ? AND c = '?' AND d IN (?, ?)")
            == "SELECT 1 FROM t WHERE a = $1 AND b IS NOT DISTINCT FROM $2 AND c = '?'"
               " AND d IN ($3, $4)")
    for _v, name, sql in _migrations():
        pg = pg_migration(sql)
        for word in ("INTEGER", "AUTOINCREMENT", " REAL"):
            assert word not in pg, (name, word)


async def test_both_databases_get_the_same_schema(tmp_path: Path, pg_url: str) -> None:
    lite, pg = await Store.open(tmp_path / "s.sqlite3"), await Store.open(pg_url)
    try:
        tables = [str(r[0]) for r in await lite.db.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        lite_cols = {(t, str(c[1])) for t in tables
                     for c in await lite.db.fetch(f"PRAGMA table_info({t})")}
        pg_cols = {(str(r[0]), str(r[1])) for r in await pg.db.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema()")}
        # PostgreSQL's explicit rowid columns stand for SQLite's implicit ones
        assert pg_cols - lite_cols == {("players", "rowid"), ("seat_ballots", "rowid")}
        assert lite_cols - pg_cols == set()
    finally:
        await lite.close()
        await pg.close()
