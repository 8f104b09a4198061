"""The command set's runner, shared by the Discord cogs and the terminal mode.

Each command has a spec (bot.specs: its parameters, in order) and one handler here taking a
`Ctx` and the arguments as text or int. The Discord layer fills the arguments from
slash-command options, the terminal from a typed line; both call `Commands.run`, so there is
one place where a command turns into a service call.  What /map may show (regions, hexes)
is read in bot.mapviews.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from bot import auto, consent, longcmds, mapviews, moves
from bot.naming import Named
from bot.replies import Attachment, BotError, Reply
from bot.service import Service, Who
from bot.specs import (
    LONG_GAMES,
    MAX_IMPORT_BYTES,
    MAX_OPTION_TEXT,
    MOVE_PARAMS,
    MOVES,
    OTHER,
    SPECS,
    Param,
    Spec,
)
from bot.store import GameRecord
from bot.turns import Outgoing

if TYPE_CHECKING:
    from bot.mail.transport import MailDesk

__all__ = [
    "LONG_GAMES", "MAX_IMPORT_BYTES", "MAX_OPTION_TEXT", "MOVES", "MOVE_PARAMS", "OTHER", "SPECS",
    "Commands", "Ctx", "Param", "Rail", "Spec", "answered", "fault_reply",
]


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


class Rail(Protocol):
    """What the Discord layer asks of the command layer (`Commands`): the cogs go through this
    and nothing else of the service."""

    async def run(self, name: str, ctx: Ctx, **args: Any) -> Reply: ...
    async def choices(self, ctx: Ctx, command: str, param: str, typed: str,
                      filled: dict[str, Any]) -> list[tuple[str, str]]: ...
    async def import_file(self, ctx: Ctx, raw: bytes, players: str) -> Reply: ...
    async def answer_undo(self, ctx: Ctx, request_id: int, accept: bool) -> Reply: ...
    async def answer_vote(self, ctx: Ctx, vote_id: int, yes: bool) -> Reply: ...
    async def confirm_run(self, ctx: Ctx, proposal_id: int) -> Reply: ...
    async def answer_sale(self, ctx: Ctx, request_id: int, accept: bool) -> Reply: ...
    async def invite(self, ctx: Ctx, address: str, player: str) -> Reply: ...
    async def seat_names(self, channel_id: int) -> list[str]: ...
    async def finish_images(self, reply: Reply) -> list[Attachment]: ...
    def start_notices(self, send: Callable[[Outgoing], Awaitable[None]],
                      ready: Callable[[], Awaitable[Any]] | None = None) -> None: ...
    async def stop_notices(self) -> None: ...


class Commands:
    def __init__(self, service: Service) -> None:
        self.service = service
        self.mail: MailDesk | None = None  # the e-mail transport, if the bot runs it

    # -- what the Discord layer asks besides commands (`Rail`) ------------------------------

    async def confirm_run(self, ctx: Ctx, proposal_id: int) -> Reply:
        """The president runs the proposed best run (bot/consent.py)."""
        return await consent.confirm(self.service, ctx.who, proposal_id, ctx.interaction_id)

    async def answer_sale(self, ctx: Ctx, request_id: int, accept: bool) -> Reply:
        """A train sale request answered (bot/consent.py)."""
        return await consent.answer_reply(self.service, ctx.who, request_id, accept,
                                          ctx.interaction_id)

    async def invite(self, ctx: Ctx, address: str, player: str) -> Reply:
        """/invite: a player who plays by e-mail (bot/mail/)."""
        try:
            if self.mail is None:
                raise BotError("This bot does not run the e-mail transport.")
            game = await self.service.game_here(ctx.channel_id)
            return await self.mail.invite(ctx.who, game.id, address, player[:80])
        except BotError as err:
            return Reply(str(err), ephemeral=True)

    async def seat_names(self, channel_id: int) -> list[str]:
        """The seats of this channel's game, in order (autocomplete)."""
        record = await self.service.store.game_in_channel(channel_id)
        return [] if record is None else [p.name for p in record.seated]

    async def finish_images(self, reply: Reply) -> list[Attachment]:
        """The images a sent reply still needs (bot/core.py)."""
        return await self.service.finish_images(reply)

    def start_notices(self, send: Callable[[Outgoing], Awaitable[None]],
                      ready: Callable[[], Awaitable[Any]] | None = None) -> None:
        self.service.start_notices(send, ready)

    async def stop_notices(self) -> None:
        await self.service.stop_notices()

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
            game_id = await s.game_id_here(ctx.channel_id)
            builder = spec.move

            def build(legal: Named) -> dict[str, Any]:
                return builder(legal, **args)

            return await s.act(ctx.who, game_id, build, interaction_id=ctx.interaction_id)
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
            case "map" if args.get("region") or args.get("hex"):
                data = mapviews.title_data(game.title)
                kind = mapviews.map_kind(data, args.get("region"), args.get("hex"))
                return await s.picture(game.id, kind)
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
        if command == "map":
            try:
                game = await self.service.game_here(ctx.channel_id)
            except BotError:
                return []
            return mapviews.choices(mapviews.title_data(game.title), param, typed)
        legal = await self.service.legal_for(ctx.channel_id, ctx.who.user_id)
        return moves.filter_choices(moves.options_for(legal, param, filled), typed)

    async def import_file(self, ctx: Ctx, raw: bytes, players: str) -> Reply:
        """Import an 18xx.games export; `players` maps export ids/names: "680=@alice 4861=@bob"."""
        if len(raw) > MAX_IMPORT_BYTES:
            return Reply(f"The file is too big for a game export ({len(raw)} bytes; at most "
                         f"{MAX_IMPORT_BYTES}).", ephemeral=True)
        users: dict[str, tuple[int, str]] = {}
        for pair in players.replace(",", " ").split():
            key, _, who = pair.partition("=")
            user = ctx.resolve_user(who)
            if not key or user is None:
                return Reply(f"Cannot read {pair!r}: write export_id=@member.", ephemeral=True)
            users[key] = user

        async def work() -> Reply:
            _rec, reply = await self.service.import_game(
                # (the file is read as JSON in the import's own process: bot/importing.py)
                ctx.who, guild_id=ctx.guild_id, channel_id=ctx.channel_id, raw=raw,
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
