"""The bot's own SMTP listener (aiosmtpd) on the bot's event loop. A recipient is accepted
only if it is one of the bot's signed addresses (or the bot's own address, where bounces
arrive); anything else is refused at RCPT with 550, so a forged address changes nothing. The
mail is answered 250 only once it was handled: a sender retrying after a failure is safe
because a Message-ID is applied once."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from aiosmtpd.smtp import SMTP, Envelope, Session

if TYPE_CHECKING:
    from bot.mail.transport import MailDesk

log = logging.getLogger(__name__)
MAX_MAIL_BYTES = 10 * 2**20


class Handler:
    def __init__(self, desk: MailDesk) -> None:
        self.desk = desk

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope,
                          address: str, rcpt_options: list[str]) -> str:
        if not await self.desk.accepts(address):
            return "550 5.1.1 No such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content or b""
        if isinstance(raw, str):
            raw = raw.encode()
        try:
            await self.desk.receive(envelope.mail_from or "", list(envelope.rcpt_tos), raw)
        except Exception:
            log.exception("an inbound mail could not be handled")
            return "451 4.3.0 Try again later"
        return "250 OK"


async def start_listener(desk: MailDesk, host: str, port: int) -> asyncio.Server:
    """Listen on host:port (port 0: any free port, see `server.sockets`)."""
    loop = asyncio.get_running_loop()
    handler = Handler(desk)

    def factory() -> Any:
        return SMTP(handler, hostname=desk.settings.domain, data_size_limit=MAX_MAIL_BYTES,
                    decode_data=False)

    return await loop.create_server(factory, host=host, port=port)
