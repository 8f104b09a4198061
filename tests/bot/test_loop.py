"""The event loop `python -m bot` runs on (uvloop where installed: bot.app.loop_factory), the
bot playing through the fake Discord on it, and the render workers' lower priority."""

from __future__ import annotations

import asyncio
import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest

from bot.app import loop_factory, run_loop
from bot.images import _warm
from tests.bot.conftest import DRAFT, Env, play

uvloop = pytest.importorskip("uvloop")


def test_the_bot_runs_on_uvloop() -> None:
    assert loop_factory() is uvloop.new_event_loop

    async def which() -> str:
        return type(asyncio.get_running_loop()).__module__

    assert run_loop(which()).startswith("uvloop")


def test_a_draft_through_the_fake_discord_on_uvloop(env_factory: Any, tmp_path: Path) -> None:
    async def scenario() -> None:
        assert type(asyncio.get_running_loop()).__module__.startswith("uvloop")
        env: Env = env_factory(tmp_path, tmp_path / "bot.sqlite3")
        await env.start()
        try:
            thread = await env.new_game(env.alice, env.bob, env.cy)
            replies = await play(env, thread, DRAFT)
            assert len(replies) == 3 and await env.log_types() == ["bid", "bid", "bid"]
            assert "to act" in replies[-1].content
            assert not env.errors and not env.fake.unknown
        finally:
            await env.stop()

    run_loop(scenario())


class _Plain:
    """A renderer with no warm-up (the worker only lowers its priority)."""


def _niceness() -> int:
    return os.nice(0)


def test_render_workers_run_at_a_lower_priority() -> None:
    mine = os.nice(0)
    with ProcessPoolExecutor(1, mp_context=get_context("spawn"), initializer=_warm,
                             initargs=(_Plain(), 3)) as pool:
        assert pool.submit(_niceness).result(60) == min(19, mine + 3)
