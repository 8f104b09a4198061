"""Commands in flight, and the work no reply waits for, done when none is.

Under a burst of moves (many games moving at once) every move's first reply waits behind the
work of the moves before it on one event loop and one GIL. So work that no first reply needs
waits until no command is in flight: the collector's passes (bot/collector.py), a move's
images (bot/images.py: held at most `IMAGE_HOLD` seconds, so that a bot never quiet still
draws), the next move's groundwork (`Groundwork`: the snapshot and legal answer the next
move of a game would otherwise work out first) and an import's replay (held at most
`IMPORT_HOLD` seconds, bot/service.py: its own command is in flight, the others are waited for).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterator

from bot.lag import LoopTask

log = logging.getLogger(__name__)


class Quiet:
    """How many commands are in flight (each until its first reply is out)."""

    def __init__(self) -> None:
        self._busy = 0
        self.calms = 0  # times the count fell to none (tests, benches)
        # (most in flight, its future) of those waiting for the count to fall that far
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """A command is being answered (until its first reply is out)."""
        self._busy += 1
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self.calms += 1
            for most, fut in self._waiters:
                if self._busy <= most and not fut.done():
                    fut.set_result(None)

    @property
    def in_flight(self) -> int:
        return self._busy

    async def wait(self, most: float | None = None) -> bool:
        """Until no command is in flight (True), or `most` seconds have passed (False)."""
        return await self.wait_for_others(0, most)

    async def wait_for_others(self, besides: int, most: float | None) -> bool:
        """Until at most `besides` commands are in flight (an import's own command among
        them: True), or `most` seconds have passed (False; None: no limit)."""
        if self._busy <= besides:
            return True
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (besides, fut)
        self._waiters.append(entry)
        try:
            await asyncio.wait_for(fut, most)
        except TimeoutError:
            return False
        finally:
            self._waiters.remove(entry)
        return True


class Groundwork(LoopTask):
    """Per game, the next move's groundwork, done one game at a time when no command is in
    flight: `work(game_id, stamp)` (the service's; it does nothing when the game has moved on
    or left the cache). A game asked for again before its turn keeps one place, its newest
    stamp. Not started (tests of the service alone), nothing is done ahead: each move then does
    its own groundwork first, as it always may."""

    task_name = "groundwork"

    def __init__(self, quiet: Quiet, work: Callable[[int, int], Awaitable[None]]) -> None:
        self.quiet = quiet
        self._work = work
        self._todo: OrderedDict[int, int] = OrderedDict()
        self._more = asyncio.Event()
        self.done = 0  # games worked on (tests, benches)

    def add(self, game_id: int, stamp: int) -> None:
        self._todo[game_id] = stamp
        self._todo.move_to_end(game_id)
        self._more.set()

    async def _run(self) -> None:
        while True:
            await self._more.wait()
            while self._todo:
                await self.quiet.wait()
                if not self._todo:
                    break
                game_id, stamp = self._todo.popitem(last=False)
                try:
                    await self._work(game_id, stamp)
                    self.done += 1
                except Exception:
                    log.exception("game %s: the next move's groundwork failed", game_id)
            self._more.clear()
