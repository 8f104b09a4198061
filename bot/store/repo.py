"""The bot's repository (SQLite or PostgreSQL, bot/store/db.py): games, seated players, the
action log, undo requests and votes to end a game early.

All SQL of the bot lives here. Every query is parameterised; every write that belongs to one
move happens in one transaction. The records it returns (and its two errors) are in
bot/store/records.py.
"""

from __future__ import annotations

import contextlib
import json
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from bot.store.batch import Step
from bot.store.db import Db, IntegrityError, Result, open_db
from bot.store.records import (
    ActionRecord,
    DuplicateInteraction,
    GameRecord,
    PlayerRecord,
    SeqTaken,
    UndoRequest,
)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _migrations() -> list[tuple[int, str, str]]:
    folder = resources.files("bot.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), name, entry.read_text(encoding="utf-8")))
    return sorted(found)


RECORDS_KEPT = 4096  # game records kept in memory (`Store.game`), the most recently used


class Store:
    """The bot's repository on a database (bot/store/db.py): a SQLite file by default, or a
    PostgreSQL server shared by several bot processes. Open with `await Store.open(target)`."""

    def __init__(self, db: Db) -> None:
        self.db = db
        # thread id -> its game's id: a game's thread is set when the game is inserted and
        # never changes, and games are never deleted, so a thread found once is kept (every
        # move asks; in any process, whatever the database)
        self._thread_games: dict[int, int] = {}
        # game id -> its record (the game's row and its players) as stored, kept while this
        # process is the database's only writer (SQLite): every write to a game's row or its
        # players goes through this store, which drops the game's record once the write is
        # done (`game_changed`); a read under way across such a write is not kept
        self._records: OrderedDict[int, GameRecord] = OrderedDict()
        self._record_writes = 0

    @property
    def dialect(self) -> str:
        return self.db.dialect

    @property
    def shared(self) -> bool:
        """Other processes may write the same database (PostgreSQL)."""
        return self.db.shared

    @classmethod
    async def open(cls, target: str | Path) -> Store:
        """`target`: a SQLite file path, or a postgresql:// URL."""
        store = cls(await open_db(target))
        await store.migrate()
        return store

    def _transaction(self) -> Any:
        """Every write that belongs together, in one transaction (yields the Conn to use)."""
        return self.db.transaction()

    async def _write(self, sql: str, params: Sequence[Any]) -> Result:
        """A single-statement write."""
        return await self.db.execute(sql, params)

    def lock(self, key: int) -> Any:
        """Exclusive across every process sharing the database (a no-op on SQLite)."""
        return self.db.lock(key)

    async def close(self) -> None:
        await self.db.close()

    # -- migrations -------------------------------------------------------------------------

    async def schema_version(self) -> int:
        return await self.db.schema_version()

    async def migrate(self) -> int:
        """Apply every migration newer than the recorded schema version; return the version."""
        return await self.db.migrate(_migrations(), _now())

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
        actions: Sequence[dict[str, Any] | str] = (),
    ) -> int:
        """Insert a game with its players (user id, name, engine id, seat) and an initial log.

        Without `players` the creator is the first player. Raises DuplicateInteraction when
        `interaction_id` was already used.
        """
        now = _now()
        if players is None:
            players = [(creator_id, creator_name, str(creator_id), None)]
        try:
            async with self._transaction() as tx:
                row = await tx.fetchone(
                    "INSERT INTO games (guild_id, channel_id, thread_id, title, options, seed,"
                    " status, creator_id, interaction_id, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
                game_id = int(row[0])
                await tx.executemany(
                    "INSERT INTO players (game_id, user_id, name, engine_id, seat, joined_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    [(game_id, uid, name, eid, seat, now) for uid, name, eid, seat in players],
                )
                await tx.executemany(
                    "INSERT INTO actions (game_id, seq, action, interaction_id, user_id,"
                    " created_at) VALUES (?, ?, ?, NULL, NULL, ?)",
                    # (an action given as its JSON text, as an import's replay makes it off
                    # the event loop, is stored as it is)
                    [(game_id, i + 1, a if isinstance(a, str) else json.dumps(a), now)
                     for i, a in enumerate(actions)],
                )
        except IntegrityError as err:
            if "interaction_id" in str(err):
                raise DuplicateInteraction(interaction_id) from err
            raise
        return game_id

    async def game_by_interaction(self, interaction_id: str) -> GameRecord | None:
        row = await self.db.fetchone(
            "SELECT id FROM games WHERE interaction_id = ?", (interaction_id,))
        return await self.game(int(row[0])) if row else None

    async def game(self, game_id: int) -> GameRecord | None:
        """The game's record (kept in memory on SQLite: every move asks)."""
        if self.shared:
            return await self._read_game(game_id)
        kept = self._records.get(game_id)
        if kept is not None:
            self._records.move_to_end(game_id)
            return kept
        writes = self._record_writes
        record = await self._read_game(game_id)
        if record is not None and writes == self._record_writes:
            self._records[game_id] = record
            if len(self._records) > RECORDS_KEPT:
                self._records.popitem(last=False)
        return record

    async def _read_game(self, game_id: int) -> GameRecord | None:
        rows, prow = await self.db.fetch_batch(_game_queries(game_id))
        return _game_record(rows, prow)

    def game_changed(self, game_id: int) -> None:
        """A write to the game's row or players is done (or failed): read it again."""
        self._record_writes += 1
        self._records.pop(game_id, None)

    @contextlib.contextmanager
    def changing(self, game_id: int) -> Iterator[None]:
        """Around a write to the game's row or players: its kept record dropped after it,
        whether the write was done or failed."""
        try:
            yield
        finally:
            self.game_changed(game_id)

    async def game_stamp(self, game_id: int) -> tuple[int, int]:
        """(revision, log length) of a game as stored: it differs from a cached copy's when
        another process changed the game (a move, a seat, a status)."""
        row = await self.db.fetchone(
            "SELECT g.revision, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id)"
            " FROM games g WHERE g.id = ?", (game_id,))
        return (-1, -1) if row is None else (int(row[0]), int(row[1]))

    async def game_in_channel(self, channel_id: int) -> GameRecord | None:
        """The game whose thread is this channel, else the one live game started in it."""
        game_id = await self.game_id_in_channel(channel_id)
        return await self.game(game_id) if game_id is not None else None

    async def game_id_in_channel(self, channel_id: int) -> int | None:
        """The id of `game_in_channel`'s game (what a move needs): a game's thread is known
        after its first query; else one query."""
        known = self._thread_games.get(channel_id)
        if known is not None:
            return known
        row = await self.db.fetchone(
            "SELECT (SELECT id FROM games WHERE thread_id = ?),"
            " (SELECT id FROM games WHERE channel_id = ? AND thread_id IS NULL"
            " AND status IN ('open', 'active') ORDER BY id DESC LIMIT 1)",
            (channel_id, channel_id))
        if row is None:
            return None
        if row[0] is not None:
            self._thread_games[channel_id] = int(row[0])
            return int(row[0])
        return None if row[1] is None else int(row[1])

    async def games_in_guild(
        self, guild_id: int | None, *, live_only: bool = True
    ) -> list[GameRecord]:
        sql = "SELECT id FROM games WHERE guild_id IS ?"
        if live_only:
            sql += " AND status IN ('open', 'active')"
        rows = await self.db.fetch(sql + " ORDER BY id", (guild_id,))
        games = [await self.game(int(r[0])) for r in rows]
        return [g for g in games if g is not None]

    async def active_game_ids(self) -> list[int]:
        rows = await self.db.fetch("SELECT id FROM games WHERE status = 'active' ORDER BY id")
        return [int(r[0]) for r in rows]

    async def set_status(self, game_id: int, status: str) -> None:
        with self.changing(game_id):
            await self._write(
                "UPDATE games SET status = ?, updated_at = ?, revision = revision + 1"
                " WHERE id = ?", (status, _now(), game_id))

    async def set_thread(self, game_id: int, thread_id: int) -> None:
        with self.changing(game_id):
            await self._write(
                "UPDATE games SET thread_id = ?, updated_at = ?, revision = revision + 1"
                " WHERE id = ?",
                (thread_id, _now(), game_id),
            )

    async def add_player(self, game_id: int, user_id: int, name: str, engine_id: str) -> bool:
        """Seat a player (False if already in)."""
        try:
            with self.changing(game_id):
                async with self._transaction() as tx:
                    await tx.execute(
                        "INSERT INTO players (game_id, user_id, name, engine_id, seat,"
                        " joined_at) VALUES (?, ?, ?, ?, NULL, ?)",
                        (game_id, user_id, name, engine_id, _now()),
                    )
                    await tx.execute(_BUMP, (game_id,))
        except IntegrityError:
            return False
        return True

    async def remove_player(self, game_id: int, user_id: int) -> bool:
        with self.changing(game_id):
            async with self._transaction() as tx:
                cur = await tx.execute(
                    "DELETE FROM players WHERE game_id = ? AND user_id = ?", (game_id, user_id))
                await tx.execute(_BUMP, (game_id,))
        return cur.rowcount > 0

    async def start_game(self, game_id: int, seating: Sequence[int]) -> None:
        """Record the seat order (user ids) and mark the game active, in one transaction."""
        with self.changing(game_id):
            async with self._transaction() as tx:
                for seat, user_id in enumerate(seating):
                    await tx.execute(
                        "UPDATE players SET seat = ? WHERE game_id = ? AND user_id = ?",
                        (seat, game_id, user_id),
                    )
                await tx.execute(
                    "UPDATE games SET status = 'active', updated_at = ?, revision = revision + 1"
                    " WHERE id = ?",
                    (_now(), game_id),
                )

    # -- the action log ---------------------------------------------------------------------

    async def actions(self, game_id: int) -> list[ActionRecord]:
        rows = await self.db.fetch(
            "SELECT seq, action, interaction_id, user_id, created_at FROM actions"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [ActionRecord(int(r[0]), json.loads(r[1]), r[2], r[3], str(r[4])) for r in rows]

    async def interaction_seen(self, interaction_id: str) -> bool:
        q = _seen_query(interaction_id)
        return await self.db.fetchone(q.sql, q.params) is not None

    async def append_action(
        self,
        game_id: int,
        seq: int,
        action: dict[str, Any],
        *,
        interaction_id: str | None,
        user_id: int | None,
        finished: bool = False,
        also: Sequence[Step] = (),
    ) -> None:
        """Append one action at `seq` in one transaction (and finish the game if it ended),
        with the writes `also` (whose turn it is now: bot/turns.py) in the same transaction.

        Raises DuplicateInteraction if the interaction id was already recorded, and
        SeqTaken if another writer already stored the game's action `seq` (the primary key
        (game, seq): a move judged against an outdated game is never stored)."""
        now = _now()
        try:  # one batch (bot/store/batch.py): on SQLite it shares a commit with others
            await self.db.write_batch([
                Step("INSERT INTO actions (game_id, seq, action, interaction_id, user_id,"
                     " created_at) VALUES (?, ?, ?, ?, ?, ?)",
                     (game_id, seq, json.dumps(action), interaction_id, user_id, now)),
                Step("UPDATE games SET updated_at = ?, revision = revision + 1,"
                     " status = CASE WHEN ? THEN 'finished' ELSE status END WHERE id = ?",
                     (now, bool(finished), game_id)),
                *also,
            ])
        except BaseException as err:
            self.game_changed(game_id)  # (a failed write: the record is read again)
            if isinstance(err, IntegrityError):
                if "interaction_id" in str(err):
                    raise DuplicateInteraction(interaction_id) from err
                if "seq" in str(err) or "actions_pkey" in str(err):
                    raise SeqTaken(game_id, seq) from err
            raise
        if finished:  # the game's status changed
            self.game_changed(game_id)

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
            async with self._transaction() as tx:
                row = await tx.fetchone(
                    "INSERT INTO undo_requests (game_id, requester_id, approver_id, log_length,"
                    " interaction_id, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    (game_id, requester_id, approver_id, log_length, interaction_id, _now()),
                )
        except IntegrityError as err:
            raise DuplicateInteraction(interaction_id) from err
        return int(row[0])

    async def undo_request(self, request_id: int) -> UndoRequest | None:
        r = await self.db.fetchone(
            "SELECT id, game_id, requester_id, approver_id, log_length, status"
            " FROM undo_requests WHERE id = ?",
            (request_id,),
        )
        if r is None:
            return None
        return UndoRequest(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), str(r[5]))

    async def pending_undo_request(self, game_id: int, log_length: int) -> UndoRequest | None:
        """The request still waiting for an answer about this game's latest move, if any."""
        r = await self.db.fetchone(
            "SELECT id FROM undo_requests WHERE game_id = ? AND log_length = ?"
            " AND status = 'pending' ORDER BY id LIMIT 1",
            (game_id, log_length),
        )
        return None if r is None else await self.undo_request(int(r[0]))

    async def close_undo_request(self, request_id: int, status: str) -> bool:
        """Move a pending request to `status`; False if it was no longer pending."""
        cur = await self._write(
            "UPDATE undo_requests SET status = ? WHERE id = ? AND status = 'pending'",
            (status, request_id),
        )
        return cur.rowcount > 0

    # -- votes to end a game early ----------------------------------------------------------

    async def vote_end(self, game_id: int, user_id: int, log_length: int) -> tuple[bool, set[int]]:
        """Record `user_id`'s vote to end the game at this log length. Returns whether it is new
        (not cast at this position already) and every user whose vote stands at it."""
        async with self._transaction() as tx:
            r = await tx.fetchone(
                "SELECT log_length FROM end_votes WHERE game_id = ? AND user_id = ?",
                (game_id, user_id),
            )
            new = r is None or int(r[0]) != log_length
            await tx.execute(
                "INSERT INTO end_votes (game_id, user_id, log_length, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET"
                " log_length = excluded.log_length, created_at = excluded.created_at",
                (game_id, user_id, log_length, _now()),
            )
            rows = await tx.fetch(
                "SELECT user_id FROM end_votes WHERE game_id = ? AND log_length = ?",
                (game_id, log_length),
            )
        return new, {int(row[0]) for row in rows}


# a change to a game's players: other processes' cached copies are out of date
_BUMP = "UPDATE games SET revision = revision + 1 WHERE id = ?"


def _seen_query(interaction_id: str) -> Step:
    """A row if the interaction id is already recorded (a move, a game, an undo request)."""
    return Step("SELECT 1 FROM actions WHERE interaction_id = ?"
                " UNION ALL SELECT 1 FROM games WHERE interaction_id = ?"
                " UNION ALL SELECT 1 FROM undo_requests WHERE interaction_id = ?",
                (interaction_id, interaction_id, interaction_id))


def _game_queries(game_id: int) -> list[Step]:
    """A game's row and its players' rows (`_game_record`)."""
    return [
        Step("SELECT * FROM games WHERE id = ?", (game_id,)),
        Step("SELECT user_id, name, engine_id, seat FROM players WHERE game_id = ?"
             " ORDER BY COALESCE(seat, 1000000), joined_at, rowid", (game_id,)),
    ]


def _game_record(rows: Sequence[Any], prow: Sequence[Any]) -> GameRecord | None:
    if not rows:
        return None
    row = rows[0]
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
