"""Real SMTP on 127.0.0.1 for the e-mail transport's tests: the bot's own listener (aiosmtpd,
bot/mail/inbound.py) and a recording outbound server (aiosmtpd too) the bot sends through,
players who answer the bot's mails with smtplib, and a service on a real SQLite file. For the
IMAP way in, a real IMAP server (pymap, in memory) the players' mails are delivered to."""

from __future__ import annotations

import asyncio
import imaplib
import smtplib
import ssl
from argparse import Namespace
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session

from bot.clock import FakeClock
from bot.mail.settings import MailSettings
from bot.mail.transport import MailDesk
from bot.service import Service
from bot.store import Store

SECRET = "test-secret-0123456789abcdef"
DOMAIN = "moderator.test"


@dataclass
class Recorder:
    """The outbound SMTP server: keeps every mail; refuses the addresses in `refuse`."""

    mails: list[tuple[str, list[str], EmailMessage]] = field(default_factory=list)
    refuse: set[str] = field(default_factory=set)
    defer: set[str] = field(default_factory=set)  # answered "try again later" (4xx)

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, options: list[str]) -> str:
        if address.lower() in self.refuse:
            return "550 5.1.1 No such user"
        if address.lower() in self.defer:
            return "450 4.2.0 Mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        msg = message_from_bytes(raw, policy=policy.default)
        assert isinstance(msg, EmailMessage)
        self.mails.append((str(envelope.mail_from), list(envelope.rcpt_tos), msg))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for _f, rcpts, m in self.mails if address in rcpts]

    def last(self, address: str) -> EmailMessage:
        mails = self.to(address)
        assert mails, f"no mail to {address}"
        return mails[-1]


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def pngs_of(msg: EmailMessage) -> dict[str, bytes]:
    return {str(p.get_filename()): bytes(p.get_content()) for p in msg.iter_attachments()
            if p.get_content_type() == "image/png"}


class MailEnv:
    def __init__(self, tmp: Path, render_images: bool = False,
                 service: Service | None = None, *, listen: bool = True,
                 **settings: Any) -> None:
        self.tmp = tmp
        self.listen = listen
        self.extra = settings  # more MailSettings (the IMAP ones)
        self.render_images = render_images
        self.recorder = Recorder()
        self.clock = FakeClock()
        self._outbound: asyncio.Server | None = None
        self.store: Store | None = None
        self._service = service
        self.desk: MailDesk | None = None

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._outbound = await loop.create_server(lambda: SMTP(self.recorder), "127.0.0.1", 0)
        port = self._outbound.sockets[0].getsockname()[1]
        if self._service is None:
            self.store = await Store.open(self.tmp / "mail.sqlite3")
            self._service = Service(self.store, render_images=self.render_images,
                                    clock=self.clock)
        settings = MailSettings(domain=DOMAIN, secret=SECRET, listen_port=0,
                                smtp_host="127.0.0.1", smtp_port=int(port), smtp_tls="none",
                                smtp_timeout=10, listen=self.listen, **self.extra)
        self.desk = MailDesk(self._service, settings)
        await self.desk.start(listen=self.listen)

    @property
    def service(self) -> Service:
        assert self._service is not None
        return self._service

    @property
    def mail(self) -> MailDesk:
        assert self.desk is not None
        return self.desk

    async def stop(self) -> None:
        if self.desk is not None:
            await self.desk.stop()
        if self._outbound is not None:
            self._outbound.close()
            await self._outbound.wait_closed()
        if self.store is not None:
            self._service and self._service.close()
            await self.store.close()

    async def poll(self) -> None:
        """Let the IMAP poller's interval pass on the fake clock and wait for that poll and
        the turn mails it causes."""
        poller = self.mail.poller
        assert poller is not None
        await self._until(lambda: poller.sleeping)
        done = poller.polls
        self.clock.advance(self.mail.settings.imap_poll)
        await self._until(lambda: poller.polls > done and poller.sleeping)
        await self.mail.settle()

    @staticmethod
    async def _until(condition: Any, timeout: float = 30.0) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not condition():
            assert loop.time() < end, "the IMAP poller did not get there in time"
            await asyncio.sleep(0.01)

    def _smtp_send(self, mail_from: str, rcpt: str, raw: bytes) -> dict[str, Any]:
        with smtplib.SMTP("127.0.0.1", self.mail.port, timeout=30) as s:
            return s.sendmail(mail_from, [rcpt], raw)

    async def send(self, msg: EmailMessage, *, rcpt: str | None = None,
                   mail_from: str | None = None) -> None:
        """Deliver to the bot's listener (raises smtplib's error if a recipient is refused),
        then wait for the turn mails it causes."""
        to = rcpt or str(msg["To"])
        sender = mail_from if mail_from is not None else str(msg["From"])
        await asyncio.to_thread(self._smtp_send, sender, to, msg.as_bytes(policy=policy.SMTP))
        await self.mail.settle()

    @staticmethod
    def answer(to_msg: EmailMessage, sender: str, lines: list[str], *,
               message_id: str | None = None) -> EmailMessage:
        """A player's answer to one of the bot's mails, as a mail program writes it: the
        move lines, a signature, then the quoted mail."""
        reply = EmailMessage()
        reply["From"] = sender
        reply["To"] = str(to_msg["Reply-To"])
        reply["Subject"] = "Re: " + str(to_msg["Subject"])
        reply["Message-ID"] = message_id or make_msgid(domain="player.test")
        reply["In-Reply-To"] = str(to_msg["Message-ID"])
        reply["References"] = str(to_msg["Message-ID"])
        quoted = "\n".join("> " + line for line in text_of(to_msg).splitlines()[:20])
        reply.set_content("\n".join(lines) + "\n\n-- \nsent from my phone\npass\n\n"
                          + f"On Tue, the moderator wrote:\n{quoted}\n")
        return reply


class ImapServer:
    """A real IMAP server on 127.0.0.1 (pymap's in-memory backend), one user `bot` / `pw`.
    `stop()` closes the port (the mailbox is kept); `start()` opens it again on the same port.
    With `ssl_context`, STARTTLS is offered, or (implicit=True) the port speaks TLS only."""

    USER, PASSWORD = "bot", "pw"

    def __init__(self, ssl_context: ssl.SSLContext | None = None, implicit: bool = False
                 ) -> None:
        self.ssl_context = ssl_context
        self.implicit = implicit
        self.port = 0
        self.server: asyncio.Server | None = None
        self._callback: Any = None

    async def start(self) -> None:
        if self._callback is None:
            from proxyprotocol.reader import ProxyProtocolReader
            from pymap.backend.dict import Config, DictBackend, Login
            from pymap.imap import IMAPServer
            from pysasl.hashing import Cleartext

            args = Namespace(passlib_cfg=None, proxy_protocol=None, debug=False)
            config = Config(args, host="127.0.0.1", port=0, demo_data=False,
                            demo_user=self.USER, demo_password=self.PASSWORD,
                            tls_enabled=self.ssl_context is not None and not self.implicit,
                            ssl_context=self.ssl_context, secure_auth=False,
                            reject_dnsbl=False, invalid_user_sleep=0.0,
                            hash_context=Cleartext())  # (a hashed password: ~1 s a login)
            config.apply_context()
            login = Login(config)
            await DictBackend._add_demo_user(config, login)
            reader = ProxyProtocolReader(config.proxy_protocol)
            self._callback = reader.get_callback(IMAPServer(login, config))
        self.server = await asyncio.start_server(
            self._callback, "127.0.0.1", self.port,
            ssl=self.ssl_context if self.implicit else None)
        self.port = int(self.server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None

    def settings(self, **more: Any) -> dict[str, Any]:
        """The MailSettings that poll this server."""
        return {"imap_host": "127.0.0.1", "imap_port": self.port, "imap_tls": "none",
                "imap_user": self.USER, "imap_password": self.PASSWORD, "imap_poll": 60.0,
                "imap_timeout": 10.0, **more}

    def _client(self) -> imaplib.IMAP4:
        c: imaplib.IMAP4
        if self.implicit:  # the test's own client does not check the server's certificate
            c = imaplib.IMAP4_SSL("127.0.0.1", self.port, timeout=10,
                                  ssl_context=ssl._create_unverified_context())
        else:
            c = imaplib.IMAP4("127.0.0.1", self.port, timeout=10)
        c.login(self.USER, self.PASSWORD)
        return c

    def _append(self, mailbox: str, raw: bytes) -> None:
        c = self._client()
        try:
            typ, data = c.append(mailbox, None, None, raw)
            assert typ == "OK", data
        finally:
            c.logout()

    async def deliver(self, msg: EmailMessage, *, rcpt: str | None = None,
                      mail_from: str | None = None, mailbox: str = "INBOX") -> None:
        """Put a mail in the mailbox as a delivering server does: Return-Path and
        Delivered-To (the envelope) on top of the mail's own headers."""
        to = rcpt or str(msg["To"])
        sender = mail_from if mail_from is not None else str(msg["From"])
        raw = (f"Return-Path: <{sender}>\r\nDelivered-To: {to}\r\n".encode()
               + msg.as_bytes(policy=policy.SMTP))
        await asyncio.to_thread(self._append, mailbox, raw)

    def _command(self, mailbox: str, *command: str) -> list[Any]:
        c = self._client()
        try:
            typ, _ = c.select(mailbox)
            assert typ == "OK", mailbox
            typ, data = c.uid(*command)
            assert typ == "OK", data
            return list(data)
        finally:
            c.logout()

    async def uids(self, mailbox: str = "INBOX", criterion: str = "ALL") -> list[bytes]:
        data = await asyncio.to_thread(self._command, mailbox, "SEARCH", criterion)
        return bytes(data[0]).split() if data and data[0] else []

    async def command(self, mailbox: str, *command: str) -> list[Any]:
        return await asyncio.to_thread(self._command, mailbox, *command)

    async def create(self, mailbox: str) -> None:
        def run() -> None:
            c = self._client()
            try:
                assert c.create(mailbox)[0] == "OK"
            finally:
                c.logout()
        await asyncio.to_thread(run)
