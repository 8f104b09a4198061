"""Terminal mode: the bot's commands typed by named local players, same store and rules.

    alice> create 18MS           (the game gets a local "thread"; you are now in it)
    bob> join                    (or "as bob" then "join")
    alice> start alice bob cy    (seat order; "start" alone seats at random)
    cy> bid M&O 70
    alice> use 2                 (switch to game #2)

Lines are `[NAME:] COMMAND [ARGS...]`: arguments in the command's order or `name=value`.
Images are written to the configured folder and their paths printed.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import shlex
import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from bot.commands import Commands, Ctx, fault_reply
from bot.config import Config
from bot.replies import BotError, Reply
from bot.service import Service, Who
from bot.specs import SPECS
from bot.store import Store
from bot.turns import Outgoing

if TYPE_CHECKING:
    from bot.mail.transport import MailDesk

_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL = re.compile(r"<#(\d+)>")


def local_user_id(name: str) -> int:
    """A stable id for a local player name."""
    return zlib.crc32(name.strip().lower().encode()) & 0x7FFFFFFF


def split_command(line: str) -> tuple[str, list[str]] | str:
    """A typed line's command (lower case, without a leading /) and its words, or why the
    line cannot be read ("" for an empty line); also read by the e-mail transport."""
    try:
        words = shlex.split(line)
    except ValueError as err:
        return f"Cannot read that line: {err}."
    if not words:
        return ""
    return words[0].lower().lstrip("/"), words[1:]


def parse_arguments(name: str, args: list[str]) -> dict[str, object] | str:
    """A command's arguments from its words (in the command's order or `name=value`); also
    read by the e-mail transport (bot/mail/parse.py)."""
    if name not in SPECS:
        return f"Unknown command {name!r}."
    spec = SPECS[name]
    params = list(spec.params)
    out: dict[str, object] = {}
    positional = [a for a in args if "=" not in a or a.startswith("[") or a.startswith("{")]
    for a in args:
        key, eq, value = a.partition("=")
        if eq and key in {p.name for p in params} and a not in positional:
            out[key] = value
    free = [p for p in params if p.name not in out]
    if spec.name == "start":  # the seating is every remaining word
        if positional:
            out["seating"] = " ".join(positional)
        return out
    if len(positional) > len(free):
        # the last parameter takes the rest (e.g. routes JSON with spaces)
        positional = positional[: len(free) - 1] + [" ".join(positional[len(free) - 1 :])]
    for p, value in zip(free, positional, strict=False):
        number = p.kind is int and value.lstrip("-").isdigit() and len(value) < 12
        out[p.name] = int(value) if number else value
    return out


class LocalSession:
    def __init__(self, service: Service, images_dir: Path, player: str | None = None) -> None:
        self.service = service
        self.commands = Commands(service)
        self.images_dir = images_dir
        self.player = player
        self.channel_id = 0
        self.names: dict[int, str] = {}
        self._count = 0
        self._image_counts: dict[int, int] = {}
        self.mail: MailDesk | None = None  # the e-mail transport, if configured

    def _who(self, name: str) -> Who:
        uid = local_user_id(name)
        self.names[uid] = name
        return Who(uid, name, is_admin=True)

    def _resolve(self, text: str) -> tuple[int, str] | None:
        name = text.strip().lstrip("@")
        return (local_user_id(name), name) if name else None

    async def _make_thread(self, _name: str) -> int:
        # a local "thread": a fresh channel id (unique across restarts) the session switches to
        self.channel_id = 10**12 + secrets.randbelow(10**15)
        return self.channel_id

    def _next(self) -> int:
        self._count += 1
        return self._count

    async def handle(self, line: str) -> str:
        """Run one typed line and return what the bot says (never raises: a real fault is
        logged with an id and answered with it)."""
        try:
            return await self._handle(line)
        except Exception:
            return await self._render(fault_reply("a terminal command"))

    async def _handle(self, line: str) -> str:
        line = line.strip()
        if not line or line.startswith("#"):
            return ""
        player = self.player
        head, sep, rest = line.partition(":")
        if sep and head and " " not in head.strip():
            player, line = head.strip(), rest.strip()
        command = split_command(line)
        if isinstance(command, str):
            return command
        name, args = command
        if name in ("help", "?"):
            from bot import help as helptext

            if args:
                return helptext.command_help(SPECS, args[0], terminal=True).replace("**", "")
            return helptext.overview(SPECS, terminal=True).replace("**", "")
        if name == "as":
            if not args:
                return "Usage: as NAME"
            self.player = args[0]
            return f"You are now {self.player}."
        if name == "use":
            return await self._use(args)
        if player is None:
            return 'Say who you are first: "as NAME" (or prefix the line with "NAME:").'
        who = self._who(player)
        ctx = Ctx(who, None, self.channel_id, None, self._make_thread, self._resolve)
        if name == "import":
            if not args:
                return "Usage: import FILE ID=NAME ..."
            try:
                raw = Path(args[0]).read_bytes()
            except OSError as err:
                return f"Cannot read {args[0]}: {err.strerror or err}."
            reply = await self.commands.import_file(ctx, raw, " ".join(args[1:]))
        elif name in ("agree", "disagree"):  # a seat vote (substitute, drop, end)
            if not args or not args[0].isdigit():
                return f"Usage: {name} VOTE_ID"
            reply = await self.commands.answer_vote(ctx, int(args[0]), name == "agree")
        elif name in ("sell", "keep") and args and args[0].lower() == "train":
            from bot import consent

            if len(args) < 2 or not args[1].isdigit():
                return f"Usage: {name} train REQUEST_ID"
            reply = await consent.answer_reply(self.service, who, int(args[1]), name == "sell",
                                               None)
        elif name in ("allow", "refuse"):
            if not args or not args[0].isdigit():
                return f"Usage: {name} REQUEST_ID"
            reply = await self.commands.answer_undo(ctx, int(args[0]), name == "allow")
        elif name in ("invite", "mailgame"):
            return await self._mail(name, args, who)
        elif name in SPECS:
            kwargs = self._arguments(name, args)
            if isinstance(kwargs, str):
                return kwargs
            reply = await self.commands.run(name, ctx, **kwargs)
        else:
            return f"Unknown command {name!r}: type help."
        return await self._render(reply)

    def _arguments(self, name: str, args: list[str]) -> dict[str, object] | str:
        return parse_arguments(name, args)

    async def _mail(self, name: str, args: list[str], who: Who) -> str:
        """invite ADDRESS NAME (this game's seat for an e-mail player); mailgame TITLE ADDRESS
        NAME (a game whose organiser plays by e-mail, docs/MAIL.md)."""
        if self.mail is None:
            return "This bot does not run the e-mail transport (no [mail] in config.toml)."
        try:
            if name == "invite" and len(args) >= 2:
                record = await self.service.game_here(self.channel_id)
                reply = await self.mail.invite(who, record.id, args[0], " ".join(args[1:]))
                return str(reply.text)
            if name == "mailgame" and len(args) >= 3:
                gid = await self.mail.create_game(args[1], " ".join(args[2:]), args[0],
                                                  channel_id=await self._make_thread(""))
                return f"Game #{gid} created; its organiser {args[1]} got a mail to invite and start."
        except BotError as err:
            return str(err)
        return "Usage: invite ADDRESS NAME | mailgame TITLE ADDRESS NAME"

    async def _use(self, args: list[str]) -> str:
        if not args or not args[0].lstrip("#").isdigit() or len(args[0]) > 12:
            return "Usage: use GAME_ID"
        record = await self.service.store.game(int(args[0].lstrip("#")))
        if record is None:
            return f"There is no game #{args[0]}."
        self.channel_id = record.thread_id or record.channel_id
        for p in record.players:
            self.names[p.user_id] = p.name
        return f"Now in game #{record.id} ({record.title}, {record.status})."

    def _image_path(self, game_id: int, filename: str) -> Path:
        """game<id>-<n>-<kind>.png, n one more than any image of that game already in the
        folder: names stay in order across restarts and never overwrite an earlier image."""
        self.images_dir.mkdir(parents=True, exist_ok=True)
        prefix = f"game{game_id}-"
        if game_id not in self._image_counts:
            numbers = [0]
            for f in self.images_dir.glob(f"{prefix}*"):
                stamp = f.name[len(prefix):].split("-", 1)[0]
                if stamp.isdigit():
                    numbers.append(int(stamp))
            self._image_counts[game_id] = max(numbers)
        while True:
            self._image_counts[game_id] += 1
            path = self.images_dir / f"{prefix}{self._image_counts[game_id]:04d}-{filename}"
            if not path.exists():
                return path

    def notice(self, msg: Outgoing) -> str:
        """A reminder or a follower's notice as the terminal shows it."""
        text = _MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), msg.text)
        text = _CHANNEL.sub("this game", text).replace("**", "")
        if msg.user_id is not None:
            return f"[to {self.names.get(msg.user_id, str(msg.user_id))}] {text}"
        return f"[notice] {text}"

    def start_notices(self, write: Callable[[str], None]) -> None:
        """Reminders and followers' notices, due while the terminal is open, are written out
        (the store keeps them claimed: none is shown twice, also across restarts)."""

        async def send(msg: Outgoing) -> None:
            write(self.notice(msg))

        self.service.start_notices(send)

    async def resume(self) -> str | None:
        """After a restart: go back to the latest game that is open or being played here."""
        games = await self.service.store.games_in_guild(None)
        if not games:
            return None
        record = games[-1]
        self.channel_id = record.thread_id or record.channel_id
        for p in record.players:
            self.names[p.user_id] = p.name
        return f"Back in game #{record.id} ({record.title}, {record.status})."

    async def _render(self, reply: Reply) -> str:
        record = await self.service.store.game_in_channel(self.channel_id)
        if record is not None:
            for p in record.players:
                self.names.setdefault(p.user_id, p.name)
        text = _MENTION.sub(lambda m: "@" + self.names.get(int(m.group(1)), m.group(1)), reply.text)
        text = _CHANNEL.sub("a new thread", text)
        text = text.replace("**", "")
        lines = [("(only you) " if reply.ephemeral else "") + text]
        # the terminal shows the images with the reply (no edit to come back to)
        reply.attachments.extend(await self.service.finish_images(reply))
        if reply.attachments:
            gid = record.id if record else 0
            for a in reply.attachments:
                path = self._image_path(gid, a.filename)
                path.write_bytes(a.data)
                lines.append(f"  wrote {path}")
        for b in reply.buttons:
            kind, answer, request = b.custom_id.split(":", 2)
            if kind == "run":
                typed = "run best"
            elif kind == "sale":
                typed = f"{'sell' if answer == 'yes' else 'keep'} train {request}"
            elif kind == "seat":
                typed = f"{'agree' if answer == 'yes' else 'disagree'} {request}"
            else:
                typed = f"{'allow' if answer == 'yes' else 'refuse'} {request}"
            lines.append(f"  [{b.label}] type: {typed}")
        return "\n".join(lines)


async def run_local(
    config: Config, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    store = await Store.open(config.store_target)
    service = Service.from_config(store, config)
    first = config.local_players[0] if config.local_players else None
    session = LocalSession(service, config.local_images, first)
    service.lag.start()
    service.groundwork.start()
    from bot.mail.transport import start_mail

    session.mail = await start_mail(config, service)
    out = stdout

    def write(text: str) -> None:  # a notice between prompts: on its own line, then the prompt
        out.write(f"\n{text}\n{session.player or '?'}> ")
        out.flush()

    session.start_notices(write)
    print("Local mode: type help for the commands, quit to leave.", file=stdout)
    back = await session.resume()
    if back:
        print(back, file=stdout)
    try:
        while True:
            prompt = f"{session.player or '?'}> "
            stdout.write(prompt)
            stdout.flush()
            line = await asyncio.to_thread(stdin.readline)
            if not line or line.strip() in ("quit", "exit"):
                break
            out = await session.handle(line)
            if out:
                print(out, file=stdout)
    finally:
        if session.mail is not None:
            await session.mail.stop()
        await service.stop_notices()
        await service.lag.stop()
        await service.groundwork.stop()
        service.close()
        await store.close()
    return 0
