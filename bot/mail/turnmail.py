"""The turn mails of the e-mail transport (bot/mail/transport.py's MailDesk): each e-mail
player who must act gets one per position, with a reply address signed for that seat and
position; a reminder is the same mail again; a mail the server did not take for now is tried
again later, a permanent refusal is not."""

from __future__ import annotations

import asyncio
import logging
import re
from datetime import UTC, datetime
from email.message import EmailMessage

from bot.mail import compose
from bot.mail.outbound import Mailer
from bot.mail.repo import MailRepo, MailSeat
from bot.mail.settings import MailSettings
from bot.mail.tokens import Signer
from bot.replies import Reply
from bot.service import Service
from bot.store import GameRecord
from bot.store.longgames import TurnState
from engine.view import GameView

log = logging.getLogger(__name__)

# a turn mail the server did not take for now is tried again after these delays (seconds)
RETRY_AFTER = (60.0, 600.0, 3600.0, 6 * 3600.0)


def permanent_failure(error: str) -> bool:
    """An SMTP refusal with a 5xx code (no such user, ...): trying again would not help. A 4xx
    reply, a connection or TLS failure may pass."""
    return re.search(r"\(5\d\d,|^SMTP\w+: 5\d\d\b|\b5\.\d\.\d\b", error) is not None


class TurnMails:
    """MailDesk's outbound side (the attributes are MailDesk's)."""

    service: Service
    settings: MailSettings
    repo: MailRepo
    signer: Signer
    mailer: Mailer
    _queue: asyncio.Queue[int]
    _busy: set[tuple[int, int]]
    _tries: dict[tuple[int, int, int], int]
    _retries: set[asyncio.Task[None]]
    _waiting: set[tuple[int, int, int]]

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
