"""Programmed moves in the bot: `/auto`, a player's standing order (engine/programs.py).

    /auto mode:pass                       pass in this stock round until something changes
    /auto mode:pass-always                the same in every stock round
    /auto mode:buy corporation:GMO        buy a GMO share each turn until GMO floats
    /auto mode:buy corporation:GMO until:4 [source:market]
                                          ... until holding 4 shares (from the open market)
    /auto mode:off                        cancel your order
    /auto                                 show your order

An order is a move of the player's own, accepted at any time (not only in their turn); the
engine makes the ordered moves when the turn comes to them, recorded with the move that
brought the turn (the site's `auto_actions`), and ends the order with the site's reason. The
reply of a move says the programmed moves it brought, in words (bot/story.py), and pings
whoever must really act next.

Shared by Discord (bot/cogs/auto.py) and the terminal (bot/local.py reads SPECS); bot.commands
calls `run` for these names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.replies import BotError, Reply
from engine import programs

if TYPE_CHECKING:
    from bot.commands import Ctx
    from bot.service import Service, Who
    from bot.specs import Spec
    from engine.game import Game

NAMES = frozenset({"auto"})
MODES = ("pass", "pass-always", "buy", "off", "show")


def specs(spec: Callable[..., Spec], p: Callable[..., Any]) -> tuple[Spec, ...]:
    """The specs, built with bot.commands' Spec and Param (no import cycle)."""
    return (
        spec("auto", "Programmed moves: auto-pass, auto-buy until a corporation floats, or off", (
            p("mode", "pass (this stock round), pass-always, buy, off, or show", required=False),
            p("corporation", "for buy: the corporation, e.g. GMO", required=False),
            p("until", "for buy: float (default) or a number of shares to hold",
              required=False),
            p("source", "for buy: ipo (default) or market", required=False),
        )),
    )


def order_action(args: dict[str, Any]) -> dict[str, Any] | None:
    """The order typed as an engine action (without its player), or None to show it."""
    mode = str(args.get("mode") or "show").strip().lower()
    if mode not in MODES:
        raise BotError(f"/auto mode is one of {', '.join(MODES)}, not {mode!r}.")
    if mode == "show":
        return None
    if mode == "off":
        return {"type": "program_disable", "reason": "user"}
    if mode in ("pass", "pass-always"):
        return {"type": "program_share_pass", "unconditional": False,
                "indefinite": mode == "pass-always"}
    corp = str(args.get("corporation") or "").strip().upper()
    if not corp:
        raise BotError("/auto mode:buy needs a corporation, e.g. /auto mode:buy corporation:GMO.")
    until_text = str(args.get("until") or "float").strip().lower()
    until: int | str
    if until_text == "float":
        until = "float"
    elif until_text.isdigit():
        until = int(until_text)
    else:
        raise BotError(f"until is float or a number of shares, not {until_text!r}.")
    source = str(args.get("source") or "ipo").strip().lower()
    if source not in ("ipo", "market"):
        raise BotError(f"source is ipo or market, not {source!r}.")
    return {"type": "program_buy_shares", "corporation": corp, "until_condition": until,
            "from_market": source == "market", "auto_pass_after": False}


def _corp_id(game: Game, typed: str) -> str:
    """A corporation's id as typed (its id or its name, any case)."""
    for corp in game.state.corporations.values():
        if typed.upper() in (corp.id.upper(), corp.name.upper()):
            return corp.id
    return typed


def _shown(game: Game, pid: str) -> str:
    order = programs.active(game, pid)
    if order is None:
        return "You have no programmed move. /auto mode:pass or /auto mode:buy corporation:X."
    return f"Your programmed move: {programs.describe(order)}. /auto mode:off cancels it."


async def run(service: Service, name: str, ctx: Ctx, args: dict[str, Any]) -> Reply:
    if name != "auto":
        raise BotError(f"Unknown command {name!r}.")
    game = await service.game_here(ctx.channel_id)
    return await order(service, ctx.who, game.id, order_action(args),
                       interaction_id=ctx.interaction_id)


async def order(service: Service, who: Who, game_id: int, action: dict[str, Any] | None, *,
                interaction_id: str | None) -> Reply:
    """Give (or show) the player's own standing order: a move of theirs, in any turn."""
    s: Any = service  # the move path of bot/play.py (ServicePlay)
    async with s._locks[game_id]:
        if interaction_id and await s.store.interaction_seen(interaction_id):
            return Reply("This command was already handled.", ephemeral=True)
        live, engine_id = await s._seated_live(who, game_id)
        if action is None:
            return Reply(await s.run_engine(_shown, live.game, engine_id), ephemeral=True)
        action = {**action, "entity": engine_id, "entity_type": "player"}
        if "corporation" in action:
            action["corporation"] = await s.run_engine(_corp_id, live.game, action["corporation"])
        reply: Reply
        reply, draw = await s._apply(live, who, action, interaction_id)
    s._draw(reply, draw)
    return reply
