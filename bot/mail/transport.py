"""The e-mail transport on the service: turn mails out, move mails in, invitations.

Every turn change (the service's `turn_listeners`) queues the game; a worker mails each
e-mail player who must act once per position (the log's length, `stamp`), with a reply
address signed for that seat and that position. A mail to such an address is read line by
line (bot/mail/parse.py) and each line runs through the same service calls as a typed
command, in order, until one is refused; the sender gets one answer with what was applied,
the refusal and its reason, and the next turn if it is theirs again. A move mail whose
position has passed is refused (the player gets the current position); the same Message-ID
read twice changes nothing. Moves made by mail are posted to the game's Discord thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Any

from bot.commands import Commands, Ctx
from bot.config import Config
from bot.core import Turn
from bot.mail import compose
from bot.mail.imap import ImapPoller
from bot.mail.inbound import start_listener
from bot.mail.outbound import Mailer
from bot.mail.parse import read_line
from bot.mail.repo import Invite, MailRepo, MailSeat, is_mail_user
from bot.mail.settings import MailSettings, mail_settings
from bot.mail.tokens import Signer, Token, new_nonce
from bot.mail.turnmail import TurnMails
from bot.naming import Named
from bot.replies import BotError, Reply
from bot.service import Service, Who
from bot.specs import MOVES, SPECS
from bot.store import GameRecord
from bot.turns import Outgoing

log = logging.getLogger(__name__)

MOVE_NAMES = {s.name for s in MOVES}
INFO_NAMES = {"legal", "history", "status", "map", "market", "undo", "redo"}


async def start_mail(config: Config, service: Service) -> MailDesk | None:
    """The transport as config.toml's [mail] section sets it up (None: no [mail])."""
    settings = mail_settings(config.mail)
    if settings is None:
        return None
    desk = MailDesk(service, settings)
    await desk.start(listen=settings.listen)
    if desk.server is not None:
        log.info("mail: listening on %s:%s for %s", settings.listen_host, desk.port,
                 settings.domain)
    if desk.poller is not None:
        log.info("mail: polling %s on %s:%s every %.0f s", settings.imap_mailbox,
                 settings.imap_host, settings.imap_port, settings.imap_poll)
    return desk


class MailDesk(TurnMails):
    def __init__(self, service: Service, settings: MailSettings) -> None:
        self.service = service
        self.settings = settings
        self.repo = MailRepo(service.store)
        self.signer = Signer(settings.secret, settings.domain)
        self.mailer = Mailer(settings)
        self.commands = Commands(service)
        self._queue: asyncio.Queue[int] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._busy: set[tuple[int, int]] = set()  # seats whose mail is being answered
        self._tries: dict[tuple[int, int, int], int] = {}  # (game, user, position): retries
        self._retries: set[asyncio.Task[None]] = set()
        self._waiting: set[tuple[int, int, int]] = set()  # retries due later
        self.server: asyncio.Server | None = None
        self.poller: ImapPoller | None = None

    # -- life -------------------------------------------------------------------------------

    async def start(self, listen: bool = True) -> None:
        """Start the turn mails' worker, the SMTP listener (if `listen`) and the IMAP poller
        (if the settings name an IMAP server)."""
        self.service.turn_listeners.append(self._on_turn)
        self.service.mail_reminder = self.remind
        self._worker = asyncio.create_task(self._work(), name="rail: mail")
        if listen:
            self.server = await start_listener(self, self.settings.listen_host,
                                               self.settings.listen_port)
        if self.settings.imap_host:
            self.poller = ImapPoller(self)
            self.poller.start()

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self._on_turn in self.service.turn_listeners:
            self.service.turn_listeners.remove(self._on_turn)
        if self.service.mail_reminder == self.remind:
            self.service.mail_reminder = None
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        if self.poller is not None:
            await self.poller.stop()
        for task in list(self._retries):
            task.cancel()
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(BaseException):
                await self._worker

    async def settle(self) -> None:
        """Wait until every queued turn mail is sent (tests)."""
        await self._queue.join()

    def _on_turn(self, record: GameRecord, _turn: Turn, _stamp: int) -> None:
        self._queue.put_nowait(record.id)

    async def _work(self) -> None:
        while True:
            game_id = await self._queue.get()
            try:
                await self.notify(game_id)
            except Exception:
                log.exception("game %s: the turn mails could not be sent", game_id)
            finally:
                self._queue.task_done()

    # -- outbound ---------------------------------------------------------------------------

    def _post(self, record: GameRecord, text: str, mention: tuple[int, ...] = ()) -> None:
        """Say something in the game's Discord thread (through the notices loop)."""
        discord_users = tuple(u for u in mention if not is_mail_user(u))
        self.service.outbox.append(Outgoing(text, channel_id=record.thread_id or record.channel_id,
                                            mention=discord_users))
        self.service._wake.set()

    # -- games and invitations --------------------------------------------------------------

    async def create_game(self, address: str, name: str, title: str, channel_id: int,
                          guild_id: int | None = None, options: tuple[str, ...] = ()) -> int:
        """A game organised by e-mail: its creator's seat is an e-mail seat; they get a mail
        to answer with `invite ADDRESS NAME` lines, then `start NAME NAME ...`."""
        address = parseaddr(address)[1].strip().lower()
        user_id = await self.repo.user_for(address, name)
        record, reply = await self.service.create_game(
            Who(user_id, name), guild_id=guild_id, channel_id=channel_id, title=title,
            options=list(options), interaction_id=None)
        nonce = new_nonce()
        await self.repo.add_seat(record.id, user_id, address, nonce)
        seat = await self.repo.seat(record.id, user_id)
        assert seat is not None
        text = (compose.plain(reply.text, record) + "\n\nAnswer this mail with one line per "
                "player to invite:\n  invite ADDRESS NAME\nand, once they have joined, with\n"
                "  start NAME NAME ...   (the seat order; start alone seats at random)")
        await self._send(seat, "created", 0, f"{record.title} game #{record.id} is open", text,
                         [], reply_to=self.signer.move_address(record.id, user_id, 0, nonce))
        return record.id


    async def invite(self, who: Who, game_id: int, address: str, name: str) -> Reply:
        record = await self.service.game_record(game_id)
        if record.status != "open":
            raise BotError("This game has already started; nobody can join any more.")
        address = parseaddr(address)[1].strip().lower()
        if "@" not in address or len(address) > 254:
            raise BotError(f"{address!r} is not an e-mail address.")
        if record.player_by_user(who.user_id) is None and not who.is_admin:
            raise BotError("Only the game's players may invite.")
        nonce = new_nonce()
        invite_id = await self.repo.add_invite(game_id, address, name, who.user_id, nonce,
                                               self.service.clock.now())
        text = (f"{who.name} invites you to a {record.title} game (#{game_id}) moderated by "
                "this bot.\n\nTo take a seat, answer this mail (any text will do). Your turns "
                "will then come by mail; you answer each with your moves.\n\n" + compose.HOW_TO)
        msg = self.mailer.new_message(f"{name} <{address}>",
                                      f"Invitation: {record.title} game #{game_id}", text,
                                      reply_to=self.signer.join_address(game_id, invite_id, nonce))
        _mid, error = await self._deliver(msg, game_id, None, None, "invite", address)
        note = f" (not delivered: {error})" if error else ""
        return Reply(f"Invitation #{invite_id} mailed to {name}{note}: answering it takes a seat.")

    # -- inbound ----------------------------------------------------------------------------

    async def accepts(self, address: str) -> bool:
        """Whether the listener takes mail for this address (RCPT)."""
        if address.strip("<>").lower() == self.settings.sender.lower():
            return True  # bounces come back here
        token = self.signer.read(address)
        return token is not None and await self._verified(token) is not None

    async def _verified(self, token: Token) -> MailSeat | Invite | None:
        if token.kind == "move":
            seat = await self.repo.seat(token.game_id, token.ident)
            return seat if seat is not None and self.signer.valid(token, seat.nonce) else None
        invite = await self.repo.invite(token.ident)
        ok = invite is not None and invite.game_id == token.game_id
        return invite if ok and invite is not None and self.signer.valid(token, invite.nonce) \
            else None

    async def receive(self, mail_from: str, rcpts: list[str], raw: bytes) -> None:
        msg = message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        message_id = str(msg.get("Message-ID") or "").strip() or (
            "<sha256:" + hashlib.sha256(raw).hexdigest() + ">")
        if not await self.repo.claim(message_id, self.service.clock.now()):
            log.info("mail %s was read before: nothing changes", message_id)
            return
        token = next((t for t in map(self.signer.read, rcpts) if t is not None), None)
        try:
            outcome = await self._read(mail_from, token, msg)
        except BaseException:
            # not answered 250: the sender's server retries, and the retry must be read
            await self.repo.unclaim(message_id)
            raise
        await self.repo.settle(message_id, token.game_id if token else None,
                               token.ident if token and token.kind == "move" else None, outcome)

    async def _read(self, mail_from: str, token: Token | None, msg: EmailMessage) -> str:
        from bot.mail.answers import answer_bounce, answer_join, answer_moves

        outcome = "ignored"
        if token is None or not mail_from or str(msg.get_content_type()) == "multipart/report":
            outcome = await answer_bounce(self, msg)
        elif token.kind == "move":
            seat = await self._verified(token)
            if isinstance(seat, MailSeat):
                outcome = await answer_moves(self, seat, token, msg)
        else:
            invite = await self._verified(token)
            if isinstance(invite, Invite):
                outcome = await answer_join(self, invite, msg)
        return outcome

    # -- running one mail line --------------------------------------------------------------

    async def run_line(self, who: Who, record: GameRecord, line: str, stamp: int) -> Reply:
        """One line as the terminal would run it; a move is applied only at `stamp` (the
        position the mail answers) and at most once per position."""
        head = line.split(maxsplit=1)[0].lower().lstrip("/") if line.strip() else ""
        if head == "invite":
            words = line.split()
            if len(words) < 3:
                raise BotError("Usage: invite ADDRESS NAME")
            return await self.invite(who, record.id, words[1], " ".join(words[2:]))
        parsed = read_line(line)
        if isinstance(parsed, str):
            raise BotError(parsed[0].upper() + parsed[1:] + ".")
        name, args = parsed
        if name not in MOVE_NAMES | INFO_NAMES | {"start"}:
            raise BotError(f"{name!r} is not a move (by mail: moves, legal, history, status, "
                           "undo, redo; before the start: invite, start).")
        where = record.thread_id or record.channel_id
        if name == "start":
            by_name = {p.name.lower(): (p.user_id, p.name) for p in record.players}
            ctx = Ctx(who, record.guild_id, where,
                      resolve_user=lambda t: by_name.get(t.strip().lstrip("@").lower()))
            reply = await self.commands.run("start", ctx, **args)
            if reply.ephemeral:
                raise BotError(reply.text)
            return reply
        if name in INFO_NAMES:
            reply = await self.commands.run(name, Ctx(who, record.guild_id, where), **args)
            if reply.ephemeral and name in ("undo", "redo") and "already" not in reply.text:
                raise BotError(reply.text)
            return reply
        spec = SPECS[name]
        typed = self.commands._typed(spec, args)
        missing = [p.name for p in spec.params if p.required and p.name not in typed]
        if missing:
            raise BotError(f"{name} needs: {', '.join(missing)}.")
        now = await self.position(record.id)
        if now != stamp:
            raise BotError(f"This mail answers the position after move {stamp}; the game has "
                           f"moved on (move {now}): answer the latest mail.")
        builder = spec.move
        assert builder is not None

        def build(legal: Named) -> dict[str, Any]:
            return builder(legal, **typed)

        reply = await self.service.act(who, record.id, build,
                                       interaction_id=f"mail:{record.id}:{stamp}",
                                       at_position=stamp)
        if reply.ephemeral:  # already handled at this position
            raise BotError("A move was already made by mail at this position.")
        return reply

    async def position(self, game_id: int) -> int:
        state = await self.service.long.turn_state(game_id)
        if state is not None:
            return state.stamp
        return len(await self.service.store.actions(game_id))

