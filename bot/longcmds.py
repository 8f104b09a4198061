"""Commands of long games (bot/turns.py, bot/seats.py), shared by Discord and the terminal:
their specs and one dispatcher, called by bot.commands for these names."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.replies import BotError, Reply

if TYPE_CHECKING:
    from bot.commands import Ctx
    from bot.service import Service
    from bot.specs import Spec


def specs(spec: Callable[..., Spec], p: Callable[..., Any]) -> tuple[Spec, ...]:
    """The specs, built with bot.specs. Spec and Param (no import cycle)."""
    who = p("player", "the player (a mention) or the seat number")
    return (
        spec("mygames", "The games where it is your turn"),
        spec("nudge", "Remind whoever the game waits for (rate-limited)"),
        spec("follow", "Follow this game: a direct message when the turn passes"),
        spec("unfollow", "Stop following this game"),
        spec("settings", "Your time zone and quiet hours (no reminders then)", (
            p("timezone", "e.g. Europe/Paris or UTC+2", required=False),
            p("quiet", "quiet hours, local, e.g. 22-8 (none: no quiet hours)", required=False),
        )),
        spec("timing", "This game's reminder delay, time bank and absence limit", (
            p("reminder", "hours before the first reminder (default 12)", required=False),
            p("bank", "time bank per player in hours (none: no bank)", required=False),
            p("drop", "days without a move before a player may be dropped", required=False),
        )),
        spec("seats", "Who holds each seat, and who held it before"),
        spec("substitute", "Seat a substitute (creator at once; else the players vote)", (
            who, p("new", "the substitute (a mention)"),
        )),
        spec("resign", "Leave the game: a substitute takes your seat, or it stays vacant", (
            p("substitute", "who takes your seat (a mention; optional)", required=False),
        )),
        spec("drop", "Propose to drop an absent player (every other player must agree)", (who,)),
    )


NAMES = frozenset({"mygames", "nudge", "follow", "unfollow", "settings", "timing", "seats",
                   "substitute", "resign", "drop"})


def _member(ctx: Ctx, text: str) -> tuple[int, str]:
    user = ctx.resolve_user(text)
    if user is None:
        raise BotError(f"I do not know who {text!r} is: use a mention like @name.")
    return user[0], user[1] or str(user[0])


def _seat(ctx: Ctx, text: str) -> tuple[int | None, int | None]:
    """(user id, seat number) named by a mention or a seat number."""
    t = text.strip()
    if t.isdigit() and len(t) <= 2:
        return None, int(t)
    return _member(ctx, t)[0], None


async def run(service: Service, name: str, ctx: Ctx, args: dict[str, Any]) -> Reply:
    s, who = service, ctx.who
    if name == "mygames":
        return await s.my_games(who)
    if name == "settings":
        return await s.settings(who, args.get("timezone"), args.get("quiet"))
    game = await s.game_here(ctx.channel_id)
    match name:
        case "nudge":
            return await s.nudge(who, game.id)
        case "follow" | "unfollow":
            return await s.follow(who, game.id, name == "follow")
        case "timing":
            return await s.timing(who, game.id, args.get("reminder"), args.get("bank"),
                                  args.get("drop"))
        case "seats":
            return await s.seats_text(game.id)
        case "substitute":
            user, seat = _seat(ctx, str(args["player"]))
            return await s.substitute(who, game.id, user, seat, _member(ctx, str(args["new"])))
        case "resign":
            sub = args.get("substitute")
            return await s.resign(who, game.id, _member(ctx, str(sub)) if sub else None)
        case "drop":
            user, seat = _seat(ctx, str(args["player"]))
            return await s.drop(who, game.id, user, seat)
    raise BotError(f"Unknown command {name!r}.")
