"""Outbound mail by SMTP (smtplib on a worker thread), with the TLS the settings ask for:
STARTTLS (submission, port 587), implicit TLS (port 465) or none (a relay on the same host).
A delivery the server refuses is returned as the reason, never raised: the game goes on."""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid

from bot.mail.settings import MailSettings


class Mailer:
    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings

    def new_message(self, to: str, subject: str, text: str, *, reply_to: str | None = None,
                    in_reply_to: str | None = None, references: str | None = None
                    ) -> EmailMessage:
        s = self.settings
        msg = EmailMessage()
        msg["From"] = formataddr((s.from_name, s.sender))
        msg["To"] = to
        msg["Subject"] = subject
        msg["Date"] = formatdate(localtime=False)
        msg["Message-ID"] = make_msgid(domain=s.domain)
        msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: vacation replies stay away
        if reply_to:
            msg["Reply-To"] = reply_to
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
        refs = " ".join(r for r in (references, in_reply_to) if r)
        if refs:
            msg["References"] = " ".join(dict.fromkeys(refs.split()))
        msg.set_content(text)
        return msg

    def _context(self) -> ssl.SSLContext:
        ctx = ssl.create_default_context(cafile=self.settings.smtp_ca_file or None)
        return ctx

    def _send(self, msg: EmailMessage) -> None:
        s = self.settings
        smtp: smtplib.SMTP
        if s.smtp_tls == "tls":
            smtp = smtplib.SMTP_SSL(s.smtp_host, s.smtp_port, timeout=s.smtp_timeout,
                                    context=self._context())
        else:
            smtp = smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=s.smtp_timeout)
        with smtp:
            smtp.ehlo()
            if s.smtp_tls == "starttls":
                smtp.starttls(context=self._context())
                smtp.ehlo()
            if s.smtp_user:
                smtp.login(s.smtp_user, s.smtp_password)
            # the envelope sender is the bot's own address: bounces come back to the listener
            smtp.send_message(msg, from_addr=s.sender)

    async def send(self, msg: EmailMessage) -> str | None:
        """Send; None when the server took the mail, else why it did not."""
        try:
            await asyncio.to_thread(self._send, msg)
        except (smtplib.SMTPException, OSError, ssl.SSLError) as err:
            return f"{type(err).__name__}: {err}"[:500]
        return None
