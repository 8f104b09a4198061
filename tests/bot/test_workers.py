"""The bot under load: the first reply does not wait for images, images are drawn newest
first and not twice, the engine never runs on the event loop, the loop's lag is watched, and
the cache of loaded games keeps to a byte budget."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.images import ImageDesk, LazyView
from bot.lag import LagMonitor
from bot.ports import RealRenderer, Renderer
from bot.service import Service
from bot.sizing import deep_size
from bot.store import Store
from tests.bot.conftest import DRAFT, STOCK_ROUND, Env, play


class GatedRenderer:
    """The real renderer, but each image waits for the test to open the gate."""

    def __init__(self) -> None:
        self.real = RealRenderer()
        self.gate = threading.Event()
        self.calls: list[str] = []

    def render(self, kind: str, view: Any, clocks: Any = None) -> bytes | None:
        self.calls.append(kind)
        assert self.gate.wait(30), "the test never opened the gate"
        return self.real.render(kind, view, clocks)


class CountingRenderer:
    def __init__(self, gate: threading.Event | None = None) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.gate = gate

    def render(self, kind: str, view: Any, clocks: Any = None) -> bytes | None:
        if self.gate is not None:
            assert self.gate.wait(30)
        self.calls.append((kind, view))
        return f"{kind}:{view}".encode()


@pytest.fixture
def renderer() -> Renderer:
    return GatedRenderer()


async def test_first_reply_is_sent_before_its_images_are_drawn(env: Env) -> None:
    gated = env.renderer
    assert isinstance(gated, GatedRenderer)
    gated.gate.set()
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT)
    gated.gate.clear()
    # Alice pars GMO: the market changes. The answer comes while no image can be drawn.
    sent = await env.fake.invoke(env.alice, thread, "par", corporation="GMO", price="70")
    assert "GMO" in sent.content and sent.files == []
    assert f"<@{env.bob.id}> to act" in sent.content  # the ping is in the first reply
    for _ in range(200):  # its images are drawn meanwhile, held at the gate
        if "market" in gated.calls:
            break
        await asyncio.sleep(0.05)
    assert "market" in gated.calls
    gated.gate.set()
    await env.settle()
    final = env.fake.final(sent)
    assert "market.png" in [n for n, _ in final.files]
    assert final.files[0][1].startswith(b"\x89PNG")


async def test_the_engine_never_runs_on_the_event_loop(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.game import Game

    env.renderer.gate.set()  # type: ignore[attr-defined]
    loop_thread = threading.get_ident()
    on_loop: list[str] = []
    for name in ("apply", "legal", "view", "load_log", "acting_players", "result"):
        original = getattr(Game, name)

        def wrapped(self: Any, *a: Any, _name: str = name, _orig: Any = original,
                    **kw: Any) -> Any:
            if threading.get_ident() == loop_thread:
                on_loop.append(_name)
            return _orig(self, *a, **kw)

        monkeypatch.setattr(Game, name, wrapped)
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND)
    await env.cmd(env.alice, thread, "lay", hex="H6", tile="57-0", rotation="1")
    await env.cmd(env.bob, thread, "status")
    await env.cmd(env.alice, thread, "undo")
    env.service.evict(1)  # a reload replays the log on an engine thread too
    await env.cmd(env.alice, thread, "redo")
    await env.fake.autocomplete(env.alice, thread, "lay", "hex")
    assert on_loop == []


async def test_images_drawn_late_show_the_state_their_move_left(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's full view is built when its images' turn to be drawn comes (LazyView): they
    show the state that move left, and a move superseded before its turn has no view built."""
    from engine.game import Game

    gated = env.renderer
    assert isinstance(gated, GatedRenderer)
    gated.gate.set()
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT)
    await env.settle()
    gated.gate.clear()
    gated.calls.clear()
    built: list[int] = []
    original = Game.view

    def counted(self: Game) -> Any:
        built.append(len(self.log))
        return original(self)

    monkeypatch.setattr(Game, "view", counted)
    first = await env.fake.invoke(env.alice, thread, "par", corporation="GMO", price="70")
    for _ in range(200):  # its images are being drawn, held at the gate (the only slot)
        if gated.calls:
            break
        await asyncio.sleep(0.05)
    assert gated.calls and len(built) == 1
    second = await env.fake.invoke(env.bob, thread, "par", corporation="IC", price="70,1,2")
    third = await env.fake.invoke(env.cy, thread, "buy", corporation="GMO")
    gated.gate.set()
    await env.settle()
    assert env.fake.final(second).files == []  # left to the newer move: never built
    assert built == [built[0], built[0] + 2]
    files = dict(env.fake.final(third).files)
    live = await env.service._live(1)
    assert files["market.png"] == RealRenderer().render("market", original(live.game))
    assert "market.png" in dict(env.fake.final(first).files)


async def test_only_the_newest_state_of_a_game_is_drawn() -> None:
    gate = threading.Event()
    renderer = CountingRenderer(gate)
    desk = ImageDesk(renderer, workers=0)  # one drawing at a time
    first = desk.ticket(7, 1, "v1", ("map",))
    busy = asyncio.ensure_future(desk.draw(first))  # holds the only slot until the gate opens
    await asyncio.sleep(0.05)
    # two more moves of game 7 come in while the first is drawn
    second = desk.ticket(7, 2, "v2", ("market",))
    third = desk.ticket(7, 3, "v3", ("card",))
    later = [asyncio.ensure_future(desk.draw(second)), asyncio.ensure_future(desk.draw(third))]
    gate.set()
    got_first = await busy
    got_second, got_third = await asyncio.gather(*later)
    assert [a.filename for a in got_first] == ["map.png"]
    assert got_second == []  # left to the newer move
    # the newest move draws what the skipped one needed, from the newest state
    assert [a.filename for a in got_third] == ["market.png", "card.png"]
    assert [a.data for a in got_third] == [b"market:v3", b"card:v3"]
    assert renderer.calls == [("map", "v1"), ("market", "v3"), ("card", "v3")]
    assert desk.superseded == 1
    desk.close()


def _lazy(name: str, built: list[str], state_gone: bool = False,
          changed: tuple[str, ...] = ()) -> LazyView:
    """A state's LazyView whose builder finds the kinds `changed` (its view: the name, built
    only when wanted or something changed)."""
    async def build(wanted: bool) -> Any:
        if state_gone:
            built.append(name)
            return None
        if not (wanted or changed):
            return changed, None
        built.append(name)
        return changed, name

    return LazyView(build)


async def test_a_lazy_view_is_built_only_for_a_state_that_is_drawn() -> None:
    gate = threading.Event()
    renderer = CountingRenderer(gate)
    desk = ImageDesk(renderer, workers=0)  # one drawing at a time
    built: list[str] = []
    first = desk.ticket(7, 1, _lazy("v1", built), ("map",))
    busy = asyncio.ensure_future(desk.draw(first))  # its view built; holds the slot
    await asyncio.sleep(0.05)
    second = desk.ticket(7, 2, _lazy("v2", built), ("market",))
    third = desk.ticket(7, 3, _lazy("v3", built), ("card",))
    later = [asyncio.ensure_future(desk.draw(second)), asyncio.ensure_future(desk.draw(third))]
    gate.set()
    assert [a.data for a in await busy] == [b"map:v1"]
    got_second, got_third = await asyncio.gather(*later)
    assert got_second == [] and [a.data for a in got_third] == [b"market:v3", b"card:v3"]
    assert built == ["v1", "v3"]  # the superseded state's view was never built
    desk.close()


async def test_a_job_whose_state_is_gone_leaves_its_images_to_the_next_ticket() -> None:
    renderer = CountingRenderer()
    desk = ImageDesk(renderer, workers=0)
    built: list[str] = []
    # the game moved on before the job's turn came, and that move changed no image
    gone = desk.ticket(3, 1, _lazy("v1", built, state_gone=True), ("map", "market"))
    assert await desk.draw(gone) == [] and desk.waiting(3)
    newer = desk.ticket(3, 2, _lazy("v2", built), ())  # (play.py tickets it: images wait)
    assert [a.data for a in await desk.draw(newer)] == [b"map:v2", b"market:v2"]
    assert not desk.waiting(3) and built == ["v1", "v2"]
    desk.close()


async def test_what_changed_is_worked_out_when_the_images_turn_comes() -> None:
    """A move's ticket may name no kinds: its LazyView finds what changed when its turn
    comes (and a state superseded after that passes them to the newer one); a state that
    changed no image has no view built and draws nothing."""
    renderer = CountingRenderer()
    desk = ImageDesk(renderer, workers=0)
    built: list[str] = []
    first = desk.ticket(5, 1, _lazy("v1", built, changed=("map",)), ())
    assert [a.data for a in await desk.draw(first)] == [b"map:v1"]
    # the second state is looked at (the market changed) while a third move comes in
    looking = asyncio.Event()
    go_on = asyncio.Event()

    async def slow(wanted: bool) -> Any:
        looking.set()
        await go_on.wait()
        built.append("v2")
        return ("market",), "v2"

    drawing = asyncio.ensure_future(desk.draw(desk.ticket(5, 2, LazyView(slow), ())))
    await asyncio.wait_for(looking.wait(), 5)
    third = desk.ticket(5, 3, _lazy("v3", built, changed=("card",)), ())
    go_on.set()
    assert await drawing == []  # superseded: its kinds pass to the third
    assert [a.data for a in await desk.draw(third)] == [b"market:v3", b"card:v3"]
    # nothing changed, nothing else pending: no view built, nothing drawn
    quiet = desk.ticket(5, 4, _lazy("v4", built), ())
    assert await desk.draw(quiet) == [] and not desk.waiting(5)
    assert built == ["v1", "v2", "v3"]
    desk.close()


async def test_an_image_of_the_same_state_is_not_drawn_twice() -> None:
    renderer = CountingRenderer()
    desk = ImageDesk(renderer, workers=0)
    a = await desk.now(1, 5, "s5", ("map", "market"))
    b = await desk.now(1, 5, "s5", ("map",))  # /picture map of the same state
    c = await desk.now(1, 6, "s6", ("map",))  # the state moved on: drawn again
    assert [x.data for x in a + b + c] == [b"map:s5", b"market:s5", b"map:s5", b"map:s6"]
    assert [k for k, _ in renderer.calls] == ["map", "market", "map"]
    desk.close()


async def test_images_are_drawn_in_worker_processes() -> None:
    from engine.game import Game

    view = Game("18MS", players=[("1", "A"), ("2", "B"), ("3", "C")], options=[]).view()
    desk = ImageDesk(RealRenderer(), workers=1)
    try:
        job = desk.ticket(1, 0, view, ("market", "card"))
        got = await asyncio.wait_for(desk.draw(job), 120)
    finally:
        desk.close()
    assert [a.filename for a in got] == ["market.png", "card.png"]
    assert all(a.data.startswith(b"\x89PNG\r\n\x1a\n") for a in got)


class WhereRenderer:
    """Answers with the drawing process's id and the game it was told the image is of."""

    def __init__(self) -> None:
        self.game: object = None

    @contextmanager
    def keeping(self, game: object) -> Iterator[None]:
        self.game = game
        try:
            yield
        finally:
            self.game = None

    def render(self, kind: str, view: Any, clocks: Any = None) -> bytes | None:
        return f"{os.getpid()} {self.game} {kind} {view}".encode()


async def test_each_game_is_drawn_by_one_worker_process_told_the_game() -> None:
    desk = ImageDesk(WhereRenderer(), workers=2)
    games = range(1, 9)
    assert {desk.worker_of(g) for g in games} == {0, 1}  # both workers get games
    assert [desk.worker_of(g) for g in games] == \
        [ImageDesk(CountingRenderer(), workers=2).worker_of(g) for g in games]  # stable
    try:
        jobs = [desk.draw(desk.ticket(g, stamp, f"v{g}-{stamp}", ("map", "card")))
                for stamp in (1, 2) for g in games]
        drawn = [a for got in await asyncio.wait_for(asyncio.gather(*jobs), 120) for a in got]
    finally:
        desk.close()
    pid_of: dict[int, set[str]] = {}
    for a in drawn:
        pid, game, _, _ = a.data.decode().split()
        pid_of.setdefault(int(game), set()).add(pid)
    assert set(pid_of) == set(games)
    assert all(len(pids) == 1 for pids in pid_of.values())  # one process a game
    worker_pid = {desk.worker_of(g): next(iter(pid_of[g])) for g in games}
    assert len(set(worker_pid.values())) == 2  # ... the worker's, two processes
    assert all(pid_of[g] == {worker_pid[desk.worker_of(g)]} for g in games)


async def test_the_lag_monitor_reports_a_blocked_loop(caplog: pytest.LogCaptureFixture) -> None:
    monitor = LagMonitor(threshold=0.1, interval=0.02)
    monitor.start()
    with caplog.at_level(logging.WARNING, logger="bot.lag"):
        await asyncio.sleep(0.2)  # a free loop: no warning
        assert monitor.warnings == 0
        time.sleep(0.3)  # something holds the loop
        await asyncio.sleep(0.1)
    await monitor.stop()
    assert monitor.warnings == 1 and monitor.worst >= 0.25
    assert any("blocked for" in r.getMessage() for r in caplog.records)


async def test_the_game_cache_keeps_to_its_byte_budget(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.sqlite3")
    service = Service(store, render_images=False)
    try:
        ids = []
        for n in range(3):
            gid = await store.create_game(
                guild_id=None, channel_id=100 + n, thread_id=None, title="18MS", options=[],
                seed=n + 1, creator_id=1, creator_name="A", interaction_id=None)
            for uid in (1, 2, 3):
                await store.add_player(gid, uid, f"P{uid}", str(uid))
            await store.start_game(gid, [1, 2, 3])
            ids.append(gid)
        one = await service._live(ids[0])
        assert one.size > 10_000  # a replayed game holds real memory, measured
        service.cache_bytes = int(one.size * 2.5)  # room for two games of this size
        for gid in ids:
            await service._live(gid)
        assert list(service._cache) == ids[1:]  # the least recently used went first
        assert service.cached_bytes <= service.cache_bytes
    finally:
        service.close()
        await store.close()


def test_deep_size_counts_a_game_without_its_shared_title_data() -> None:
    from engine.game import Game

    a = Game("18MS", players=[("1", "A"), ("2", "B")], options=[])
    data = a.title.data
    alone = deep_size(a, exclude=data)
    assert 0 < alone < deep_size(a)
    # the title's data is the same object in every game of the title: counted in none
    b = Game("18MS", players=[("1", "A"), ("2", "B")], options=[])
    assert b.title.data is data
    assert deep_size(b, exclude=data) == pytest.approx(alone, rel=0.2)


async def test_images_of_a_game_the_cache_dropped_are_still_drawn(env: Env) -> None:
    """A move whose images wait while its game leaves the cache (its byte budget) still gets
    them: the game is loaded again from its stored log to draw its state."""
    gated = env.renderer
    assert isinstance(gated, GatedRenderer)
    gated.gate.set()
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT)
    await env.settle()
    gated.gate.clear()
    gated.calls.clear()
    await env.fake.invoke(env.alice, thread, "par", corporation="GMO", price="70")
    for _ in range(200):  # its images are being drawn, held at the gate (the only slot)
        if gated.calls:
            break
        await asyncio.sleep(0.05)
    assert gated.calls
    second = await env.fake.invoke(env.bob, thread, "par", corporation="IC", price="70,1,2")
    env.service.evict(1)  # dropped from the cache before the second move's images are drawn
    gated.gate.set()
    await env.settle()
    files = dict(env.fake.final(second).files)
    assert "market.png" in files
    live = await env.service._live(1)
    assert files["market.png"] == RealRenderer().render("market", live.game.view())


@pytest.mark.parametrize("fixture,upto", [("1870/1870_game_end_bank.json", 700),
                                          ("18MEX/13315.json", 300), ("18MS/14375.json", 200)])
def test_a_full_views_key_is_the_states_view_key(fixture: str, upto: int) -> None:
    """What changed is told by comparing keys, some read off a full view (the start, an image
    drawn anyway: bot.core.key_of), some worked out alone (Game.view_key): the two agree."""
    import json

    from bot.core import key_of
    from engine.io.export18xx import import_game
    from tests.bot.conftest import FIXTURES

    path = FIXTURES / fixture
    if not path.is_file():
        pytest.skip("needs ../shared/fixtures")
    game = import_game(json.loads(path.read_text()), upto=upto)
    assert key_of(game.view()) == game.view_key()
