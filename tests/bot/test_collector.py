"""The cyclic collector's young passes at quiet moments (bot/collector.py)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import discord
import pytest

from bot.collector import QuietCollector, pass_now
from tests.bot.conftest import DRAFT, Env, play


@pytest.fixture
def passes() -> Iterator[list[int]]:
    """The generations of the collector's passes, as they start; automatic passes only past
    a threshold no test reaches, the older generations never due."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    old = gc.get_threshold()
    gc.set_threshold(10_000_000, 1_000_000, 1_000_000)
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*old)


def test_a_pass_asked_for_is_the_automatic_one_and_keeps_the_thresholds(
        passes: list[int]) -> None:
    keep = [[i] for i in range(3000)]
    assert gc.get_count()[0] >= 3000
    before = gc.get_threshold()
    pass_now()
    assert passes == [0] and gc.get_count()[0] < 3000
    assert gc.get_threshold() == before
    del keep


async def test_no_pass_while_a_command_is_in_flight_one_once_none_is(passes: list[int]) -> None:
    collector = QuietCollector(young=2000, interval=0.001)
    collector.start()
    try:
        with collector.quiet.busy():
            with collector.quiet.busy():
                keep = [[i] for i in range(5000)]
                for _ in range(50):  # the collector's task runs meanwhile
                    await asyncio.sleep(0.001)
            for _ in range(50):  # one command is still in flight
                await asyncio.sleep(0.001)
            assert collector.passes == 0 and passes == []
        for _ in range(1000):
            await asyncio.sleep(0.001)
            if collector.passes:
                break
        assert collector.passes == 1 and passes == [0]
        for _ in range(50):  # nothing made since: no other pass
            await asyncio.sleep(0.001)
        assert collector.passes == 1
        del keep
    finally:
        await collector.stop()


async def test_young_zero_leaves_the_passes_to_the_collector(passes: list[int]) -> None:
    collector = QuietCollector(young=0, interval=0.001)
    collector.start()
    keep = [[i] for i in range(5000)]
    for _ in range(50):
        await asyncio.sleep(0.001)
    assert collector.passes == 0 and passes == []
    await collector.stop()
    del keep


async def test_an_answered_interaction_is_freed_without_the_collector(env: Env) -> None:
    """Its response object refers back to it (discord.py): the Discord layer drops that
    reference once the reply and its images are out, so the interaction goes with its last
    reference, not at the collector's next pass."""
    thread = await env.new_game(env.alice, env.bob, env.cy)
    gc.collect()
    gc.disable()
    try:
        await play(env, thread, DRAFT)  # three moves, each with its images
        await env.service.images.idle()
        await env.settle()
        alive = [o for o in gc.get_objects() if isinstance(o, discord.Interaction)]
        assert alive == []
    finally:
        gc.enable()
