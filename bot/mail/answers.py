"""Answering a mail the listener took: the moves of a seat, an invitation's acceptance, a
bounce. Each returns the outcome kept with the mail's Message-ID (bot/mail/repo.py)."""

from __future__ import annotations

import logging
import re
from email.message import EmailMessage
from typing import TYPE_CHECKING

from bot.mail import compose
from bot.mail.parse import body_text, move_lines
from bot.mail.repo import Invite, MailSeat
from bot.mail.tokens import Token, new_nonce
from bot.replies import BotError
from bot.service import Who

if TYPE_CHECKING:
    from bot.mail.transport import MailDesk

log = logging.getLogger(__name__)
_MSGID = re.compile(r"<[^<>\s]+@[^<>\s]+>")


def _re(subject: str) -> str:
    subject = subject.strip() or "your moves"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


async def answer_moves(desk: MailDesk, seat: MailSeat, token: Token, msg: EmailMessage) -> str:
    """Apply the mail's lines in order until one is refused; answer with what happened and,
    if the game waits for this player again, their next turn."""
    assert token.stamp is not None
    record = await desk.service.game_record(seat.game_id)
    player = record.player_by_user(seat.user_id)
    key = (seat.game_id, seat.user_id)
    out: list[str] = []
    applied = 0
    refused = False
    desk._busy.add(key)
    try:
        if player is None:
            out.append("You no longer hold a seat in this game: nothing was changed.")
            refused = True
        lines = [] if refused else move_lines(body_text(msg))
        if not lines and not refused:
            out.append("I found no move lines in your mail: nothing was changed.")
        who = Who(seat.user_id, player.name if player else "?")
        stamp = token.stamp
        for i, line in enumerate(lines):
            try:
                reply = await desk.run_line(who, record, line, stamp)
            except BotError as err:
                out.append(f"REFUSED  {line}\n  {err}")
                rest = lines[i + 1:]
                if rest:
                    out.append("Not read (after the refusal): " + " | ".join(rest))
                refused = True
                break
            text = compose.plain(reply.text, record)
            out.append(f"OK  {line}\n  " + text.replace("\n", "\n  "))
            if reply.images is not None:  # the move's pictures: drawn for Discord, not mailed
                await desk.service.finish_images(reply)
            new = await desk.position(record.id)
            if new != stamp:  # a move (not a question) was applied
                applied += 1
                desk._post(record, f"(by e-mail) {reply.text}", reply.mention)
                stamp = new
        record = await desk.service.game_record(seat.game_id)
        seat = await desk.repo.seat(seat.game_id, seat.user_id) or seat
        turn = await desk.turn_section(record, seat)
        text = "\n\n".join(out)
        # the answer can always be answered: signed for this seat at the current position
        stamp_now = await desk.position(record.id)
        reply_to = desk.signer.move_address(seat.game_id, seat.user_id, stamp_now, seat.nonce)
        files: list[tuple[str, bytes]] = []
        if turn is not None:
            stamp_now, _subject, turn_text, files = turn
            text += "\n\n" + "-" * 40 + "\n" + turn_text
            reply_to = desk.signer.move_address(seat.game_id, seat.user_id, stamp_now, seat.nonce)
            await desk.repo.set_last_stamp(seat.game_id, seat.user_id, stamp_now)
        refs = " ".join(str(msg.get("References") or "").split()[-10:])
        await desk._send(seat, "answer", stamp_now, _re(str(msg.get("Subject") or "")), text,
                         files, reply_to=reply_to, in_reply_to=str(msg.get("Message-ID") or ""),
                         references=refs or seat.thread_root)
    finally:
        desk._busy.discard(key)
    desk._queue.put_nowait(seat.game_id)  # the others' turn mails, if the turn passed
    return f"applied {applied}" + (", refused" if refused else "")


async def answer_join(desk: MailDesk, invite: Invite, msg: EmailMessage) -> str:
    """Take the invitation's seat (open game, invitation not used yet)."""
    service = desk.service
    record = await service.game_record(invite.game_id)
    user_id = await desk.repo.user_for(invite.address, invite.name)
    who = Who(user_id, invite.name)
    seat = MailSeat(invite.game_id, user_id, invite.address, new_nonce(), None, None)
    if invite.status != "open":
        text, outcome = "This invitation was already used: nothing was changed.", "used"
    else:
        try:
            reply = await service.join(who, invite.game_id)
        except BotError as err:
            text, outcome = f"You could not take the seat: {err}", "refused"
        else:
            await desk.repo.take_invite(invite.id)
            await desk.repo.add_seat(invite.game_id, user_id, invite.address, seat.nonce)
            seat = await desk.repo.seat(invite.game_id, user_id) or seat
            text = (f"You have a seat in {record.title} game #{record.id}. Your turns will come "
                    "by mail once the game starts.\n\n" + compose.HOW_TO)
            outcome = "joined"
            desk._post(record, f"{reply.text} (by e-mail)")
    await desk._send(seat, "joined", None, _re(str(msg.get("Subject") or "")), text, [],
                     reply_to=None, in_reply_to=str(msg.get("Message-ID") or ""))
    return outcome


async def answer_bounce(desk: MailDesk, msg: EmailMessage) -> str:
    """A delivery report (or mail to the bot's own address): the mail it names is marked
    bounced; the game goes on and nothing is answered (no mail loops)."""
    found = []
    for part in msg.walk():
        ctype = part.get_content_type()
        if ctype in ("message/rfc822", "text/rfc822-headers", "message/rfc822-headers"):
            payload = part.get_payload()
            if isinstance(payload, list):  # message/rfc822: the returned mail itself
                text = str(payload[0]) if payload else ""
            else:
                raw = part.get_payload(decode=True)
                text = raw.decode(errors="replace") if isinstance(raw, bytes) else str(payload)
            found += re.findall(r"(?im)^message-id:\s*(<[^>]+>)", text)
    for message_id in found:
        if await desk.repo.mark_bounced(message_id, "bounced"):
            sent = await desk.repo.sent_mail(message_id)
            log.warning("mail %s bounced (game %s)", message_id, sent[0] if sent else "?")
            if sent and sent[0] is not None:
                record = await desk.service.store.game(int(sent[0]))
                if record is not None and sent[1] is not None:
                    p = record.player_by_user(int(sent[1]))
                    desk._post(record, f"A mail to {p.name if p else 'an e-mail player'} "
                               "bounced: the game goes on; the creator may /substitute them.")
            return "bounce"
    return "ignored"
