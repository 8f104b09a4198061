"""Trust (issue 12) at the bot layer and in the terminal mode: every bad input is answered with
a reason, real faults carry an id, undo consent follows the entity's controller at the time of
the move, repeated undo requests ping once, images are never overwritten, the terminal remembers
its game, and a bad config is a clear error."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.config import ConfigError, load_config
from bot.local import LocalSession
from bot.service import RealEngine, RealRenderer, Service
from bot.store import Store
from tests.bot.conftest import FIXTURES, needs_shared

REPO = Path(__file__).resolve().parents[2]


async def _session(tmp: Path, engine: Any = None, images: bool = False) -> tuple[Store, LocalSession]:
    store = await Store.open(tmp / "local.sqlite3")
    service = Service(store, engine=engine or RealEngine(), renderer=RealRenderer(),
                      render_images=images)
    s = LocalSession(service, tmp / "img")
    await s.resume()
    return store, s


async def _started(s: LocalSession) -> None:
    await s.handle("alice: create 18MS")
    await s.handle("bob: join")
    await s.handle("cy: join")
    await s.handle("alice: start alice bob cy")


TERMINAL_INPUTS = ["lay Z99 58 0", "lay B2 58 9", "lay B2 58 x", "dividend foo", "history abc",
                   "token H6 abc", "bid M&O lots", "sell GMO x", "run [[[[[[[[[[1]]]]]]]]]]",
                   'run [{"train":"2+-0","connections":[],"revenue":99999}]', "train 2+-0 abc",
                   "use abc", "allow x", "par GMO $$$"]


async def test_terminal_inputs_are_answered_with_a_reason(tmp_path: Path) -> None:
    store, s = await _session(tmp_path)
    try:
        await _started(s)
        for line in TERMINAL_INPUTS:
            out = await s.handle(f"cy: {line}")
            assert out and "Traceback" not in out, line
            assert "Something went wrong" not in out, (line, out)
        (tmp_path / "list.json").write_text("[]")
        (tmp_path / "oops.json").write_text('{"players":"oops"}')
        (tmp_path / "text.json").write_text("not json")
        for name in ("missing.json", "list.json", "oops.json", "text.json"):
            out = await s.handle(f"cy: import {tmp_path / name} 1=alice")
            assert out and "Something went wrong" not in out, (name, out)
    finally:
        await store.close()


async def test_a_forged_revenue_is_refused_by_the_bot(tmp_path: Path) -> None:
    store, s = await _session(tmp_path)
    try:
        await _started(s)
        out = await s.handle('cy: run [{"train":"2+-0","connections":[],"revenue":99999}]')
        assert "(only you)" in out
    finally:
        await store.close()


class _BrokenEngine(RealEngine):
    def new_game(self, *args: Any, **kw: Any) -> Any:
        game = super().new_game(*args, **kw)

        def apply(action: Any, **kw: Any) -> Any:
            raise RuntimeError("a bug")

        game.apply = apply
        return game


async def test_a_real_fault_is_logged_with_an_id_the_user_can_quote(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store, s = await _session(tmp_path, engine=_BrokenEngine())
    try:
        await _started(s)
        with caplog.at_level(logging.ERROR):
            out = await s.handle("cy: bid M&O 70")
        assert "Something went wrong" in out and "fault" in out.lower()
        fault = out.split("fault ")[1].split()[0].strip(".:;,()")
        assert any(fault in r.getMessage() for r in caplog.records), (fault, caplog.records)
    finally:
        await store.close()


async def test_images_are_never_overwritten_across_restarts(tmp_path: Path) -> None:
    store, s = await _session(tmp_path, images=True)
    try:
        await _started(s)
        first = {p.name: p.read_bytes() for p in (tmp_path / "img").iterdir()}
    finally:
        await store.close()
    store, s = await _session(tmp_path, images=True)
    try:
        out = await s.handle("cy: bid M&O 70")
        assert "wrote" in out
        now = {p.name: p.read_bytes() for p in (tmp_path / "img").iterdir()}
        assert len(now) > len(first)
        assert all(now[name] == data for name, data in first.items())
    finally:
        await store.close()


async def test_the_terminal_remembers_its_game_across_restarts(tmp_path: Path) -> None:
    store, s = await _session(tmp_path)
    try:
        await _started(s)
    finally:
        await store.close()
    store, s = await _session(tmp_path)
    try:
        out = await s.handle("cy: bid M&O 70")
        assert "cy bids $70 on Mobile & Ohio Railway (M&O)" in out, out
    finally:
        await store.close()


async def test_repeated_undo_requests_ping_once(tmp_path: Path) -> None:
    store, s = await _session(tmp_path)
    try:
        await _started(s)
        await s.handle("cy: bid M&O 70")
        first = await s.handle("bob: undo")
        assert "@cy" in first and "allow" in first
        again = await s.handle("bob: undo")
        assert "@cy" not in again and "already" in again, again
    finally:
        await store.close()


async def test_protect_names_certificates_of_one_corporation_only(tmp_path: Path) -> None:
    from bot import moves
    from engine import EngineError
    from tests.engine._helpers import standard_start

    g = standard_start()
    act = moves.protect(g.legal(), "GMO", "GMO_3 IC_3")
    pid = g.current_entity()[0]
    with pytest.raises(EngineError, match="one corporation"):
        g.apply({**act, "entity": pid, "entity_type": "player"})


@needs_shared
async def test_undo_of_an_imported_corporation_move_asks_its_president(tmp_path: Path) -> None:
    data = json.loads((FIXTURES / "18MS" / "14375.json").read_text())
    data["actions"] = [a for a in data["actions"] if a["id"] <= 91]  # IC runs at 91
    assert data["actions"][-1]["entity"] == "IC"
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(data))
    store, s = await _session(tmp_path)
    try:
        out = await s.handle(f"alice: import {path} 680=alice 4861=bob 686=cy")
        assert "Imported" in out, out
        live = await s.service._live(1)
        from engine.io.export18xx import import_game

        before = import_game(data, upto=90)
        pres = before.title.controller(before, "IC", "corporation")
        name = {"680": "alice", "4861": "bob", "686": "cy"}[str(pres)]
        other = next(n for n in ("alice", "bob", "cy") if n != name)
        assert live.game.log[-1].entity == "IC"
        out = await s.handle(f"{other}: undo")
        assert f"@{name}" in out and "allow" in out, out
    finally:
        await store.close()


def test_a_missing_config_file_is_a_clear_error(tmp_path: Path, capsys: Any) -> None:
    with pytest.raises(ConfigError, match="no config file"):
        load_config(tmp_path / "nope.toml")
    assert main(["--config", str(tmp_path / "nope.toml")]) == 2
    assert "nope.toml" in capsys.readouterr().err


def test_bad_toml_is_a_clear_error(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[bot\ndatabase = ")
    with pytest.raises(ConfigError, match="bad.toml"):
        load_config(bad)
    assert main(["--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.toml" in err and "Traceback" not in err


def test_local_images_are_ignored_by_git() -> None:
    lines = (REPO / ".gitignore").read_text().split()
    assert "local-images/" in lines or "/local-images/" in lines


async def test_only_the_creator_ends_a_game_early(tmp_path: Path) -> None:
    store, s = await _session(tmp_path)
    try:
        await _started(s)
        from bot.commands import Ctx
        from bot.local import local_user_id
        from bot.service import Who

        bob = Ctx(Who(local_user_id("bob"), "bob"), None, s.channel_id)  # not an admin
        reply = await s.commands.run("end", bob)
        assert "votes to end" in reply.text, reply.text  # a vote, not an end
        assert (await store.game(1)).status == "active"  # type: ignore[union-attr]
        dan = Ctx(Who(local_user_id("dan"), "dan"), None, s.channel_id)  # not a player
        reply = await s.commands.run("end", dan)
        assert "Only the game's players" in reply.text, reply.text
        out = await s.handle("alice: end")
        assert "alice ends the game" in out and "Game over" in out, out
        record = await store.game(1)
        assert record is not None and record.status == "finished"
    finally:
        await store.close()
    store, s = await _session(tmp_path)  # the stored end replays
    try:
        live = await s.service._live(1)
        assert live.game.finished
    finally:
        await store.close()


async def test_all_players_agreeing_end_a_game_early(tmp_path: Path) -> None:
    """Ending early is a decision of all players (or the creator): each player's /end is a
    vote on the position as it stands; the first pings the others once, a move cancels the
    votes, and the last vote ends the game."""
    from bot.commands import Ctx
    from bot.local import local_user_id
    from bot.service import Who
    from engine import Game
    from engine.io.export18xx import export_game

    path = tmp_path / "fresh.json"
    path.write_text(json.dumps(export_game(Game("18MS", ["1", "2", "3"]))))
    store, s = await _session(tmp_path)
    try:
        out = await s.handle(f"dan: import {path} 1=alice 2=bob 3=cy")  # dan creates, not seated
        assert "Imported" in out, out

        def ctx(name: str) -> Ctx:
            return Ctx(Who(local_user_id(name), name), None, s.channel_id)  # not admins

        first = await s.commands.run("end", ctx("bob"))
        assert "votes to end" in first.text and "1 of 3" in first.text, first.text
        assert set(first.mention) == {local_user_id("alice"), local_user_id("cy")}
        again = await s.commands.run("end", ctx("bob"))
        assert again.ephemeral and "already voted" in again.text and not again.mention
        moved = await s.handle("cy: bid M&O 70")  # a move: the votes are stale
        assert "M&O" in moved and "not your turn" not in moved, moved
        assert (await store.game(1)).status == "active"  # type: ignore[union-attr]
        renewed = await s.commands.run("end", ctx("bob"))
        assert "1 of 3" in renewed.text, renewed.text
        second = await s.commands.run("end", ctx("cy"))
        assert "2 of 3" in second.text and not second.mention, second.text
        assert (await store.game(1)).status == "active"  # type: ignore[union-attr]
        last = await s.commands.run("end", ctx("alice"))
        assert "All players agree" in last.text and "Game over" in last.text, last.text
        record = await store.game(1)
        assert record is not None and record.status == "finished"
    finally:
        await store.close()


@needs_shared
@pytest.mark.parametrize("process", [False, True], ids=["thread", "process"])
async def test_an_import_past_its_time_limit_is_refused_and_stores_nothing(
        tmp_path: Path, process: bool) -> None:
    """On the import thread, or in a process of its own (`import_process`, the default
    configuration): a replay past its time is stopped, a log the rules refuse is refused with
    the engine's reason, and a good one is imported."""
    path = FIXTURES / "18MS" / "14375.json"
    store, s = await _session(tmp_path)
    s.service.import_process = process
    try:
        s.service.import_seconds = 0.0  # every replay is past it
        out = await s.handle(f"alice: import {path} 680=alice 4861=bob 686=cy")
        assert "longer than 0 s" in out and "not imported" in out, out
        assert await store.game(1) is None
        s.service.import_seconds = 60.0
        bad = json.loads(path.read_text())
        first_bid = next(a for a in bad["actions"] if a["type"] == "bid")
        first_bid["price"] = 1  # under the company's value
        broken = tmp_path / "broken.json"
        broken.write_text(json.dumps(bad))
        out = await s.handle(f"alice: import {broken} 680=alice 4861=bob 686=cy")
        assert "cannot replay" in out and "not imported" not in out, out
        assert await store.game(1) is None
        # the file is read, checked and mapped where it is replayed: each refusal its reason
        (tmp_path / "text.json").write_text("not json at all")
        (tmp_path / "list.json").write_text("[1, 2]")
        seedless = json.loads(path.read_text())
        seedless["settings"] = {**(seedless.get("settings") or {}), "seed": "not a number"}
        (tmp_path / "seed.json").write_text(json.dumps(seedless))
        for args, reason in [
            (f"{tmp_path / 'text.json'} 680=alice", "not JSON"),
            (f"{tmp_path / 'list.json'} 680=alice", "cannot be imported"),
            (f"{path} 680=alice 4861=bob", "Map the export's player"),
            (f"{path} 680=alice 4861=bob 686=bob", "different member"),
            (f"{tmp_path / 'seed.json'} 680=alice 4861=bob 686=cy", "settings are not readable"),
        ]:
            out = await s.handle(f"alice: import {args}")
            assert reason in out, (args, out)
        assert await store.game(1) is None
        out = await s.handle(f"alice: import {path} 680=alice 4861=bob 686=cy")
        assert "Imported" in out, out
        assert (s.service._import_workers is not None) == process
    finally:
        s.service.close()
        await store.close()


async def test_the_import_process_is_started_ahead_and_after_each_import(tmp_path: Path) -> None:
    """`warm_imports` (at the bot's start): a process waits with its modules loaded before
    the first import comes; each import is made by a process started before it, and the next
    one is started as it ends (a process an import)."""
    store, s = await _session(tmp_path)
    core = s.service
    core.import_process = True
    try:
        first = core.warm_imports()
        pool = core._import_workers
        assert first is not None and pool is not None
        done_pid = await asyncio.wrap_future(first)
        deadline = time.monotonic() + 30
        waiting: list[int] = []
        while time.monotonic() < deadline:  # the first task's process ends, the next waits
            waiting = [pid for pid, proc in list(pool._processes.items())  # type: ignore[attr-defined]
                       if pid != done_pid and proc.is_alive()]
            if waiting:
                break
            await asyncio.sleep(0.05)
        assert len(waiting) == 1
        assert await core.run_import(os.getpid) == waiting[0]  # made by the waiting one
        assert await core.run_import(os.getpid) not in waiting  # a new one for each import
    finally:
        core.close()
        await store.close()


def test_the_import_time_limit_is_configured(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text("[bot]\nimport_seconds = 5\n")
    assert load_config(cfg).import_seconds == 5.0
    cfg.write_text("[bot]\n")
    assert load_config(cfg).import_seconds == 60.0
    assert load_config(cfg).import_process is True
    cfg.write_text("[bot]\nimport_process = false\n")
    assert load_config(cfg).import_process is False


def test_http_keepalive_is_read_from_the_config(tmp_path: Path) -> None:
    example = load_config(REPO / "config.example.toml")
    assert example.http_keepalive == 120.0
    mine = tmp_path / "bot.toml"
    mine.write_text("[bot]\nhttp_keepalive = 30\n")
    assert load_config(mine).http_keepalive == 30.0
