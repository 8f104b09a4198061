"""The command set, shared by the Discord cogs and the terminal mode.

Each command has a spec (its parameters, in order) and one handler taking a `Ctx` and the
arguments as text or int. The Discord layer fills the arguments from slash-command options,
the terminal from a typed line; both call `Commands.run`, so there is one place where a
command turns into a service call.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Concatenate

from bot import auto, longcmds, moves
from bot.naming import Named
from bot.replies import BotError, Reply
from bot.service import Service, Who
from bot.store import GameRecord
from engine.legal import Legal


@dataclass(slots=True)
class Ctx:
    """Where and by whom a command was issued."""

    who: Who
    guild_id: int | None
    channel_id: int
    interaction_id: str | None = None
    # creates the game's thread and returns its channel id (None: play in the channel itself)
    make_thread: Callable[[str], Awaitable[int]] | None = None
    # turns "<@123>" / "alice" into (user id, display name)
    resolve_user: Callable[[str], tuple[int, str] | None] = field(default=lambda _t: None)


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    description: str
    required: bool = True
    kind: type = str  # str | int
    autocomplete: bool = False  # values come from game.legal()


@dataclass(frozen=True, slots=True)
class Spec:
    name: str
    description: str
    params: tuple[Param, ...] = ()
    # builder in bot.moves, for moves: the legal answer (with names), then the arguments
    move: Callable[Concatenate[Legal, ...], dict[str, Any]] | None = None


def _p(name: str, description: str, **kw: Any) -> Param:
    return Param(name, description, **kw)


_CORP = _p("corporation", "corporation id, e.g. GMO", autocomplete=True)
_COMPANY = _p("company", "private company id", autocomplete=True)
_PRICE = _p("price", "price in $", autocomplete=True)
_TRAIN = _p("train", "train id, e.g. 2+-0", autocomplete=True)

MOVES: tuple[Spec, ...] = (
    Spec(
        "bid",
        "Bid on a private company",
        (_COMPANY, _p("price", "price in $ (default: the lowest, the price in a fixed-price "
                               "draft)", required=False, autocomplete=True)),
        moves.bid,
    ),
    Spec("par", "Start a corporation at a par price", (_CORP, _PRICE), moves.par),
    Spec(
        "buy",
        "Buy one share",
        (_CORP, _p("share", "which share (default: cheapest)", required=False, autocomplete=True)),
        moves.buy,
    ),
    Spec(
        "sell",
        "Sell shares",
        (
            _CORP,
            _p("percent", "percent to sell", autocomplete=True),
            _p("shares", "certificate ids, e.g. GMO_3 GMO_4 (optional)", required=False),
        ),
        moves.sell,
    ),
    Spec("pass", "Pass", (), moves.pass_),
    Spec(
        "lay",
        "Lay or upgrade a tile",
        (
            _p("hex", "hex, e.g. E12", autocomplete=True),
            _p("tile", "tile", autocomplete=True),
            _p("rotation", "rotation 0-5 (leave it out: a picture of those that fit)",
               required=False, kind=int, autocomplete=True),
            _p("company", "use this private company's ability", required=False),
        ),
        moves.lay_tile,
    ),
    Spec(
        "token",
        "Place a station token",
        (
            _p("city", "city", autocomplete=True),
            _p("slot", "slot", required=False, kind=int),
            _p("company", "use this private company's ability", required=False),
        ),
        moves.place_token,
    ),
    Spec(
        "run",
        "Run trains: the best run shown to confirm, or your routes",
        (_p("routes", "empty: the best run to confirm; 'best': run it at once; stops per "
                      "train (Memphis-Grenada;Jackson-Meridian); or JSON", required=False),),
        moves.run_routes,
    ),
    Spec(
        "dividend",
        "Pay out, withhold or pay half",
        (_p("kind", "payout, withhold or half", autocomplete=True),),
        moves.dividend,
    ),
    Spec(
        "train",
        "Buy a train",
        (
            _TRAIN,
            _p("price", "price in $ (default: the lowest)", required=False, autocomplete=True),
            _p("variant", "train variant, e.g. 4D (optional)", required=False),
        ),
        moves.buy_train,
    ),
    Spec("discard", "Discard a train over the limit", (_TRAIN,), moves.discard_train),
    Spec(
        "private",
        "Buy a private company for the corporation",
        (_COMPANY, _PRICE),
        moves.buy_company,
    ),
    Spec(
        "choose",
        "Make a choice the game asks for (private abilities, options)",
        (_p("choice", "choice", autocomplete=True),),
        moves.choose,
    ),
    Spec(
        "assign",
        "Use a private ability on a hex",
        (
            _p("target", "hex, e.g. E12"),
            _p("company", "the private company whose ability it is", required=False),
        ),
        moves.assign,
    ),
    Spec("bankrupt", "Declare bankruptcy", (), moves.bankrupt),
    # title-specific moves, named as players know them; the engine decides if they apply
    Spec(
        "protect",
        "1870: price-protect the shares just sold (buy the bundle back)",
        (
            _CORP,
            _p("shares", "certificate ids (default: the engine picks)", required=False),
        ),
        moves.protect,
    ),
    Spec(
        "redeem",
        "1870: the corporation redeems one of its shares",
        (_CORP, _p("share", "share (default: one from the market)", required=False)),
        moves.redeem,
    ),
    Spec("reissue", "1870: the corporation reissues its redeemed shares", (_CORP,), moves.reissue),
    Spec(
        "connect",
        "1870: connection run - destination token on the Map or the Charter",
        (_p("where", "Map or Charter", required=False, autocomplete=True),),
        moves.connect,
    ),
    Spec(
        "merge",
        "18MEX: accept the NdM merger offered to your corporation (/pass declines)",
        (_p("corporation", "the corporation offered the merger", required=False),),
        moves.merge,
    ),
)

OTHER: tuple[Spec, ...] = (
    Spec(
        "create",
        "Create a game in this channel (it gets its own thread)",
        (
            _p("title", "18MS, 1870 or 18MEX"),
            _p("options", "optional rules, comma separated", required=False),
        ),
    ),
    Spec("join", "Join the game of this thread"),
    Spec("leave", "Leave the game before it starts"),
    Spec(
        "start",
        "Start the game (seating as mentions in order, or random)",
        (_p("seating", "players in seat order, e.g. @a @b @c", required=False),),
    ),
    Spec("games", "List the games of this server"),
    Spec("abandon", "Abandon the game (creator or admins)"),
    Spec("end", "End the game now, scored as it stands (creator or admins)"),
    Spec("export", "Export the game as an 18xx.games JSON file"),
    Spec("status", "Show the game's status"),
    Spec("map", "Show the map"),
    Spec("market", "Show the stock market"),
    Spec("history", "Show the last moves", (_p("count", "how many", required=False, kind=int),)),
    Spec("legal", "What may the acting player do now?"),
    Spec("catchup", "What happened since your last move, then the current card"),
    Spec(
        "help",
        "The commands, or how to use one",
        (_p("command", "a command's name, e.g. token", required=False, autocomplete=True),),
    ),
    Spec("undo", "Undo the latest move (another player's needs their consent)"),
    Spec("redo", "Redo the move just undone"),
)

MAX_OPTION_TEXT = 6000  # Discord caps an option at 6000 characters
MAX_IMPORT_BYTES = 20_000_000  # a long real game exports to about 1 MB

LONG_GAMES: tuple[Spec, ...] = longcmds.specs(Spec, _p)  # reminders, clocks, seats
AUTO: tuple[Spec, ...] = auto.specs(Spec, _p)  # programmed moves (bot/auto.py)
SPECS: dict[str, Spec] = {s.name: s for s in MOVES + OTHER + LONG_GAMES + AUTO}
MOVE_PARAMS: dict[str, dict[str, Param]] = {s.name: {p.name: p for p in s.params} for s in MOVES}

_MENTION = re.compile(r"<@!?(\d+)>")
log = logging.getLogger(__name__)


def fault_reply(what: str) -> Reply:
    """A real fault (not a refusal): logged with an id the user can quote."""
    fault = secrets.token_hex(4)
    log.exception("fault %s in %s", fault, what)
    return Reply(
        f"Something went wrong on the bot's side (fault {fault}); the command was not "
        "completed. Quote the fault id to the bot's admin.",
        ephemeral=True,
    )


async def answered(work: Awaitable[Reply], what: str) -> Reply:
    """The work's reply; a refusal (BotError) as a private reply with its reason, any other
    failure as a fault logged with an id (`fault_reply`)."""
    try:
        return await work
    except BotError as err:
        return Reply(str(err), ephemeral=True)
    except Exception:
        return fault_reply(what)


class Commands:
    def __init__(self, service: Service) -> None:
        self.service = service

    async def run(self, name: str, ctx: Ctx, **args: Any) -> Reply:
        """Run one command; a refusal (BotError) becomes a private reply with its reason."""
        return await answered(self._run(name, ctx, args), f"/{name}")

    async def _run(self, name: str, ctx: Ctx, args: dict[str, Any]) -> Reply:
        spec = SPECS.get(name)
        if spec is None:
            raise BotError(f"Unknown command {name!r}.")
        args = self._typed(spec, args)
        missing = [p.name for p in spec.params if p.required and p.name not in args]
        if missing:
            raise BotError(f"/{name} needs: {', '.join(missing)}.")
        s = self.service
        if spec.move is not None:
            game = await s.game_here(ctx.channel_id)
            builder = spec.move

            def build(legal: Named) -> dict[str, Any]:
                return builder(legal, **args)

            return await s.act(ctx.who, game.id, build, interaction_id=ctx.interaction_id)
        match name:
            case "create":
                options = [o.strip() for o in str(args.get("options", "")).split(",") if o.strip()]
                _rec, reply = await s.create_game(
                    ctx.who,
                    guild_id=ctx.guild_id,
                    channel_id=ctx.channel_id,
                    title=str(args["title"]),
                    options=options,
                    interaction_id=ctx.interaction_id,
                    make_thread=ctx.make_thread,
                )
                return reply
            case "games":
                return await s.list_games(ctx.guild_id)
            case "help":
                from bot import help as helptext

                if args.get("command"):
                    return Reply(helptext.command_help(SPECS, str(args["command"])), ephemeral=True)
                return Reply(helptext.overview(SPECS), ephemeral=True)
        if name in longcmds.NAMES:
            return await longcmds.run(s, name, ctx, args)
        if name in auto.NAMES:
            return await auto.run(s, name, ctx, args)
        game = await s.game_here(ctx.channel_id)
        match name:
            case "join":
                return await s.join(ctx.who, game.id)
            case "leave":
                return await s.leave(ctx.who, game.id)
            case "start":
                return await s.start(ctx.who, game.id,
                                     self._seating(ctx, args.get("seating"), game))
            case "abandon":
                return await s.abandon(ctx.who, game.id)
            case "end":
                return await s.end_game(ctx.who, game.id, interaction_id=ctx.interaction_id)
            case "export":
                return await s.export(game.id)
            case "status" | "map" | "market":
                return await s.picture(game.id, name)
            case "history":
                count = str(args.get("count", 10)).strip()
                if not count.lstrip("-").isdigit():
                    raise BotError(f"{count!r} is not a number of moves.")
                return await s.history(game.id, int(count))
            case "legal":
                return await self.legal(ctx, game.id)
            case "catchup":
                return await s.catchup(ctx.who, game.id)
            case "undo":
                return await s.undo(ctx.who, game.id, interaction_id=ctx.interaction_id)
            case "redo":
                return await s.redo(ctx.who, game.id, interaction_id=ctx.interaction_id)
        raise BotError(f"Unknown command {name!r}.")  # pragma: no cover - SPECS lists all

    @staticmethod
    def _typed(spec: Spec, args: dict[str, Any]) -> dict[str, Any]:
        """The command's known options, each as its kind (text or a whole number); a value
        that is not one is refused with the option's name."""
        params = {p.name: p for p in spec.params}
        out: dict[str, Any] = {}
        for k, v in args.items():
            p = params.get(k)
            if p is None:
                raise BotError(f"/{spec.name} has no option {k!r}.")
            if v is None or (isinstance(v, str) and not v.strip()):
                continue
            if p.kind is int:
                text = str(v).strip()
                if isinstance(v, bool) or not text.lstrip("-").isdigit() or len(text) > 12:
                    raise BotError(f"{k} must be a whole number, not {str(v)[:40]!r}.")
                out[k] = int(text)
            else:
                text = str(v)
                if len(text) > MAX_OPTION_TEXT:
                    raise BotError(f"{k} is too long ({len(text)} characters).")
                out[k] = text
        return out

    @staticmethod
    def _seating(ctx: Ctx, text: str | None, game: GameRecord | None = None
                 ) -> list[int] | None:
        if not text or text.strip().lower() == "random":
            return None
        # a joined player may also be named (an e-mail player has no mention)
        names = {p.name.lower(): p.user_id for p in (game.players if game else ())}
        order = []
        for token in text.replace(",", " ").split():
            user = ctx.resolve_user(token)
            if user is None and token.lstrip("@").lower() in names:
                user = (names[token.lstrip("@").lower()], token)
            if user is None:
                raise BotError(f"I do not know who {token!r} is: use mentions like @name.")
            order.append(user[0])
        return order

    async def legal(self, ctx: Ctx, game_id: int) -> Reply:
        legal = await self.service.legal_for(ctx.channel_id, ctx.who.user_id)
        if legal is None:
            return Reply("You have nothing to do right now.", ephemeral=True)
        kinds = ", ".join(k.replace("_", " ") for k in moves.kinds(legal)) or "nothing"
        entity = legal.entity
        record = await self.service.game_record(game_id)
        player = record.player_by_engine_id(entity)
        lines = [f"{player.name if player else entity} may: {kinds}"]
        for spec in MOVES:
            for p in spec.params:
                if p.autocomplete:
                    opts = moves.options_for(legal, p.name, {})
                    if opts:
                        lines.append(f"{p.name}: " + ", ".join(label for label, _v in opts[:10]))
        return Reply("\n".join(dict.fromkeys(lines)), ephemeral=True)

    async def choices(
        self, ctx: Ctx, command: str, param: str, typed: str, filled: dict[str, Any]
    ) -> list[tuple[str, str]]:
        """Autocomplete: the legal values of `param` for the user, filtered by what was typed."""
        if command == "help":
            return moves.filter_choices(((f"/{n} — {SPECS[n].description}"[:100], n)
                                         for n in sorted(SPECS)), typed)
        legal = await self.service.legal_for(ctx.channel_id, ctx.who.user_id)
        return moves.filter_choices(moves.options_for(legal, param, filled), typed)

    async def import_file(self, ctx: Ctx, raw: bytes, players: str) -> Reply:
        """Import an 18xx.games export; `players` maps export ids/names: "680=@alice 4861=@bob"."""
        if len(raw) > MAX_IMPORT_BYTES:
            return Reply(f"The file is too big for a game export ({len(raw)} bytes; at most "
                         f"{MAX_IMPORT_BYTES}).", ephemeral=True)
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
            return Reply(f"The file is not JSON: {err}.", ephemeral=True)
        users: dict[str, tuple[int, str]] = {}
        for pair in players.replace(",", " ").split():
            key, _, who = pair.partition("=")
            user = ctx.resolve_user(who)
            if not key or user is None:
                return Reply(f"Cannot read {pair!r}: write export_id=@member.", ephemeral=True)
            users[key] = user

        async def work() -> Reply:
            _rec, reply = await self.service.import_game(
                ctx.who, guild_id=ctx.guild_id, channel_id=ctx.channel_id, data=data,
                users=users, interaction_id=ctx.interaction_id, make_thread=ctx.make_thread)
            return reply

        return await answered(work(), "import")

    async def answer_undo(self, ctx: Ctx, request_id: int, accept: bool) -> Reply:
        return await answered(self.service.answer_undo(
            ctx.who, request_id, accept, interaction_id=ctx.interaction_id), "undo answer")

    async def answer_vote(self, ctx: Ctx, vote_id: int, yes: bool) -> Reply:
        """A seat vote's answer (bot/seats.py)."""
        return await answered(self.service.answer_vote(
            ctx.who, vote_id, yes, interaction_id=ctx.interaction_id), "seat vote")

    @staticmethod
    def mention_id(text: str) -> int | None:
        m = _MENTION.fullmatch(text.strip())
        return int(m.group(1)) if m else None
