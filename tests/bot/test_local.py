"""The terminal mode: the same commands typed for named local players."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.local import LocalSession, run_local
from bot.service import RealEngine, RealRenderer, Service
from bot.store import Store


async def test_local_session_plays_a_few_moves(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "local.sqlite3")
    service = Service(store, engine=RealEngine(), renderer=RealRenderer())
    s = LocalSession(service, tmp_path / "img")
    try:
        assert "Say who you are" in await s.handle("join")
        assert "Created 18MS game #1" in await s.handle("alice: create 18MS")
        assert "bob joins" in (await s.handle("bob: join")).lower()
        assert "cy joins" in (await s.handle("cy: join")).lower()
        out = await s.handle("alice: start alice bob cy")
        assert "1. alice" in out and "@cy to act" in out and "wrote" in out  # draft: last seat
        out = await s.handle("bob: bid MC 60")
        assert out.startswith("(only you) It is not your turn")
        out = await s.handle("cy: bid M&O 5")
        assert out == "(only you) M&O costs exactly its face value, $70."
        out = await s.handle("cy: bid M&O 70")
        assert "cy bids $70 on Mobile & Ohio Railway (M&O)" in out and "@bob to act" in out
        assert "bob bids $60 on Mississippi Central Railway (MC)" in await s.handle("bob: bid MC 60")
        assert "alice bids $30 on Alabama Great Southern Railroad (AGS)" in await s.handle("alice: bid AGS 30")
        out = await s.handle("alice: par GMO 70")
        assert "alice pars GMO" in out and "market.png" in out and "@bob to act" in out
        png = tmp_path / "img"
        assert all(f.read_bytes().startswith(b"\x89PNG") for f in png.iterdir())
        names = sorted(f.name.split("-")[-1] for f in png.iterdir())
        # /start: status and phone card; each move that passes the turn: the card; par: market
        assert names == ["card.png"] * 5 + ["market.png", "status.png"]
        out = await s.handle("bob: undo")
        assert "[Allow undo] type: allow 1" in out
        out = await s.handle("alice: allow 1")
        assert "alice agrees: bob takes back pars GMO" in out
        out = await s.handle("as bob")
        assert "legal" in (await s.handle("help"))
        assert "not your turn" in await s.handle("pass")
        assert "Now in game #1" in await s.handle("use 1")
    finally:
        await store.close()
    # the same store is used by the next session
    store = await Store.open(tmp_path / "local.sqlite3")
    assert [a.action["type"] for a in await store.actions(1)] == ["bid"] * 3 + ["par", "undo"]
    await store.close()


async def test_local_seat_votes(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "local.sqlite3")
    service = Service(store, engine=RealEngine(), renderer=RealRenderer(), render_images=False)
    s = LocalSession(service, tmp_path / "img")
    try:
        await s.handle("alice: create 18MS")
        await s.handle("bob: join")
        await s.handle("cy: join")
        await s.handle("alice: start alice bob cy")
        # local players act as admins: a substitution needs no vote
        assert "dee takes cy's seat" in (await s.handle("bob: substitute 3 dee")).lower()
        out = await s.handle("bob: resign")
        assert "bob resigns: their seat is vacant" in out
        assert "[Agree] type: agree 1" in out and "[Refuse] type: disagree 1" in out
        out = await s.handle("bob: agree 1")
        assert out.startswith("(only you) This vote is for the other players")
        assert "dee agrees" in await s.handle("dee: agree 1")
        out = await s.handle("alice: agree 1")
        assert "The players agree to end the game." in out and "Game over" in out
    finally:
        await store.close()


async def test_run_local_reads_the_terminal(tmp_path: Path) -> None:
    config = Config(
        database=tmp_path / "t.sqlite3", local_images=tmp_path / "img", render_images=False
    )
    stdin = io.StringIO("as cy\ngames\nquit\n")
    stdout = io.StringIO()
    assert await run_local(config, stdin, stdout) == 0
    assert "No games are open" in stdout.getvalue()


async def test_local_mode_shows_reminders_when_due(tmp_path: Path) -> None:
    """The terminal mode writes out reminders as they fall due (fake clock), once each."""
    from bot.clock import HOUR, FakeClock

    store = await Store.open(tmp_path / "local.sqlite3")
    clock = FakeClock()
    service = Service(store, engine=RealEngine(), renderer=RealRenderer(), render_images=False,
                      clock=clock)
    s = LocalSession(service, tmp_path / "img")
    shown: list[str] = []
    s.start_notices(shown.append)
    try:
        await s.handle("alice: create 18MS")
        await s.handle("bob: join")
        await s.handle("cy: join")
        await s.handle("alice: start alice bob cy")  # the draft starts with cy
        clock.advance(12 * HOUR - 60)
        await service.notices_idle()
        assert shown == []
        clock.advance(60)
        await service.notices_idle()
        assert len(shown) == 1 and shown[0].startswith("[notice] @cy, reminder: 18MS game #1")
        await service.notices_idle()
        assert len(shown) == 1
    finally:
        await service.stop_notices()
        await store.close()


async def test_without_images_a_move_works_out_no_view_key_and_replies_the_same(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The view's key before and after a move only decides which images are drawn: a bot that
    draws none (render_images = false) works none out, and answers every move the same (the
    round's name, e.g. the clocks line when the round changes, from the game itself)."""
    from engine.game import Game

    script = ["alice: create 18MS", "bob: join", "cy: join", "alice: start alice bob cy",
              "cy: bid M&O 70", "bob: bid MC 60", "alice: bid AGS 30", "alice: par GMO 70",
              "bob: par IC 70", "cy: buy GMO", "alice: buy GMO", "bob: buy IC", "cy: buy GMO",
              "alice: buy GMO", "bob: pass", "cy: pass", "alice: pass", "bob: pass"]
    keys: list[int] = []
    real = Game.view_key

    def view_key(self: Game) -> Any:
        keys.append(1)
        return real(self)

    monkeypatch.setattr(Game, "view_key", view_key)
    said: dict[bool, list[str]] = {}
    counted: dict[bool, int] = {}
    for images in (True, False):
        keys.clear()
        store = await Store.open(tmp_path / f"{images}.sqlite3")
        service = Service(store, engine=RealEngine(), renderer=RealRenderer(),
                          render_images=images)
        s = LocalSession(service, tmp_path / f"img-{images}")
        try:
            said[images] = ["\n".join(line for line in (await s.handle(cmd)).splitlines()
                                      if "wrote" not in line) for cmd in script]
        finally:
            service.close()
            await store.close()
        counted[images] = len(keys)
    assert said[True] == said[False]
    assert any("Operating Round" in out for out in said[False])
    assert counted[True] > 0 and counted[False] == 0
