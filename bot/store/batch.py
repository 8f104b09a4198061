"""Writes that belong together, sent to the database as one batch; on SQLite, the batches of
moves arriving together share one commit.

A move writes twice (its action, then whose turn it is); each write is a few statements in
one transaction. Sent statement by statement, each is a hop to the SQLite thread and back
through the event loop, and each commit waits for the disk (an fsync: about 4 ms here). One
connection commits one transaction at a time, so 200 moves arriving together waited for 400
fsyncs in a row (1.6 s) before the last one could be answered.

`Step`s run on the database thread in one hop. On SQLite, `GroupCommit` gathers the batches
that arrive while a commit is on the disk and writes them all in the next transaction, each
in its own savepoint: a batch a constraint refuses is rolled back alone (its caller gets the
`IntegrityError`, as before), the others are kept. Every caller's `await` returns only after
the commit holding its batch is on the disk: a move is still stored before it is answered,
and a game's writes stay in order (its caller holds the game's lock).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Step:
    """One statement of a batch; `many`: `params` is a sequence of parameter rows."""

    sql: str
    params: Sequence[Any] = ()
    many: bool = False


Outcome = list[int] | BaseException  # a batch's row counts, or why it was rolled back


def run_group(conn: sqlite3.Connection, batches: Sequence[Sequence[Step]]) -> list[Outcome]:
    """On the SQLite thread: every batch in one transaction, each in a savepoint."""
    out: list[Outcome] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for steps in batches:
            conn.execute("SAVEPOINT batch")
            try:
                counts = []
                for step in steps:
                    cur = (conn.executemany(step.sql, step.params) if step.many
                           else conn.execute(step.sql, step.params))
                    counts.append(int(cur.rowcount or 0))
            except Exception as err:  # this batch alone is undone
                conn.execute("ROLLBACK TO batch")
                conn.execute("RELEASE batch")
                out.append(err)
                continue
            conn.execute("RELEASE batch")
            out.append(counts)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
    return out


Runner = Callable[[Sequence[Sequence[Step]]], Any]  # awaitable list[Outcome]


class GroupCommit:
    """Batches waiting for the next commit; `run` writes a group in one transaction (on the
    database's thread) and is called with one group at a time."""

    def __init__(self, run: Runner, lock: asyncio.Lock) -> None:
        self._run = run
        self._lock = lock  # the connection's: no other transaction interleaves
        self._waiting: list[tuple[Sequence[Step], asyncio.Future[list[int]]]] = []
        self._busy = False
        self._task: asyncio.Future[None] | None = None
        self.commits = 0  # transactions written (for benches)
        self.batches = 0

    async def write(self, steps: Sequence[Step]) -> list[int]:
        future: asyncio.Future[list[int]] = asyncio.get_running_loop().create_future()
        self._waiting.append((steps, future))
        if not self._busy:
            self._busy = True
            self._task = asyncio.ensure_future(self._drain())  # kept: the loop holds tasks weakly
        return await future

    async def _drain(self) -> None:
        try:
            while self._waiting:
                group, self._waiting = self._waiting, []
                try:
                    async with self._lock:
                        outcomes: list[Outcome] = await self._run([s for s, _ in group])
                except BaseException as err:  # nothing of the group was written
                    for _steps, future in group:
                        if not future.done():
                            future.set_exception(err)
                    if not isinstance(err, Exception):
                        raise
                    continue
                self.commits += 1
                self.batches += len(group)
                for (_steps, future), outcome in zip(group, outcomes, strict=True):
                    if future.done():
                        continue
                    if isinstance(outcome, BaseException):
                        future.set_exception(outcome)
                    else:
                        future.set_result(outcome)
        finally:
            self._busy = False
