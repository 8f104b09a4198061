"""The [mail] section of config.toml (every key is documented in config.example.toml). The
SMTP password and the signing secret may come from the environment instead of the file."""

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
    )
