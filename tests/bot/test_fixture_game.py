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

from bot.service import EnginePort, RealEngine
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
            return "lay", {
                "hex": action["hex"],
                "tile": action["tile"],
                "rotation": str(action["rotation"]),
            }
        case "place_token":
            return "token", {"city": action["city"], "slot": int(action.get("slot", 0))}
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


@pytest.mark.parametrize("fixture", ["14375.json"])
async def test_recorded_game_as_slash_commands(env: Env, fixture: str) -> None:
    from engine.io.export18xx import import_game

    data = json.loads((FIXTURES / fixture).read_text())
    log = import_game(data).export_actions()
    exported = [str(p["id"]) for p in data["players"]]
    users = {pid: User(5000 + i, f"P{pid}") for i, pid in enumerate(exported)}
    by_discord = {str(u.id): u for u in users.values()}
    thread = await env.new_game(*users.values())
    game_id = 1
    images = 0
    for action in log:
        if action["type"] == "message":
            continue
        name, options = command_for(action)
        live = await env.service._live(game_id)
        if action.get("entity_type") == "player":
            user = users[str(action["entity"])]
        else:
            user = by_discord[live.game.acting_players()[0]]
        sent: Sent = await env.cmd(user, thread, name, **options)
        if sent.payload.get("components"):  # undo of another player's move: they consent
            author = by_discord[str(sent.mentions["users"][0])]
            request = sent.payload["components"][0]["components"][0]["custom_id"]
            sent = await env.fake.click(author, sent, request)
            await env.settle()
        assert not sent.ephemeral, f"action {action.get('id')} {action}: {sent.content}"
        images += len(sent.files)
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
