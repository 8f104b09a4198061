"""Whole recorded 18MS games re-played as slash commands by the right Discord users.

Every effective action of an 18xx.games export (undo/redo resolved by the engine's
`effective_actions`) is typed as the slash command a player would use, by the Discord user who
controls the acting entity at that moment (worked out by a reference engine game stepping
alongside, not by the bot). The game must end with exactly the recorded `result`, with real
map/market PNGs posted. The fixture files are read in place from ../shared, never copied;
without ../shared the tests skip.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.bot.conftest import FIXTURES, Env, needs_shared
from tests.bot.fake_discord import Sent, User

pytestmark = needs_shared
GAMES = FIXTURES / "18MS"


def effective_log(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions in effect at the end of the export (undo/redo resolved, no messages)."""
    from engine import dump_action
    from engine.game import effective_actions
    from engine.io.export18xx import import_game

    game = import_game(data)
    return [dump_action(a) for a in effective_actions(game.log) if a.type != "message"]


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
) -> tuple[Sent | None, int, dict[str, User]]:
    """Start a game for the export's players and play `actions` as their slash commands."""
    from engine.game import Game

    exported = [str(p["id"]) for p in data["players"]]
    users = {pid: User(5000 + i, f"P{pid}") for i, pid in enumerate(exported)}
    ref = Game(data["title"], [(pid, f"P{pid}") for pid in exported], [])
    thread = await env.new_game(*users.values())
    images = 0
    sent: Sent | None = None
    for action in actions:
        name, options = command_for(action)
        if action.get("entity_type") == "player":
            user = users[str(action["entity"])]
        else:  # the president of the acting corporation, as the engine sees it now
            (pid,) = ref.acting_players()
            user = users[pid]
        sent = await env.cmd(user, thread, name, **options)
        assert not sent.ephemeral, f"action {action.get('id')} {action}: {sent.content}"
        images += len(sent.files)
        ref.apply(action)
    return sent, images, users


def _pngs(env: Env) -> list[bytes]:
    return [f for s in env.fake.sent for n, f in s.files if n.endswith(".png")]


@pytest.mark.parametrize("fixture", ["14375.json", "17510.json"])
async def test_recorded_game_as_slash_commands(env: Env, fixture: str) -> None:
    data = json.loads((GAMES / fixture).read_text())
    log = effective_log(data)
    sent, images, users = await replay_as_commands(env, data, log)
    assert sent is not None and "Game over" in sent.content, sent
    record = await env.service.store.game(1)
    assert record is not None and record.status == "finished"
    assert len(await env.service.store.actions(1)) == len(log)
    live = await env.service._live(1)
    assert live.game.result() == {str(users[p].id): v for p, v in data["result"].items()}
    for pid, value in data["result"].items():
        assert f"{users[pid].name} ${value}" in sent.content
    pngs = _pngs(env)
    assert images > 0 and len(pngs) == images + 1  # + the status image of /start
    assert all(p.startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)
    names = {n for s in env.fake.sent for n, _f in s.files}
    assert {"map.png", "market.png", "status.png"} <= names


async def test_best_routes_and_autocomplete_with_real_engine(env: Env) -> None:
    data = json.loads((GAMES / "14375.json").read_text())
    log = effective_log(data)
    first_run = next(i for i, a in enumerate(log) if a["type"] == "run_routes")
    sent, _images, users = await replay_as_commands(env, data, log[:first_run])
    assert sent is not None
    live = await env.service._live(1)
    user = next(u for u in users.values() if str(u.id) == live.game.acting_players()[0])
    thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    sent = await env.cmd(user, thread, "run")
    assert not sent.ephemeral and " runs 2+-0" in sent.content, sent.content
    choices = await env.fake.autocomplete(user, thread, "dividend", "kind")
    assert {c["value"] for c in choices} <= {"payout", "withhold", "half"} and choices
