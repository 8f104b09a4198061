"""Work no first reply needs waits until no command is in flight (bot/quiet.py): the next
move's groundwork and a move's images."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot import images as images_mod
from bot.core import ServiceCore
from bot.images import ImageDesk
from bot.quiet import Groundwork, Quiet
from engine.game import Game
from engine.randomplay import random_game
from tests.bot.conftest import DRAFT, STOCK_ROUND, Env, play


async def _turns(n: int = 50) -> None:
    for _ in range(n):
        await asyncio.sleep(0.001)


async def test_groundwork_waits_for_no_command_in_flight_then_does_each_game_once() -> None:
    quiet = Quiet()
    done: list[tuple[int, int]] = []

    async def work(game_id: int, stamp: int) -> None:
        done.append((game_id, stamp))

    ground = Groundwork(quiet, work)
    ground.start()
    try:
        with quiet.busy():
            ground.add(1, 5)
            ground.add(2, 7)
            ground.add(1, 6)  # game 1 moved again: one place, its newest stamp
            await _turns()
            assert done == []  # a command is in flight
        for _ in range(200):
            await asyncio.sleep(0.001)
            if len(done) == 2:
                break
        assert done == [(2, 7), (1, 6)]
        ground.add(3, 1)
        await _turns()
        assert done[-1] == (3, 1) and ground.done == 3
    finally:
        await ground.stop()


async def test_groundwork_that_fails_is_logged_and_the_rest_goes_on(
        caplog: pytest.LogCaptureFixture) -> None:
    quiet = Quiet()
    done: list[int] = []

    async def work(game_id: int, stamp: int) -> None:
        if game_id == 1:
            raise RuntimeError("boom")
        done.append(game_id)

    ground = Groundwork(quiet, work)
    ground.start()
    try:
        ground.add(1, 1)
        ground.add(2, 1)
        await _turns()
        assert done == [2]
        assert "groundwork failed" in caplog.text
    finally:
        await ground.stop()


async def test_quiet_wait_returns_at_once_when_idle_and_times_out_when_busy() -> None:
    quiet = Quiet()
    assert await quiet.wait(0.01)
    with quiet.busy():
        assert quiet.in_flight == 1
        t0 = time.perf_counter()
        assert not await quiet.wait(0.05)
        assert time.perf_counter() - t0 >= 0.04
    assert await quiet.wait(0.01)


@pytest.mark.parametrize("title,players,seed", [("18MS", 4, 3), ("1870", 3, 5),
                                                ("18MEX", 5, 7)])
def test_who_acts_without_the_legal_answer_is_who_it_names(
        title: str, players: int, seed: int) -> None:
    """After a move the bot says who acts next without working out the legal answer: the
    same players and entity as the answer names, at every position of a random game."""
    g = random_game(title, seed=seed, players=players, max_actions=180)
    replay = Game(g.title_name, g.players, g.options)
    replay.raw_player_ids = g.raw_player_ids
    checked = 0
    for action in g.export_actions():
        replay.apply(action)
        quick = ServiceCore._turn(replay)
        assert quick == ServiceCore._turn(replay, replay.legal()), action
        checked += 1
    assert checked >= 100


async def test_after_a_move_the_next_moves_groundwork_is_done_when_quiet(env: Env) -> None:
    """Through the bot: once the reply is out and nothing else is in flight, the game's legal
    answer is worked out and the snapshot the next move would take is kept."""
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND[:3])
    service = env.service
    for _ in range(500):
        await asyncio.sleep(0.002)
        if service.groundwork.done >= len(DRAFT) + 3:
            break
    game_id = (await service.store.game_in_channel(thread)).id  # type: ignore[union-attr]
    game = service._cache[game_id].game
    n = len(game._applied)
    assert game._legal_memo is not None and game._legal_memo[0][2] == len(game.log)
    assert any(k in game._checkpoints for k in range(n - 3, n + 1))
    # the next move finds both done: it keeps no snapshot of its own
    kept: list[int] = []
    real = game._snapshot

    def snapshot() -> Any:
        kept.append(len(game._applied))
        return real()

    game._snapshot = snapshot  # type: ignore[method-assign]
    await play(env, thread, STOCK_ROUND[3:4])
    assert kept == []


class _SlowRenderer:
    """Draws nothing, notes when it was asked."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def render(self, kind: str, view: Any, **_: Any) -> bytes:
        self.asked.append(time.perf_counter())
        return b"png"


async def test_a_moves_images_wait_for_the_replies_in_flight_at_most_image_hold(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(images_mod, "IMAGE_HOLD", 0.3)
    quiet = Quiet()
    renderer = _SlowRenderer()
    desk = ImageDesk(renderer, workers=0, quiet=quiet)  # type: ignore[arg-type]
    view: Any = object()
    try:
        with quiet.busy():  # released once no command is in flight
            t0 = time.perf_counter()
            task = asyncio.ensure_future(desk.draw(desk.ticket(1, 1, view, ("map",))))
            await asyncio.sleep(0.1)
            assert renderer.asked == []
        got = await task
        assert [a.filename for a in got] == ["map.png"]
        assert 0.09 < renderer.asked[0] - t0 < 0.3
        with quiet.busy():  # never quiet: drawn after IMAGE_HOLD anyway
            t0 = time.perf_counter()
            got = await desk.draw(desk.ticket(2, 1, view, ("map",)))
            assert got and 0.25 < renderer.asked[1] - t0 < 1.0
        t0 = time.perf_counter()  # nothing in flight: at once
        await desk.draw(desk.ticket(3, 1, view, ("map",)))
        assert renderer.asked[2] - t0 < 0.1
    finally:
        desk.close()
