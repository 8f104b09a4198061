"""The render workers warm up when they start (bot/images.py `_warm`, RealRenderer.warm): the
first image a player waits for is drawn by a process that has drawn before."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping
from pathlib import Path

from bot.images import ImageDesk, _warm
from engine.view import GameView


class MarkingRenderer:
    """Its warm-up writes the worker's pid to a file; its image is that file's content."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def warm(self) -> None:
        self.path.write_text(str(os.getpid()))

    def render(self, kind: str, view: GameView,
               clocks: Mapping[str, float] | None = None) -> bytes | None:
        return self.path.read_bytes() if self.path.exists() else b"cold"


class PlainRenderer:
    def render(self, kind: str, view: GameView,
               clocks: Mapping[str, float] | None = None) -> bytes | None:
        return b"png"


def test_a_renderer_without_a_warm_up_is_left_alone() -> None:
    _warm(PlainRenderer())  # no error


async def test_started_workers_warm_up_before_their_first_image(tmp_path: Path) -> None:
    from render.demo import make_view

    mark = tmp_path / "warmed"
    desk = ImageDesk(MarkingRenderer(mark), workers=1)
    try:
        desk.start()
        job = desk.ticket(1, 0, make_view("18MS"), ("map",))
        got = await asyncio.wait_for(desk.draw(job), 120)
    finally:
        desk.close()
    assert mark.exists()
    assert [a.data for a in got] == [mark.read_bytes()]
    assert int(mark.read_text()) != os.getpid()  # in the worker process


def test_threads_need_no_start() -> None:
    desk = ImageDesk(PlainRenderer(), workers=0)
    desk.start()
    assert desk._pools == [None]
