"""An event-loop lag monitor: logs when something held the loop for longer than it should.

Every engine call and every image runs off the loop (bot/core.py, bot/images.py), so a
warning here names a fault to fix, not a slow game."""

from __future__ import annotations

import asyncio
import contextlib
import logging

log = logging.getLogger(__name__)


class LoopTask:
    """A task of the event loop that runs until stopped (`_run`), started once."""

    task_name = "loop-task"
    _task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.task_name)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        raise NotImplementedError


class LagMonitor(LoopTask):
    task_name = "lag-monitor"

    def __init__(self, threshold: float = 0.1, interval: float = 0.05) -> None:
        self.threshold = threshold  # seconds the loop may be late before a warning
        self.interval = interval
        self.warnings = 0
        self.worst = 0.0  # the longest lag seen, in seconds

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(self.interval)
            lag = loop.time() - start - self.interval
            self.worst = max(self.worst, lag)
            if lag > self.threshold:
                self.warnings += 1
                log.warning("the event loop was blocked for %.0f ms", lag * 1000)
