"""The [mail] section of config.toml (every key is documented in config.example.toml). The
SMTP and IMAP passwords and the signing secret may come from the environment instead of the
file."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

TLS_MODES = ("starttls", "tls", "none")


@dataclass(frozen=True, slots=True)
class MailSettings:
    domain: str  # the reply addresses' domain: its MX must reach the listener
    secret: str  # signs every reply address (keep it secret, at least 16 characters)
    from_address: str = ""  # default: moderator@<domain>
    from_name: str = "18xx moderator"
    listen_host: str = "127.0.0.1"
    listen_port: int = 2525
    smtp_host: str = "localhost"
    smtp_port: int = 587
    smtp_tls: str = "starttls"  # starttls | tls | none
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_ca_file: str = ""  # a CA bundle to trust (default: the system's)
    smtp_timeout: float = 30.0
    attach_images: bool = True
    listen: bool = True  # run the SMTP listener (default: only without an IMAP mailbox)
    imap_host: str = ""  # inbound by polling this IMAP server ("": no polling)
    imap_port: int = 993
    imap_tls: str = "tls"  # tls (port 993) | starttls (port 143) | none
    imap_user: str = ""
    imap_password: str = ""
    imap_ca_file: str = ""
    imap_mailbox: str = "INBOX"
    imap_move_to: str = ""  # handled mails are moved there ("": flagged \Seen and left)
    imap_poll: float = 60.0  # seconds between two polls
    imap_timeout: float = 30.0

    @property
    def sender(self) -> str:
        return self.from_address or f"moderator@{self.domain}"


def mail_settings(raw: dict[str, Any]) -> MailSettings | None:
    """The settings, or None when the section is absent or `enabled = false`."""
    if not raw or not raw.get("enabled", True):
        return None
    secret = os.environ.get("MAIL_SECRET") or str(raw.get("secret", ""))
    if len(secret) < 16:
        raise ValueError("[mail] secret (or MAIL_SECRET) must be at least 16 characters")
    tls = str(raw.get("smtp_tls", "starttls")).lower()
    if tls not in TLS_MODES:
        raise ValueError(f"[mail] smtp_tls must be one of {', '.join(TLS_MODES)}")
    imap_host = str(raw.get("imap_host", ""))
    imap_tls = str(raw.get("imap_tls", "tls")).lower()
    if imap_tls not in TLS_MODES:
        raise ValueError(f"[mail] imap_tls must be one of {', '.join(TLS_MODES)}")
    imap_poll = float(raw.get("imap_poll", 60.0))
    if imap_poll <= 0:
        raise ValueError("[mail] imap_poll must be a positive number of seconds")
    listen = bool(raw.get("listen", not imap_host))
    if not listen and not imap_host:
        raise ValueError("[mail] needs a way in: listen = true or an imap_host")
    return MailSettings(
        domain=str(raw["domain"]).lower(),
        secret=secret,
        from_address=str(raw.get("from_address", "")),
        from_name=str(raw.get("from_name", "18xx moderator")),
        listen_host=str(raw.get("listen_host", "127.0.0.1")),
        listen_port=int(raw.get("listen_port", 2525)),
        smtp_host=str(raw.get("smtp_host", "localhost")),
        smtp_port=int(raw.get("smtp_port", 587)),
        smtp_tls=tls,
        smtp_user=str(raw.get("smtp_user", "")),
        smtp_password=os.environ.get("MAIL_SMTP_PASSWORD") or str(raw.get("smtp_password", "")),
        smtp_ca_file=str(raw.get("smtp_ca_file", "")),
        smtp_timeout=float(raw.get("smtp_timeout", 30.0)),
        attach_images=bool(raw.get("attach_images", True)),
        listen=listen,
        imap_host=imap_host,
        imap_port=int(raw.get("imap_port", 993 if imap_tls == "tls" else 143)),
        imap_tls=imap_tls,
        imap_user=str(raw.get("imap_user", "")),
        imap_password=os.environ.get("MAIL_IMAP_PASSWORD") or str(raw.get("imap_password", "")),
        imap_ca_file=str(raw.get("imap_ca_file", "")),
        imap_mailbox=str(raw.get("imap_mailbox", "INBOX")),
        imap_move_to=str(raw.get("imap_move_to", "")),
        imap_poll=imap_poll,
        imap_timeout=float(raw.get("imap_timeout", 30.0)),
    )
