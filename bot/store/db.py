"""The two databases the store runs on, behind one small interface: SQLite (aiosqlite, one
process, the default) and PostgreSQL (asyncpg, shared by several bot processes).

The store's SQL is written once, in the portable subset both accept (`?` placeholders,
`INSERT ... ON CONFLICT`, `RETURNING id`). What PostgreSQL spells differently is translated
here, explicitly and nowhere else:

- queries: `?` becomes `$1, $2, ...`; `IS ?` (SQLite's null-safe equality) becomes
  `IS NOT DISTINCT FROM $n`;
- migrations (`pg_migration`): `INTEGER PRIMARY KEY AUTOINCREMENT` becomes an identity column,
  `INTEGER` becomes `BIGINT` (Discord ids need 64 bits; SQLite's INTEGER has them),
  `REAL` becomes `DOUBLE PRECISION` (PostgreSQL's REAL is 4 bytes), and the tables the
  store orders by SQLite's implicit `rowid` get an explicit `rowid` identity column.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.batch import GroupCommit, Outcome, Step, run_group


class IntegrityError(Exception):
    """A constraint refused a write (both databases); `str(err)` names the constraint."""


@dataclass(frozen=True, slots=True)
class Result:
    rowcount: int


class Conn:
    """What the store's SQL runs on: the database outside a transaction, or the transaction."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        raise NotImplementedError

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None


class Db(Conn):
    dialect: str = ""
    # several processes may write: nothing read may be trusted from memory alone
    shared: bool = False

    def transaction(self) -> Any:  # an async context manager yielding a Conn
        raise NotImplementedError

    async def write_batch(self, steps: Sequence[Step]) -> list[int]:
        """The steps in one transaction (bot/store/batch.py); their row counts."""
        async with self.transaction() as tx:
            out = []
            for step in steps:
                if step.many:
                    await tx.executemany(step.sql, step.params)
                    out.append(-1)
                else:
                    out.append((await tx.execute(step.sql, step.params)).rowcount)
            return out

    async def fetch_batch(self, queries: Sequence[Step]) -> list[list[Any]]:
        """The rows of each query (on SQLite in one hop to its thread)."""
        return [await self.fetch(q.sql, q.params) for q in queries]

    def lock(self, key: int) -> Any:
        """An async context manager: exclusive across every process sharing the database."""
        raise NotImplementedError

    async def migrate(self, migrations: Sequence[tuple[int, str, str]], now: str) -> int:
        raise NotImplementedError

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT MAX(version) FROM schema_version")
        return int(row[0]) if row and row[0] is not None else 0

    async def close(self) -> None:
        raise NotImplementedError


# -- SQLite --------------------------------------------------------------------------------


class _SqliteConn(Conn):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:  # one hop to the connection's thread (a cursor's execute, fetch, close: three)
            return list(await self._db.execute_fetchall(sql, params))
        except sqlite3.IntegrityError as err:
            raise IntegrityError(str(err)) from err

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        try:
            cur = await self._db.execute(sql, params)
        except sqlite3.IntegrityError as err:
            raise IntegrityError(str(err)) from err
        return Result(int(cur.rowcount or 0))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(sql, rows)
        except sqlite3.IntegrityError as err:
            raise IntegrityError(str(err)) from err


class SqliteDb(Db):
    """One aiosqlite connection (WAL), one process. Reads run at once; writes and
    transactions take turns (one connection: transactions must not interleave)."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._conn = _SqliteConn(db)
        self._tx = asyncio.Lock()
        self._locks: dict[int, asyncio.Lock] = {}
        self.group = GroupCommit(self._run_group, self._tx)

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDb:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        return cls(db)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._conn.fetch(sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        async with self._tx:
            return await self._conn.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        async with self._tx:
            await self._conn.executemany(sql, rows)

    async def _run_group(self, batches: Sequence[Sequence[Step]]) -> list[Outcome]:
        # aiosqlite runs the function on its connection's thread (its own queue, one hop)
        return await self._db._execute(run_group, self._db._conn, batches)

    async def write_batch(self, steps: Sequence[Step]) -> list[int]:
        try:
            return await self.group.write(steps)
        except sqlite3.IntegrityError as err:
            raise IntegrityError(str(err)) from err

    async def fetch_batch(self, queries: Sequence[Step]) -> list[list[Any]]:
        return await self._db._execute(_fetch_all, self._db._conn, queries)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        async with self._tx:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    @asynccontextmanager
    async def lock(self, key: int) -> AsyncIterator[None]:
        # one process owns the file: the callers' own asyncio locks already exclude
        yield

    async def migrate(self, migrations: Sequence[tuple[int, str, str]], now: str) -> int:
        await self._db.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL,"
            " name TEXT NOT NULL, applied_at TEXT NOT NULL)")
        current = await self.schema_version()
        for version, name, sql in migrations:
            if version <= current:
                continue
            # executescript commits first; wrap the script in its own transaction
            await self._db.executescript(
                "BEGIN;\n" + sql + "\nINSERT INTO schema_version (version, name, applied_at) "
                f"VALUES ({version:d}, '{name.replace(chr(39), '')}', '{now}');\nCOMMIT;"
            )
            current = version
        return current

    async def close(self) -> None:
        await self._db.close()


def _fetch_all(conn: sqlite3.Connection, queries: Sequence[Step]) -> list[list[Any]]:
    return [list(conn.execute(q.sql, q.params).fetchall()) for q in queries]


# -- PostgreSQL ----------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"'[^']*'|\bIS \?|\?")


def pg_query(sql: str) -> str:
    """The store's SQL in PostgreSQL's spelling (see the module's docstring)."""
    n = 0

    def sub(m: re.Match[str]) -> str:
        nonlocal n
        text = m.group(0)
        if text.startswith("'"):
            return text  # a string literal stays as written
        n += 1
        return f"IS NOT DISTINCT FROM ${n}" if text.startswith("IS") else f"${n}"

    return _PLACEHOLDER.sub(sub, sql)


# tables the store orders by insertion (SQLite's implicit rowid)
_ROWID_TABLES = ("players", "seat_ballots")


def pg_migration(sql: str) -> str:
    """A migration written for SQLite in PostgreSQL's spelling (see the module's docstring)."""
    sql = re.sub(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b",
                 "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", sql)
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    for table in _ROWID_TABLES:
        sql = re.sub(rf"(CREATE TABLE {table} \()\n",
                     r"\1\n    rowid BIGINT GENERATED ALWAYS AS IDENTITY,\n", sql)
    return sql


def _rowcount(status: str) -> int:
    """asyncpg's command status ('UPDATE 3', 'INSERT 0 1', 'DELETE 0') as a row count."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _pg_errors() -> tuple[type[BaseException], ...]:
    import asyncpg

    return (asyncpg.IntegrityConstraintViolationError,)


class _PgConn(Conn):
    def __init__(self, con: Any) -> None:
        self._con = con  # an asyncpg connection or pool (both have fetch/execute)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        try:
            return list(await self._con.fetch(pg_query(sql), *params))
        except _pg_errors() as err:
            raise IntegrityError(str(err)) from err

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        try:
            status = await self._con.execute(pg_query(sql), *params)
        except _pg_errors() as err:
            raise IntegrityError(str(err)) from err
        return Result(_rowcount(str(status)))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = [tuple(r) for r in rows]
        if not rows:
            return
        try:
            await self._con.executemany(pg_query(sql), rows)
        except _pg_errors() as err:
            raise IntegrityError(str(err)) from err


# advisory lock keys: (namespace, key) pairs, so that the bot's locks meet no one else's
_LOCK_SPACE = 0x18_0000
_MIGRATION_LOCK = 0


class PgDb(Db):
    """An asyncpg pool for the store's SQL, and a second one that holds advisory locks (a held
    lock keeps its connection; a separate pool means holders can always still query)."""

    dialect = "postgres"
    shared = True

    def __init__(self, pool: Any, lock_pool: Any) -> None:
        self._pool = pool
        self._lock_pool = lock_pool
        self._conn = _PgConn(pool)

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10, lock_pool_size: int = 20) -> PgDb:
        import asyncpg

        pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        lock_pool = await asyncpg.create_pool(url, min_size=0, max_size=lock_pool_size)
        return cls(pool, lock_pool)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self._conn.fetch(sql, params)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> Result:
        return await self._conn.execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Conn]:
        async with self._pool.acquire() as con, con.transaction():
            yield _PgConn(con)

    @asynccontextmanager
    async def lock(self, key: int) -> AsyncIterator[None]:
        async with self._lock_pool.acquire() as con:
            await con.execute("SELECT pg_advisory_lock($1, $2)", _LOCK_SPACE, key)
            try:
                yield
            finally:
                await con.execute("SELECT pg_advisory_unlock($1, $2)", _LOCK_SPACE, key)

    async def migrate(self, migrations: Sequence[tuple[int, str, str]], now: str) -> int:
        async with self._pool.acquire() as con, con.transaction():
            # two processes starting together: one migrates, the other waits, then sees it done
            await con.execute("SELECT pg_advisory_xact_lock($1, $2)", _LOCK_SPACE + 1,
                              _MIGRATION_LOCK)
            await con.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL,"
                " name TEXT NOT NULL, applied_at TEXT NOT NULL)")
            current = int(await con.fetchval("SELECT COALESCE(MAX(version), 0)"
                                              " FROM schema_version"))
            for version, name, sql in migrations:
                if version <= current:
                    continue
                await con.execute(pg_migration(sql))
                await con.execute("INSERT INTO schema_version (version, name, applied_at)"
                                  " VALUES ($1, $2, $3)", version, name, now)
                current = version
        return current

    async def close(self) -> None:
        await self._pool.close()
        await self._lock_pool.close()


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(("postgres://", "postgresql://"))


async def open_db(target: str | Path) -> Db:
    """A SQLite file path, or a PostgreSQL URL (postgresql://user@host:port/dbname)."""
    if is_postgres_url(target):
        return await PgDb.open(str(target))
    return await SqliteDb.open(target)
