"""The cyclic collector's passes at quiet moments: when no command is being answered.

A young pass walks every tracked object made since the last pass that is still alive. Under
many moves at once most of those belong to the commands in flight (their interactions, tasks,
the states and keys of the moves being made), which die a moment later: a pass then walks them
for nothing, and holds every waiting reply while it does (bench/README.md, issue 13). So the
bot asks for the pass itself once no command is in flight (bot/quiet.py counts them) and
enough objects were made (`young`); the automatic threshold (bot/app.py) is only the backstop for a
loop that is seldom quiet.

The pass is CPython's own automatic one, asked for now (`pass_now`): it takes the young
generation, or an older one when that one is due by CPython's rules (its count past its
threshold, and for the oldest, enough objects waiting in it), as an automatic pass would.
"""

from __future__ import annotations

import asyncio
import gc

from bot.lag import LoopTask
from bot.quiet import Quiet


class _Probe:
    """An object the collector tracks: making one runs the collector's threshold check."""


def pass_now() -> None:
    """The collector's automatic pass now (if anything was made since the last one): its
    young threshold lowered to 1 for the making of one tracked object."""
    gen0, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(1, gen1, gen2)
    try:
        _Probe()
    finally:
        gc.set_threshold(gen0, gen1, gen2)


class QuietCollector(LoopTask):
    """Runs the young pass when no command is in flight and `young` objects were made since
    the last pass (0: never; the automatic passes alone). `interval`: the least time between
    two looks (a quiet loop is looked at no more often)."""

    task_name = "collector"

    def __init__(self, quiet: Quiet | None = None, young: int = 20_000,
                 interval: float = 0.02) -> None:
        self.quiet = quiet if quiet is not None else Quiet()
        self.young = young
        self.interval = interval
        self.passes = 0  # passes asked for (tests, benches)

    def start(self) -> None:
        if self.young > 0:
            super().start()

    async def _run(self) -> None:
        while True:
            await self.quiet.wait()
            if gc.isenabled() and gc.get_count()[0] >= self.young:
                pass_now()
                self.passes += 1
            await asyncio.sleep(self.interval)
