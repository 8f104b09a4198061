"""A whole recorded 18MS game re-played as slash commands by the right Discord users.

Needs the real engine (replay, legal moves, view) and /work/shared/fixtures; skipped with the
reason otherwise. The fixture files are read in place, never copied.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from bot.service import EnginePort, RealEngine, RealRenderer, Renderer
from tests.bot.conftest import Env
from tests.bot.fake_discord import Sent, User
from tests.bot.fake_engine import FakeRenderer

FIXTURES = Path("/work/shared/fixtures/18MS")


def _missing_engine() -> str | None:
    for module in ("engine.game", "engine.legal", "engine.viewbuild", "engine.io.export18xx"):
        try:
            if importlib.util.find_spec(module) is None:
                return f"{module} has not landed yet"
        except ModuleNotFoundError:
            return f"{module} has not landed yet"
    return None


pytestmark = [
    pytest.mark.skipif(not FIXTURES.is_dir(), reason="/work/shared/fixtures is absent"),
    pytest.mark.skipif(_missing_engine() is not None, reason=str(_missing_engine())),
]


@pytest.fixture
def engine_port() -> EnginePort:
    return RealEngine()


@pytest.fixture
def renderer() -> Renderer:
    return RealRenderer()


def _engine_cannot_answer(data: dict[str, Any], log: list[dict[str, Any]]) -> str | None:
    """Why the engine cannot answer legal()/view() at every step of this game (or None)."""
    from engine.game import Game

    game = Game(data["title"], [(str(p["id"]), str(p["name"])) for p in data["players"]], [])
    for action in log:
        game.apply(action)
        try:
            game.legal()
            game.view()
        except Exception as err:  # an engine bug, reported to the engine's owner
            return f"engine: legal()/view() raise {err!r} after action {action.get('id')}"
    return None


def command_for(action: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The slash command (name, options) a player types for a logged action."""
    kind = action["type"]
    match kind:
        case "bid":
            return "bid", {"company": action["company"], "price": str(action["price"])}
        case "par":
            return "par", {"corporation": action["corporation"], "price": action["share_price"]}
        case "buy_shares":
            (share,) = action["shares"]
            return "buy", {"corporation": share.rsplit("_", 1)[0], "share": share}
        case "sell_shares":
            shares = action["shares"]
            return "sell", {
                "corporation": shares[0].rsplit("_", 1)[0],
                "percent": str(action["percent"]),
                "shares": " ".join(shares),
            }
        case "pass" | "undo" | "redo" | "bankrupt":
            return kind, {}
        case "lay_tile":
            options = {
                "hex": action["hex"],
                "tile": action["tile"],
                "rotation": str(action["rotation"]),
            }
            if action.get("entity_type") == "company":
                options["company"] = action["entity"]
            return "lay", options
        case "place_token":
            options = {"city": action["city"], "slot": int(action.get("slot", 0))}
            if action.get("entity_type") == "company":
                options["company"] = action["entity"]
            return "token", options
        case "run_routes":
            return "run", {"routes": json.dumps(action["routes"])}
        case "dividend":
            return "dividend", {"kind": action["kind"]}
        case "buy_train":
            return "train", {
                "train": action["train"],
                "price": str(action["price"]),
                "variant": action.get("variant"),
            }
        case "buy_company":
            return "private", {"company": action["company"], "price": str(action["price"])}
        case "discard_train":
            return "discard", {"train": action["train"]}
        case "choose":
            return "choose", {"choice": action["choice"]}
        case "assign":
            return "assign", {"target": action["target"]}
    raise AssertionError(f"no command for {kind}")


async def replay_as_commands(
    env: Env, data: dict[str, Any], actions: list[dict[str, Any]]
) -> tuple[Sent | None, int]:
    """Start a game for the export's players and play `actions` as their slash commands."""
    exported = [str(p["id"]) for p in data["players"]]
    users = {pid: User(5000 + i, f"P{pid}") for i, pid in enumerate(exported)}
    by_discord = {str(u.id): u for u in users.values()}
    thread = await env.new_game(*users.values())
    images = 0
    sent: Sent | None = None
    for action in actions:
        if action["type"] == "message":
            continue
        name, options = command_for(action)
        live = await env.service._live(1)
        if action.get("entity_type") == "player":
            user = users[str(action["entity"])]
        else:
            user = by_discord[live.game.acting_players()[0]]
        sent = await env.cmd(user, thread, name, **options)
        if sent.payload.get("components"):  # undo of another player's move: they consent
            author = by_discord[str(sent.mentions["users"][0])]
            request = sent.payload["components"][0]["components"][0]["custom_id"]
            sent = await env.fake.click(author, sent, request)
            await env.settle()
        assert not sent.ephemeral, f"action {action.get('id')} {action}: {sent.content}"
        images += len(sent.files)
    return sent, images


@pytest.mark.parametrize("fixture", ["14375.json", "17510.json"])
async def test_first_200_moves_with_real_images(tmp_path: Path, fixture: str) -> None:
    """Works today: the opening of a recorded game, real engine and real renderer."""
    from engine.io.export18xx import import_game

    data = json.loads((FIXTURES / fixture).read_text())
    log = import_game(data).export_actions()[:200]
    env = Env(tmp_path, RealEngine(), RealRenderer())
    await env.start()
    try:
        _sent, images = await replay_as_commands(env, data, log)
        expected = import_game(data, upto=int(log[-1]["id"]))
        live = await env.service._live(1)
        cash = sorted(p.cash for p in live.game.view().players)
        assert cash == sorted(p.cash for p in expected.view().players)
        assert images > 0
        pngs = [f for s in env.fake.sent for n, f in s.files if n.endswith(".png")]
        assert pngs and all(f.startswith(b"\x89PNG") for f in pngs)
        await env.settle()
    finally:
        await env.stop()
    assert not env.fake.unknown and not env.errors


@pytest.mark.parametrize("fixture", ["14375.json", "17510.json"])
async def test_recorded_game_as_slash_commands(env: Env, fixture: str) -> None:
    from engine.io.export18xx import import_game

    data = json.loads((FIXTURES / fixture).read_text())
    log = import_game(data).export_actions()
    broken = _engine_cannot_answer(data, log)
    if broken:
        pytest.skip(broken)
    exported = [str(p["id"]) for p in data["players"]]
    users = {pid: User(5000 + i, f"P{pid}") for i, pid in enumerate(exported)}
    game_id = 1
    sent, images = await replay_as_commands(env, data, log)
    assert sent is not None
    record = await env.service.store.game(game_id)
    assert record is not None and record.status == "finished"
    assert "Game over" in sent.content
    live = await env.service._live(game_id)
    result = {str(users[pid].id): value for pid, value in data["result"].items()}
    assert live.game.result() == result
    assert images > 0
    if not isinstance(env.renderer, FakeRenderer):
        assert all(
            f.startswith(b"\x89PNG")
            for s in env.fake.sent
            for _n, f in s.files
            if _n.endswith(".png")
        )


async def test_best_routes_and_autocomplete_with_real_engine(tmp_path: Path) -> None:
    from engine.io.export18xx import import_game

    data = json.loads((FIXTURES / "14375.json").read_text())
    log = import_game(data).export_actions()
    first_run = next(i for i, a in enumerate(log) if a["type"] == "run_routes")
    env = Env(tmp_path, RealEngine(), FakeRenderer())
    await env.start()
    try:
        sent, _images = await replay_as_commands(env, data, log[:first_run])
        assert sent is not None
        live = await env.service._live(1)
        uid = live.game.acting_players()[0]
        user = User(int(uid), f"P{uid}")
        thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
        sent = await env.cmd(user, thread, "run")
        assert not sent.ephemeral and " runs 2+-0" in sent.content, sent.content
        choices = await env.fake.autocomplete(user, thread, "dividend", "kind")
        assert {c["value"] for c in choices} <= {"payout", "withhold", "half"} and choices
        await env.settle()
    finally:
        await env.stop()
    assert not env.fake.unknown and not env.errors
