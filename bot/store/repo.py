"""The bot's SQLite repository: games, seated players, the action log, undo requests and
votes to end a game early.

All SQL of the bot lives here. Every query is parameterised; every write that belongs to one
move happens in one transaction.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    user_id: int
    name: str
    engine_id: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    title: str
    options: tuple[str, ...]
    seed: int
    status: str
    creator_id: int
    players: tuple[PlayerRecord, ...]

    @property
    def seated(self) -> tuple[PlayerRecord, ...]:
        """Players in seat order (join order before the game starts)."""
        if all(p.seat is not None for p in self.players):
            return tuple(sorted(self.players, key=lambda p: p.seat or 0))
        return self.players

    def player_by_user(self, user_id: int) -> PlayerRecord | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def player_by_engine_id(self, engine_id: str) -> PlayerRecord | None:
        return next((p for p in self.players if p.engine_id == engine_id), None)


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seq: int
    action: dict[str, Any]
    interaction_id: str | None
    user_id: int | None
    created_at: str


@dataclass(frozen=True, slots=True)
class UndoRequest:
    id: int
    game_id: int
    requester_id: int
    approver_id: int
    log_length: int
    status: str


class DuplicateInteraction(Exception):
    """This interaction id was already recorded: a retried interaction."""


def _migrations() -> list[tuple[int, str, str]]:
    folder = resources.files("bot.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


class Store:
    """One aiosqlite connection (WAL). Open with `await Store.open(path)`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # one connection is shared by every coroutine: transactions must not interleave
        self._tx = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        store = cls(db)
        await store.migrate()
        return store

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        async with self._tx:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _write(self, sql: str, params: Sequence[Any]) -> aiosqlite.Cursor:
        """A single-statement write, never inside another coroutine's transaction."""
        async with self._tx:
            return await self._db.execute(sql, params)

    async def close(self) -> None:
        await self._db.close()

    # -- migrations -------------------------------------------------------------------------

    async def schema_version(self) -> int:
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
        )
        async with self._db.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row and row[0] is not None else 0

    async def migrate(self) -> int:
        """Apply every migration newer than the recorded schema version; return the version."""
        current = await self.schema_version()
        for version, name, sql in _migrations():
            if version <= current:
                continue
            # executescript commits first; wrap the script in its own transaction
            await self._db.executescript(
                "BEGIN;\n" + sql + "\nINSERT INTO schema_version (version, name, applied_at) "
                f"VALUES ({version:d}, '{name.replace(chr(39), '')}', '{_now()}');\nCOMMIT;"
            )
            current = version
        return current

    # -- games ------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        thread_id: int | None,
        title: str,
        options: Sequence[str],
        seed: int,
        creator_id: int,
        creator_name: str,
        interaction_id: str | None,
        status: str = "open",
        players: Sequence[tuple[int, str, str, int | None]] | None = None,
        actions: Sequence[dict[str, Any]] = (),
    ) -> int:
        """Insert a game with its players (user id, name, engine id, seat) and an initial log.

        Without `players` the creator is the first player. Raises DuplicateInteraction when
        `interaction_id` was already used.
        """
        now = _now()
        if players is None:
            players = [(creator_id, creator_name, str(creator_id), None)]
        try:
            async with self._transaction():
                cur = await self._db.execute(
                    "INSERT INTO games (guild_id, channel_id, thread_id, title, options, seed,"
                    " status, creator_id, interaction_id, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        thread_id,
                        title,
                        json.dumps(list(options)),
                        seed,
                        status,
                        creator_id,
                        interaction_id,
                        now,
                        now,
                    ),
                )
                game_id = int(cur.lastrowid or 0)
                await self._db.executemany(
                    "INSERT INTO players (game_id, user_id, name, engine_id, seat, joined_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, uid, name, eid, seat, now) for uid, name, eid, seat in players],
                )
                await self._db.executemany(
                    "INSERT INTO actions (game_id, seq, action, interaction_id, user_id,"
                    " created_at) VALUES (?, ?, ?, NULL, NULL, ?)",
                    [(game_id, i + 1, json.dumps(a), now) for i, a in enumerate(actions)],
                )
        except sqlite3.IntegrityError as err:
            if "interaction_id" in str(err):
                raise DuplicateInteraction(interaction_id) from err
            raise
        return game_id

    async def game_by_interaction(self, interaction_id: str) -> GameRecord | None:
        async with self._db.execute(
            "SELECT id FROM games WHERE interaction_id = ?", (interaction_id,)
        ) as cur:
            row = await cur.fetchone()
        return await self.game(int(row[0])) if row else None

    async def game(self, game_id: int) -> GameRecord | None:
        async with self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        async with self._db.execute(
            "SELECT user_id, name, engine_id, seat FROM players WHERE game_id = ?"
            " ORDER BY COALESCE(seat, 1000000), joined_at, rowid",
            (game_id,),
        ) as cur:
            prow = await cur.fetchall()
        players = tuple(
            PlayerRecord(int(p["user_id"]), str(p["name"]), str(p["engine_id"]), p["seat"])
            for p in prow
        )
        return GameRecord(
            id=int(row["id"]),
            guild_id=row["guild_id"],
            channel_id=int(row["channel_id"]),
            thread_id=row["thread_id"],
            title=str(row["title"]),
            options=tuple(json.loads(row["options"])),
            seed=int(row["seed"]),
            status=str(row["status"]),
            creator_id=int(row["creator_id"]),
            players=players,
        )

    async def game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The game whose thread is this channel, else the one live game started in it."""
        async with self._db.execute(
            "SELECT id FROM games WHERE thread_id = ?", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            async with self._db.execute(
                "SELECT id FROM games WHERE channel_id = ? AND thread_id IS NULL"
                " AND status IN ('open', 'active') ORDER BY id DESC LIMIT 1",
                (channel_id,),
            ) as cur:
                row = await cur.fetchone()
        return await self.game(int(row[0])) if row else None

    async def games_in_guild(
        self, guild_id: int | None, *, live_only: bool = True
    ) -> list[GameRecord]:
        sql = "SELECT id FROM games WHERE guild_id IS ?"
        if live_only:
            sql += " AND status IN ('open', 'active')"
        async with self._db.execute(sql + " ORDER BY id", (guild_id,)) as cur:
            rows = await cur.fetchall()
        games = [await self.game(int(r[0])) for r in rows]
        return [g for g in games if g is not None]

    async def active_game_ids(self) -> list[int]:
        async with self._db.execute("SELECT id FROM games WHERE status = 'active'") as cur:
            return [int(r[0]) for r in await cur.fetchall()]

    async def set_status(self, game_id: int, status: str) -> None:
        await self._write(
            "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, _now(), game_id)
        )

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        await self._write(
            "UPDATE games SET thread_id = ?, updated_at = ? WHERE id = ?",
            (thread_id, _now(), game_id),
        )

    async def add_player(self, game_id: int, user_id: int, name: str, engine_id: str) -> bool:
        """Seat a player (False if already in)."""
        try:
            await self._write(
                "INSERT INTO players (game_id, user_id, name, engine_id, seat, joined_at)"
                " VALUES (?, ?, ?, ?, NULL, ?)",
                (game_id, user_id, name, engine_id, _now()),
            )
        except sqlite3.IntegrityError:
            return False
        return True

    async def remove_player(self, game_id: int, user_id: int) -> bool:
        cur = await self._write(
            "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return (cur.rowcount or 0) > 0

    async def start_game(self, game_id: int, seating: Sequence[int]) -> None:
        """Record the seat order (user ids) and mark the game active, in one transaction."""
        async with self._transaction():
            for seat, user_id in enumerate(seating):
                await self._db.execute(
                    "UPDATE players SET seat = ? WHERE game_id = ? AND user_id = ?",
                    (seat, game_id, user_id),
                )
            await self._db.execute(
                "UPDATE games SET status = 'active', updated_at = ? WHERE id = ?",
                (_now(), game_id),
            )

    # -- the action log ---------------------------------------------------------------------

    async def actions(self, game_id: int) -> list[ActionRecord]:
        async with self._db.execute(
            "SELECT seq, action, interaction_id, user_id, created_at FROM actions"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ) as cur:
            rows = await cur.fetchall()
        return [ActionRecord(int(r[0]), json.loads(r[1]), r[2], r[3], str(r[4])) for r in rows]

    async def interaction_seen(self, interaction_id: str) -> bool:
        async with self._db.execute(
            "SELECT 1 FROM actions WHERE interaction_id = ?"
            " UNION ALL SELECT 1 FROM games WHERE interaction_id = ?"
            " UNION ALL SELECT 1 FROM undo_requests WHERE interaction_id = ?",
            (interaction_id, interaction_id, interaction_id),
        ) as cur:
            return await cur.fetchone() is not None

    async def append_action(
        self,
        game_id: int,
        seq: int,
        action: dict[str, Any],
        *,
        interaction_id: str | None,
        user_id: int | None,
        finished: bool = False,
    ) -> None:
        """Append one action at `seq` in one transaction (and finish the game if it ended).

        Raises DuplicateInteraction if the interaction id was already recorded.
        """
        now = _now()
        try:
            async with self._transaction():
                await self._db.execute(
                    "INSERT INTO actions (game_id, seq, action, interaction_id, user_id,"
                    " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, seq, json.dumps(action), interaction_id, user_id, now),
                )
                await self._db.execute(
                    "UPDATE games SET updated_at = ?, status = CASE WHEN ? THEN 'finished'"
                    " ELSE status END WHERE id = ?",
                    (now, finished, game_id),
                )
        except sqlite3.IntegrityError as err:
            if "interaction_id" in str(err):
                raise DuplicateInteraction(interaction_id) from err
            raise

    # -- undo requests ----------------------------------------------------------------------

    async def create_undo_request(
        self,
        game_id: int,
        requester_id: int,
        approver_id: int,
        log_length: int,
        interaction_id: str | None,
    ) -> int:
        try:
            cur = await self._write(
                "INSERT INTO undo_requests (game_id, requester_id, approver_id, log_length,"
                " interaction_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, requester_id, approver_id, log_length, interaction_id, _now()),
            )
        except sqlite3.IntegrityError as err:
            raise DuplicateInteraction(interaction_id) from err
        return int(cur.lastrowid or 0)

    async def undo_request(self, request_id: int) -> UndoRequest | None:
        async with self._db.execute(
            "SELECT id, game_id, requester_id, approver_id, log_length, status"
            " FROM undo_requests WHERE id = ?",
            (request_id,),
        ) as cur:
            r = await cur.fetchone()
        if r is None:
            return None
        return UndoRequest(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), str(r[5]))

    async def pending_undo_request(self, game_id: int, log_length: int) -> UndoRequest | None:
        """The request still waiting for an answer about this game's latest move, if any."""
        async with self._db.execute(
            "SELECT id FROM undo_requests WHERE game_id = ? AND log_length = ?"
            " AND status = 'pending' ORDER BY id LIMIT 1",
            (game_id, log_length),
        ) as cur:
            r = await cur.fetchone()
        return None if r is None else await self.undo_request(int(r[0]))

    async def close_undo_request(self, request_id: int, status: str) -> bool:
        """Move a pending request to `status`; False if it was no longer pending."""
        cur = await self._write(
            "UPDATE undo_requests SET status = ? WHERE id = ? AND status = 'pending'",
            (status, request_id),
        )
        return (cur.rowcount or 0) > 0

    # -- votes to end a game early ----------------------------------------------------------

    async def vote_end(self, game_id: int, user_id: int, log_length: int) -> tuple[bool, set[int]]:
        """Record `user_id`'s vote to end the game at this log length. Returns whether it is new
        (not cast at this position already) and every user whose vote stands at it."""
        async with self._transaction():
            async with self._db.execute(
                "SELECT log_length FROM end_votes WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            ) as cur:
                r = await cur.fetchone()
            new = r is None or int(r[0]) != log_length
            await self._db.execute(
                "INSERT OR REPLACE INTO end_votes (game_id, user_id, log_length, created_at)"
                " VALUES (?, ?, ?, ?)",
                (game_id, user_id, log_length, _now()),
            )
            async with self._db.execute(
                "SELECT user_id FROM end_votes WHERE game_id = ? AND log_length = ?",
                (game_id, log_length),
            ) as cur:
                rows = await cur.fetchall()
        return new, {int(row[0]) for row in rows}
