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
import re
from datetime import UTC, datetime
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import parseaddr
from typing import Any

from bot.commands import Commands, Ctx
from bot.config import Config
from bot.core import Turn
from bot.mail import compose
from bot.mail.inbound import start_listener
from bot.mail.outbound import Mailer
from bot.mail.parse import read_line
from bot.mail.repo import Invite, MailRepo, MailSeat, is_mail_user
from bot.mail.settings import MailSettings, mail_settings
from bot.mail.tokens import Signer, Token, new_nonce
from bot.naming import Named
from bot.replies import BotError, Reply
from bot.service import Service, Who
from bot.specs import MOVES, SPECS
from bot.store import GameRecord
from bot.store.longgames import TurnState
from bot.turns import Outgoing
from engine.view import GameView

log = logging.getLogger(__name__)

MOVE_NAMES = {s.name for s in MOVES}
INFO_NAMES = {"legal", "history", "status", "map", "market", "undo", "redo"}


async def start_mail(config: Config, service: Service) -> MailDesk | None:
    """The transport as config.toml's [mail] section sets it up (None: no [mail])."""
    settings = mail_settings(config.mail)
    if settings is None:
        return None
    desk = MailDesk(service, settings)
    await desk.start()
    log.info("mail: listening on %s:%s for %s", settings.listen_host, desk.port, settings.domain)
    return desk


# a turn mail the server did not take for now is tried again after these delays (seconds)
RETRY_AFTER = (60.0, 600.0, 3600.0, 6 * 3600.0)


def permanent_failure(error: str) -> bool:
    """An SMTP refusal with a 5xx code (no such user, ...): trying again would not help. A 4xx
    reply, a connection or TLS failure may pass."""
    return re.search(r"\(5\d\d,|^SMTP\w+: 5\d\d\b|\b5\.\d\.\d\b", error) is not None


class MailDesk:
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

    # -- life -------------------------------------------------------------------------------

    async def start(self, listen: bool = True) -> None:
        self.service.turn_listeners.append(self._on_turn)
        self.service.mail_reminder = self.remind
        self._worker = asyncio.create_task(self._work(), name="rail: mail")
        if listen:
            self.server = await start_listener(self, self.settings.listen_host,
                                               self.settings.listen_port)

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

    async def notify(self, game_id: int) -> None:
        """Mail each e-mail player of the game who must act now (once per position), or the
        result once the game is over."""
        seats = await self.repo.seats(game_id)
        if not seats:
            return
        record = await self.service.game_record(game_id)
        if record.status not in ("active", "finished"):
            return
        for seat in seats:
            if (game_id, seat.user_id) in self._busy or record.player_by_user(seat.user_id) is None:
                continue
            turn = await self.turn_section(record, seat)
            if turn is None:
                continue
            stamp, subject, text, files = turn
            if seat.last_stamp == stamp:
                continue
            await self.repo.set_last_stamp(game_id, seat.user_id, stamp)
            msg = self.mailer.new_message(
                seat.address, subject, text, references=seat.thread_root,
                reply_to=self.signer.move_address(game_id, seat.user_id, stamp, seat.nonce))
            for name, data in files:
                msg.add_attachment(data, maintype="image", subtype="png", filename=name)
            _id, error = await self._deliver(msg, game_id, seat.user_id, stamp, "turn",
                                             seat.address)
            if error is not None and not permanent_failure(error):
                # not taken for now (a busy or unreachable server): tried again later
                await self.repo.set_last_stamp(game_id, seat.user_id, seat.last_stamp)
                self._retry_later(game_id, seat.user_id, stamp)

    def _retry_later(self, game_id: int, user_id: int, stamp: int) -> None:
        """Queue the game's turn mails again after the next delay of RETRY_AFTER (at most that
        many tries for one position; the service's clock, so tests run at once)."""
        key = (game_id, user_id, stamp)
        if key in self._waiting:  # a retry of this mail is due already
            return
        tries = self._tries.get(key, 0)
        if tries >= len(RETRY_AFTER):
            log.warning("game %s: gave up mailing user %s after %d tries", game_id, user_id,
                        tries + 1)
            return
        self._tries[key] = tries + 1

        async def later() -> None:
            self._waiting.add(key)
            try:
                await self.service.clock.sleep(RETRY_AFTER[tries])
            finally:
                self._waiting.discard(key)
            self._queue.put_nowait(game_id)

        task = asyncio.get_running_loop().create_task(later(), name="rail: mail retry")
        self._retries.add(task)
        task.add_done_callback(self._retries.discard)

    async def remind(self, record: GameRecord, user_id: int, state: TurnState) -> None:
        """A reminder to an e-mail player (the reminder loop claimed it): the turn mail again,
        under a reminder's subject, answerable as the turn mail is."""
        seat = await self.repo.seat(record.id, user_id)
        if seat is None:
            return
        turn = await self.turn_section(record, seat)
        if turn is None:
            return
        stamp, subject, text, files = turn
        since = datetime.fromtimestamp(state.last_move, UTC).strftime("%Y-%m-%d %H:%M UTC")
        await self._send(seat, "reminder", stamp, f"Reminder: {subject}",
                         f"A reminder: the game waits for you since {since}.\n\n{text}", files,
                         reply_to=self.signer.move_address(record.id, user_id, stamp, seat.nonce))

    async def turn_section(self, record: GameRecord, seat: MailSeat
                           ) -> tuple[int, str, str, list[tuple[str, bytes]]] | None:
        """(stamp, subject, body, images) of the turn mail, or None if the game does not wait
        for this player."""
        s = self.service
        player = record.player_by_user(seat.user_id)
        if player is None or record.status not in ("active", "finished"):
            return None
        async with s._locks[record.id]:
            live = await s._live(record.id)
            legal, turn = await s.run_engine(s._legal_turn, live.game)
            view: GameView = await s.run_engine(live.game.view)
            records = list(live.records)
        stamp = len(records)
        events = compose.events_since(live.record, records, seat.user_id, s._author)
        title = f"{record.title} game #{record.id}"
        if turn.finished:
            subject = f"{title} is over"
            lines = [s._result_text(live.record, turn)]
        elif player.engine_id in turn.acting:
            entity = turn.entity
            what = f" ({entity})" if entity and entity != player.engine_id else ""
            subject = f"{title}: waiting for {player.name}{what} — {view.round}"
            lines = [f"{player.name}, it is your turn{what}.", ""]
            lines += compose.legal_text(legal)
        else:
            return None
        body = "\n".join(lines)
        if events:
            body += "\n\nSince your last move:\n" + "\n".join(events)
        card = compose.card_text(view)
        if card:
            body += "\n\nThe card:\n" + "\n".join(card)
        if not turn.finished:
            body += "\n\n" + compose.HOW_TO
        files: list[tuple[str, bytes]] = []
        if self.settings.attach_images and s.render_images:
            pictures = Reply("")
            await s._add_images(pictures, record.id, stamp, view, ("map", "market"))
            files = [(a.filename, a.data) for a in pictures.attachments]
        return stamp, subject, body, files

    async def _send(self, seat: MailSeat, kind: str, stamp: int | None, subject: str, text: str,
                    files: list[tuple[str, bytes]], *, reply_to: str | None,
                    in_reply_to: str | None = None, references: str | None = None) -> str:
        msg = self.mailer.new_message(seat.address, subject, text, reply_to=reply_to,
                                      in_reply_to=in_reply_to,
                                      references=references or seat.thread_root)
        for name, data in files:
            msg.add_attachment(data, maintype="image", subtype="png", filename=name)
        return (await self._deliver(msg, seat.game_id, seat.user_id, stamp, kind,
                                    seat.address))[0]

    async def _deliver(self, msg: EmailMessage, game_id: int | None, user_id: int | None,
                       stamp: int | None, kind: str, address: str) -> tuple[str, str | None]:
        error = await self.mailer.send(msg)
        message_id = str(msg["Message-ID"])
        await self.repo.sent(message_id, game_id, user_id, stamp, kind, address,
                             "sent" if error is None else "failed", error,
                             self.service.clock.now())
        if error is not None:  # the game goes on; the player can still answer a later mail
            log.warning("game %s: mail to %s not delivered: %s", game_id, address, error)
        elif game_id is not None and user_id is not None:
            await self.repo.set_thread_root(game_id, user_id, message_id)
        return message_id, error

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
                                       interaction_id=f"mail:{record.id}:{stamp}")
        if reply.ephemeral:  # already handled at this position
            raise BotError("A move was already made by mail at this position.")
        return reply

    async def position(self, game_id: int) -> int:
        state = await self.service.long.turn_state(game_id)
        if state is not None:
            return state.stamp
        return len(await self.service.store.actions(game_id))

