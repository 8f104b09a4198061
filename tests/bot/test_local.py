"""The terminal mode: the same commands typed for named local players."""

from __future__ import annotations

import io
from pathlib import Path

from bot.config import Config
from bot.local import LocalSession, run_local
from bot.service import Service
from bot.store import Store
from tests.bot.fake_engine import FakePort, FakeRenderer


async def test_local_session_plays_a_few_moves(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "local.sqlite3")
    service = Service(store, engine=FakePort(), renderer=FakeRenderer())
    s = LocalSession(service, tmp_path / "img")
    try:
        assert "Say who you are" in await s.handle("join")
        assert "Created 18MS game #1" in await s.handle("alice: create 18MS")
        assert "bob joins" in (await s.handle("bob: join")).lower()
        out = await s.handle("alice: start alice bob")
        assert "1. alice" in out and "@alice to act" in out and "wrote" in out
        out = await s.handle("bob: pass")
        assert out.startswith("(only you) It is not your turn")
        assert "only you" in await s.handle("alice: bid M&O 5")
        out = await s.handle("alice: lay E12 57-0 2")
        assert "alice lays tile 57 on E12 (rotation 2)" in out and "@bob to act" in out
        assert "map.png" in out and len(list((tmp_path / "img").iterdir())) == 2
        out = await s.handle("bob: undo")
        assert "[Allow undo] type: allow 1" in out
        out = await s.handle("alice: allow 1")
        assert "alice agrees: bob takes back lays tile 57" in out
        out = await s.handle("as bob")
        assert "legal" in (await s.handle("help"))
        assert "not your turn" in await s.handle("pass")
        assert "Now in game #1" in await s.handle("use 1")
    finally:
        await store.close()
    # the same store is used by the next session
    store = await Store.open(tmp_path / "local.sqlite3")
    assert len(await store.actions(1)) == 2
    await store.close()


async def test_run_local_reads_the_terminal(tmp_path: Path) -> None:
    config = Config(
        database=tmp_path / "t.sqlite3", local_images=tmp_path / "img", render_images=False
    )
    stdin = io.StringIO("as cy\ngames\nquit\n")
    stdout = io.StringIO()
    assert await run_local(config, stdin, stdout) == 0
    assert "No games are open" in stdout.getvalue()
