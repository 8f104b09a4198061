"""Per-game locks that hold across bot processes.

One process: an asyncio lock per game, as before. Processes sharing a PostgreSQL database:
the asyncio lock, then a PostgreSQL advisory lock on the game (held until the work under it
is done), so that a move is judged and stored against the game as every process left it.
A process keeps replayed games in memory: entering the lock it compares the game's stored
stamp (revision, log length) with the one it saw when it last left the lock, and drops its
copy (`on_stale`) when another process changed the game in between.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.store.repo import Store

CREATE_KEY = -1  # creating or importing a game (one per channel at a time)


class GameLock:
    def __init__(self, locks: GameLocks, key: int) -> None:
        self._locks = locks
        self._key = key
        self._local = asyncio.Lock()
        self._held: Any = None

    def locked(self) -> bool:
        return self._local.locked()

    async def __aenter__(self) -> None:
        await self._local.acquire()
        store = self._locks.store
        if not store.shared:
            return
        try:
            held = store.lock(self._key)
            await held.__aenter__()
            self._held = held
            if self._key > 0:
                stamp = await store.game_stamp(self._key)
                if self._locks.stamps.get(self._key) != stamp:
                    self._locks.on_stale(self._key)
        except BaseException:
            await self._release(None, None, None)
            raise

    async def __aexit__(self, *exc: Any) -> None:
        store = self._locks.store
        try:
            if self._held is not None and self._key > 0:
                # what this process leaves behind (its own writes included)
                self._locks.stamps[self._key] = await store.game_stamp(self._key)
        finally:
            await self._release(*exc)

    async def _release(self, *exc: Any) -> None:
        held, self._held = self._held, None
        try:
            if held is not None:
                await held.__aexit__(*exc)
        finally:
            self._local.release()


class GameLocks:
    """`locks[game_id]`: the game's lock (created on first use)."""

    def __init__(self, store: Store, on_stale: Callable[[int], None]) -> None:
        self.store = store
        self.on_stale = on_stale
        self.stamps: dict[int, tuple[int, int]] = {}
        self._locks: dict[int, GameLock] = {}

    def __getitem__(self, key: int) -> GameLock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = GameLock(self, key)
        return lock
