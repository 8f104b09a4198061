"""Re-playing an 18xx.games export as the slash commands its players would type.

`command_for` maps one logged action to (command, options); `replay_as_commands` seats one
Discord user per exported player and plays the actions in effect (undo/redo resolved by the
engine) through the real discord.py client, each typed by the user who controls the acting
entity at that moment. Who that is comes from a reference engine game stepping alongside, not
from the bot. Actions the site's standing orders made for a player (`auto_actions`) are typed by
that player; the engine's own checks (`destination_connection`) and the standing orders
themselves (`program_*`) are not commands.
"""

from __future__ import annotations

import json
from typing import Any

from tests.bot.conftest import Env
from tests.bot.fake_discord import Sent, User


def effective_log(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions in effect at the end of the export (undo/redo resolved, no messages)."""
    from engine import dump_action
    from engine.game import effective_actions
    from engine.io.export18xx import import_game

    game = import_game(data)
    return [dump_action(a) for a in effective_actions(game.log) if a.type != "message"]


def typed_actions(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What players type: each action without its `auto_actions`, then the automatic player
    moves among them; no standing orders, engine checks or manual game ends."""
    out = []
    for action in log:
        if not action["type"].startswith("program_") and action["type"] != "end_game":
            out.append({k: v for k, v in action.items() if k != "auto_actions"})
        for sub in action.get("auto_actions") or ():
            if sub["type"] in ("buy_shares", "sell_shares", "pass"):
                out.append(sub)
    return out


def _corp(share_id: str) -> str:
    return share_id.rsplit("_", 1)[0]


def command_for(action: dict[str, Any], *, protection: bool = False) -> tuple[str, dict[str, Any]]:
    """The slash command (name, options) a player types for a logged action."""
    kind = action["type"]
    by_corp = action.get("entity_type") == "corporation"
    match kind:
        case "bid":
            return "bid", {"company": action["company"], "price": str(action["price"])}
        case "par":
            return "par", {"corporation": action["corporation"], "price": action["share_price"]}
        case "buy_shares" if by_corp:  # 1870: the corporation redeems a share
            return "redeem", {"corporation": action["entity"], "share": action["shares"][0]}
        case "buy_shares" if protection:  # 1870: the bundle just sold, bought back
            shares = action["shares"]
            return "protect", {"corporation": _corp(shares[0]), "shares": " ".join(shares)}
        case "buy_shares":
            (share,) = action["shares"]
            return "buy", {"corporation": _corp(share), "share": share}
        case "sell_shares" if by_corp:  # 1870: the corporation reissues its shares
            return "reissue", {"corporation": action["entity"]}
        case "sell_shares":
            shares = action["shares"]
            return "sell", {
                "corporation": _corp(shares[0]),
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
        case "choose" if action["choice"] in ("Map", "Charter"):  # 1870 connection run
            return "connect", {"where": action["choice"]}
        case "choose":
            return "choose", {"choice": action["choice"]}
        case "assign":
            options = {"target": action["target"]}
            if action.get("entity_type") == "company":
                options["company"] = action["entity"]
            return "assign", options
        case "merge":  # 18MEX: the corporation offered the merger accepts
            return "merge", {"corporation": action["corporation"]}
    raise AssertionError(f"no command for {kind}")


def _in_protection(game: Any) -> bool:
    check = getattr(game.round, "in_protection", None)
    return bool(check and check())


async def replay_as_commands(
    env: Env, data: dict[str, Any], actions: list[dict[str, Any]]
) -> tuple[Sent | None, int, dict[str, User]]:
    """Start a game for the export's players and type `actions` as their slash commands."""
    from engine.game import Game

    exported = [str(p["id"]) for p in data["players"]]
    users = {pid: User(5000 + i, f"P{pid}") for i, pid in enumerate(exported)}
    by_engine_id = {str(u.id): u for u in users.values()}
    ref = Game(data["title"], [(pid, f"P{pid}") for pid in exported], [])
    thread = await env.new_game(*users.values(), title=data["title"])
    images = 0
    sent: Sent | None = None
    for action in actions:
        name, options = command_for(action, protection=_in_protection(ref))
        if action.get("entity_type") == "player":
            user = users[str(action["entity"])]
        else:  # the player controlling the acting entity, as the engine sees it now
            (pid,) = ref.acting_players()
            user = users[pid]
        sent = await env.cmd(user, thread, name, **options)
        assert not sent.ephemeral, f"action {action.get('id')} {action}: {sent.content}"
        before = set(ref.acting_players())
        ref.apply(action)
        # the bot pings exactly the player who must act next when the turn passes to them
        # (nobody if they were acting already, nobody once the game is over)
        pinged = [by_engine_id[str(u)] for u in sent.mentions["users"]]
        assert pinged == [users[p] for p in ref.acting_players() if p not in before], sent.content
        images += len(sent.files)
    return sent, images, users


async def import_cut(env: Env, who: User, data: dict[str, Any], users: dict[str, User],
                     filename: str) -> int:
    """Import an export through /import, each export player mapped to a user; the game's
    thread id."""
    mapping = " ".join(f"{pid}=<@{u.id}>" for pid, u in users.items())
    sent = await env.fake.invoke(who, env.fake.main_channel, "import", players=mapping,
                                 attachment=(filename, json.dumps(data).encode()))
    await env.settle()
    assert f"Imported {data['title']} game #" in sent.content, sent.content
    return max(c for c, d in env.fake.channels.items() if d["type"] == 11)
