"""Work no first reply needs waits until no command is in flight (bot/quiet.py): the next
move's groundwork, a move's images, an import's replay (the others but its own)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot import images as images_mod
from bot.core import ServiceCore, Who
from bot.images import ImageDesk
from bot.quiet import Groundwork, Quiet
from bot.replies import BotError
from engine.game import Game
from engine.randomplay import random_game
from tests.bot.conftest import DRAFT, STOCK_ROUND, Env, play, user_of


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


async def test_waiting_for_the_other_commands_ends_when_only_its_own_is_left() -> None:
    """An import (its own command in flight) waits for the others, at most its hold."""
    quiet = Quiet()
    assert await quiet.wait_for_others(1, 0.01)  # none in flight
    with quiet.busy():  # the import's own command
        assert await quiet.wait_for_others(1, 0.01)
        other = quiet.busy()
        other.__enter__()
        waiting = asyncio.ensure_future(quiet.wait_for_others(1, 5.0))
        await _turns(5)
        assert not waiting.done()
        other.__exit__(None, None, None)  # the other command's first reply is out
        assert await asyncio.wait_for(waiting, 1.0) is True
        with quiet.busy():  # a command that never ends: the hold runs out
            t0 = time.perf_counter()
            assert await quiet.wait_for_others(1, 0.05) is False
            assert time.perf_counter() - t0 >= 0.04
    assert not quiet._waiters


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


def _count_hops(service: Any) -> list[str]:
    """The names of the engine hops the service makes from now on (run_engine wrapped)."""
    hops: list[str] = []
    real = service.run_engine

    async def counted(fn: Any, *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(fn, "__name__", str(fn)))
        return await real(fn, *args, **kwargs)

    service.run_engine = counted
    return hops


async def _groundwork_done(env: Env, n: int) -> None:
    for _ in range(500):
        await asyncio.sleep(0.002)
        if env.service.groundwork.done >= n:
            return


async def test_the_groundwork_names_the_legal_answer_and_the_next_move_takes_one_engine_hop(
        env: Env) -> None:
    """The groundwork also works out whose turn it is and the legal answer with names
    (Live.ready): the next move finds them (no hop of its own for them: one engine hop, the
    move), the same as worked out afresh; a refused move (the state rolled back, the kept
    legal answer dropped) is not judged on them."""
    from bot import naming

    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND[:3])
    await _groundwork_done(env, len(DRAFT) + 3)
    service = env.service
    game_id = (await service.store.game_in_channel(thread)).id  # type: ignore[union-attr]
    live = service._cache[game_id]
    ready = service._kept_ready(live)
    assert ready is not None
    legal, turn, named = ready
    assert live.game.legal() is legal
    assert turn == ServiceCore._turn(live.game, legal)
    assert named == naming.named(live.game, legal)  # names and legal fields alike
    # the next move: one engine hop before its reply (the move itself)
    hops = _count_hops(service)
    await play(env, thread, STOCK_ROUND[3:4])
    assert hops[0] == "_engine_move" and "_early" not in hops  # (then its images)
    # the state changed: what was kept no longer holds; the groundwork works it out again
    assert live.game.kept_legal() is not legal
    await _groundwork_done(env, len(DRAFT) + 4)
    again = service._kept_ready(live)
    assert again is not None and again[0] is not legal
    # a refused move rolls the state back: the kept answer is not used after it
    hops.clear()
    bob = user_of(env, "B")
    with pytest.raises(BotError):  # A's share: the engine refuses it
        await service.act(Who(bob.id, bob.name), game_id,
                          lambda named: {"type": "buy_shares", "shares": ["GMO_2"],
                                         "percent": 10}, interaction_id=None)
    assert hops == ["_engine_move"]
    assert service._kept_ready(live) is None
    hops.clear()
    await play(env, thread, STOCK_ROUND[4:5])  # one hop: the legal answer, then the move
    assert hops[0] == "_early" and "_engine_move" not in hops


async def test_an_autocomplete_uses_and_keeps_the_named_legal_answer(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT)
    await _groundwork_done(env, len(DRAFT))
    service = env.service
    game_id = (await service.store.game_in_channel(thread)).id  # type: ignore[union-attr]
    live = service._cache[game_id]
    ready = service._kept_ready(live)
    assert ready is not None
    up = user_of(env, "A")
    assert await service.legal_for(thread, up.id) is ready[2]
    assert await service.legal_for(thread, user_of(env, "B").id) is None
    live.ready = None  # not worked out ahead: the autocomplete's answer is kept
    named = await service.legal_for(thread, up.id)
    assert named is not None and service._kept_ready(live) == (live.game.legal(), ready[1], named)


async def test_a_move_whose_legal_answer_was_not_kept_answers_the_same_in_one_hop(
        env: Env) -> None:
    """Without the legal answer worked out ahead (Live.ready dropped), a command works it out
    with the move built and applied in the same engine hop (`_early`): every reply (not your
    turn, a builder's refusal, the engine's refusal, a move) is the
    one the command gives with the answer kept."""
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND)
    service = env.service
    game_id = (await service.store.game_in_channel(thread)).id  # type: ignore[union-attr]
    await _groundwork_done(env, len(DRAFT) + len(STOCK_ROUND))
    live = service._cache[game_id]
    real = service.run_engine  # (the hops below are not counted)
    hops = _count_hops(service)
    refusals = [("B", "pass", {}),  # not Bob's turn
                ("A", "lay", {"hex": "H6", "tile": "57", "rotation": "2"}),
                ("A", "lay", {"hex": "Z99", "tile": "57"}),
                ("A", "train", {"train": "nope"}),  # (a train: the loop asks first)
                ("A", "dividend", {"kind": "payout"})]
    said: dict[bool, list[tuple[str, bool]]] = {}
    for kept in (True, False):
        said[kept] = []
        for who, name, options in refusals:
            if kept:  # (an engine's refusal drops it: worked out again)
                if service._kept_ready(live) is None:
                    live.ready = await real(service._get_ready, live.game)
                assert service._kept_ready(live) is not None
            else:
                live.ready = None
            hops.clear()
            sent = await env.cmd(user_of(env, who), thread, name, **options)
            assert sent.ephemeral
            said[kept].append((sent.content, bool(sent.files)))
            assert ("_early" not in hops) if kept else hops[0] == "_early"
    assert said[True] == said[False]
    assert "not your turn" in said[False][0][0]
    live.ready = None
    hops.clear()
    sent = (await play(env, thread, [("A", "lay", {"hex": "H6", "tile": "57", "rotation": "1"})]))[0]
    assert hops[0] == "_early" and "_engine_move" not in hops
    assert "lays" in sent.content.lower()
