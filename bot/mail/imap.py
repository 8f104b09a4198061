"""Inbound mail by polling an IMAP mailbox (stdlib imaplib on a worker thread), the other way
in beside the bot's own SMTP listener. Every `imap_poll` seconds of the service's clock the
poller logs in, reads the mailbox's unseen mails and hands each to `MailDesk.receive`, the
listener's path: the signed reply address in Delivered-To / X-Original-To / To / Cc decides
the seat, and a mail without a valid token changes nothing. A mail is flagged \\Seen (or moved
to `imap_move_to`) only once it was handled, so a crash between the two never loses one: the
mail is read again at the next poll and its Message-ID, already applied, changes nothing. A
server that cannot be reached is logged and tried again at the next poll; the game goes on."""

from __future__ import annotations

import asyncio
import contextlib
import imaplib
import logging
import re
import ssl
from email import message_from_bytes, policy
from email.utils import getaddresses, parseaddr
from typing import TYPE_CHECKING, Any

from bot.mail.settings import MailSettings

if TYPE_CHECKING:
    from bot.mail.transport import MailDesk

log = logging.getLogger(__name__)

# where a delivering server leaves the envelope recipient, most telling first
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "To", "Cc")
MAX_PER_POLL = 200  # mails handled in one poll; the rest wait for the next


class ImapFailure(Exception):
    """The server answered a command with NO or BAD."""


def envelope_of(raw: bytes) -> tuple[str, list[str]]:
    """(envelope sender, recipients) as the delivering server left them in the headers: the
    sender from Return-Path (`<>` for a bounce: empty), else From; the recipients from
    RECIPIENT_HEADERS in that order."""
    msg = message_from_bytes(raw, policy=policy.compat32)
    path = msg.get("Return-Path")
    sender = parseaddr(str(path))[1] if path is not None else parseaddr(str(msg.get("From",
                                                                                     "")))[1]
    rcpts: list[str] = []
    for name in RECIPIENT_HEADERS:
        values = [str(v) for v in msg.get_all(name) or []]
        for _n, address in getaddresses(values):
            if address and address not in rcpts:
                rcpts.append(address)
    return sender, rcpts


def _ok(answer: tuple[str, Any], what: str) -> list[Any]:
    typ, data = answer
    if typ != "OK":
        raise ImapFailure(f"{what}: {typ} {data!r}"[:300])
    return list(data or [])


class ImapBox:
    """One IMAP session (blocking: every method runs on a worker thread)."""

    def __init__(self, settings: MailSettings) -> None:
        self.s = settings
        self.conn: imaplib.IMAP4 | None = None

    def _context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.s.imap_ca_file or None)

    def open(self) -> None:
        s = self.s
        conn: imaplib.IMAP4
        if s.imap_tls == "tls":
            conn = imaplib.IMAP4_SSL(s.imap_host, s.imap_port, ssl_context=self._context(),
                                     timeout=s.imap_timeout)
        else:
            conn = imaplib.IMAP4(s.imap_host, s.imap_port, timeout=s.imap_timeout)
        self.conn = conn
        if s.imap_tls == "starttls":
            _ok(conn.starttls(ssl_context=self._context()), "STARTTLS")
        if s.imap_user:
            _ok(conn.login(s.imap_user, s.imap_password), "LOGIN")
        _ok(conn.select(_quoted(s.imap_mailbox)), f"SELECT {s.imap_mailbox}")

    def unseen(self) -> list[bytes]:
        assert self.conn is not None
        data = _ok(self.conn.uid("SEARCH", "UNSEEN"), "SEARCH UNSEEN")
        first = data[0] if data else b""
        return bytes(first).split() if isinstance(first, bytes) else []

    def fetch(self, uid: bytes) -> bytes | None:
        """The whole mail, without setting \\Seen (BODY.PEEK); None if it is gone."""
        assert self.conn is not None
        data = _ok(self.conn.uid("FETCH", uid.decode(), "(BODY.PEEK[])"), "FETCH")
        for item in data:
            if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
                return item[1]
        return None

    def done(self, uid: bytes) -> None:
        """The mail was handled: flagged \\Seen, or moved to imap_move_to."""
        assert self.conn is not None
        conn, target = self.conn, self.s.imap_move_to
        if not target:
            _ok(conn.uid("STORE", uid.decode(), "+FLAGS", "(\\Seen)"), "STORE \\Seen")
            return
        _ok(conn.uid("STORE", uid.decode(), "+FLAGS", "(\\Seen)"), "STORE \\Seen")
        if "MOVE" in conn.capabilities:
            _ok(conn.uid("MOVE", uid.decode(), _quoted(target)), f"MOVE {target}")
            return
        _ok(conn.uid("COPY", uid.decode(), _quoted(target)), f"COPY {target}")
        _ok(conn.uid("STORE", uid.decode(), "+FLAGS", "(\\Deleted)"), "STORE \\Deleted")
        _ok(conn.expunge(), "EXPUNGE")

    def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            conn.logout()
        with contextlib.suppress(Exception):
            conn.shutdown()


def _quoted(name: str) -> str:
    """A mailbox name as an IMAP string (imaplib sends the argument as it is)."""
    if re.fullmatch(r"[A-Za-z0-9_./-]+", name):
        return name
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


class ImapPoller:
    def __init__(self, desk: MailDesk) -> None:
        self.desk = desk
        self.settings = desk.settings
        self.polls = 0  # finished polls (tests, logs)
        self.failures = 0  # polls the server was not reachable or refused
        self.sleeping = False  # between two polls
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="rail: imap")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                await self.poll()
            except Exception:  # a fault of the bot's own: logged, the polls go on
                log.exception("mail: an IMAP poll failed")
            self.sleeping = True
            try:
                await self.desk.service.clock.sleep(self.settings.imap_poll)
            finally:
                self.sleeping = False

    async def poll(self) -> int:
        """One poll: every unseen mail handed to the desk; how many were handled. Never
        raises for the server's sake (logged; tried again at the next poll)."""
        box = ImapBox(self.settings)
        handled = 0
        try:
            await asyncio.to_thread(box.open)
            uids = await asyncio.to_thread(box.unseen)
            for uid in uids[:MAX_PER_POLL]:
                raw = await asyncio.to_thread(box.fetch, uid)
                if raw is None:
                    continue
                if not await self._hand(raw, uid):
                    continue  # left unseen: read again at the next poll
                await asyncio.to_thread(box.done, uid)
                handled += 1
        except (OSError, ssl.SSLError, imaplib.IMAP4.error, ImapFailure, EOFError) as err:
            self.failures += 1
            log.warning("mail: the IMAP mailbox %s@%s:%s could not be read (%s: %s); tried "
                        "again in %.0f s", self.settings.imap_user, self.settings.imap_host,
                        self.settings.imap_port, type(err).__name__, err,
                        self.settings.imap_poll)
        finally:
            await asyncio.to_thread(box.close)
            self.polls += 1
        return handled

    async def _hand(self, raw: bytes, uid: bytes) -> bool:
        mail_from, rcpts = envelope_of(raw)
        try:
            await self.desk.receive(mail_from, rcpts, raw)
        except Exception:
            log.exception("mail: IMAP mail %s could not be handled; read again next poll",
                          uid.decode())
            return False
        return True

