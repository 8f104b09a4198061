"""The e-mail transport's parts: signed addresses, reading move lines, the [mail] settings,
and outbound SMTP over STARTTLS and implicit TLS (with login) against aiosmtpd on 127.0.0.1
with a certificate made for the test."""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

from bot.config import load_config
from bot.mail.outbound import Mailer
from bot.mail.parse import move_lines, read_line
from bot.mail.settings import MailSettings, mail_settings
from bot.mail.tokens import Signer
from tests.bot.mailkit import Recorder, text_of

SECRET = "unit-secret-0123456789"


def test_signed_addresses_name_one_seat_and_position() -> None:
    s = Signer(SECRET, "Mod.Example")
    address = s.move_address(3, 3_000_000_001, 17, "nonce-a")
    token = s.read(address.upper())  # a mail system may change the case
    assert token is not None and (token.game_id, token.ident, token.stamp) == (3, 3_000_000_001, 17)
    assert s.valid(token, "nonce-a")
    assert not s.valid(token, "nonce-b")  # another seat's secret
    for forged in (address.replace(".17.", ".18."), address.replace("move+3.", "move+4."),
                   address.replace("@mod.example", "@other.example")):
        t = s.read(forged)
        assert t is None or not s.valid(t, "nonce-a"), forged
    assert not Signer("another-secret-0123", "mod.example").valid(token, "nonce-a")
    join = s.read(s.join_address(3, 5, "n"))
    assert join is not None and join.kind == "join" and s.valid(join, "n")
    assert s.read("move+1.2@mod.example") is None and s.read("bob@mod.example") is None
    with pytest.raises(ValueError):
        Signer("short", "mod.example")


def test_move_lines_skip_quotes_signatures_and_the_quoted_mail() -> None:
    body = ("bid M&O 70\n\n  buy GMO  \n> pass\n# a note\nOn Tue, 1 Dec 2026, Bot wrote:\n"
            "> sell GMO 20\n")
    assert move_lines(body) == ["bid M&O 70", "buy GMO"]
    assert move_lines("pass\n-- \nJo\nbuy GMO\n") == ["pass"]
    assert read_line("buy corporation=GMO share=GMO_2") == (
        "buy", {"corporation": "GMO", "share": "GMO_2"})
    assert read_line("lay H6 57 1") == ("lay", {"hex": "H6", "tile": "57", "rotation": 1})
    assert read_line("fly away") == "Unknown command 'fly'."
    assert isinstance(read_line('bid "M&O'), str)


def test_mail_settings_from_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[mail]\ndomain = "Mod.Example"\nsecret = "0123456789abcdefXYZ"\n'
                    'smtp_host = "smtp.example"\nsmtp_port = 465\nsmtp_tls = "tls"\n')
    settings = mail_settings(load_config(path).mail)
    assert settings is not None
    assert (settings.domain, settings.smtp_port, settings.smtp_tls) == ("mod.example", 465, "tls")
    assert settings.sender == "moderator@mod.example"
    monkeypatch.setenv("MAIL_SMTP_PASSWORD", "from-env")
    settings = mail_settings(load_config(path).mail)
    assert settings is not None and settings.smtp_password == "from-env"
    assert mail_settings({}) is None
    with pytest.raises(ValueError, match="smtp_tls"):
        mail_settings({"domain": "x", "secret": "0123456789abcdefXYZ", "smtp_tls": "ssl3"})
    with pytest.raises(ValueError, match="secret"):
        mail_settings({"domain": "x", "secret": "short"})


def test_imap_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    base = {"domain": "x", "secret": "0123456789abcdefXYZ"}
    plain = mail_settings(base)
    assert plain is not None and plain.listen and not plain.imap_host  # the listener alone
    s = mail_settings({**base, "imap_host": "imap.x", "imap_user": "bot", "imap_poll": 30})
    assert s is not None and not s.listen  # with a mailbox the listener is off by default
    assert (s.imap_port, s.imap_tls, s.imap_mailbox, s.imap_poll) == (993, "tls", "INBOX", 30.0)
    s = mail_settings({**base, "imap_host": "imap.x", "imap_tls": "STARTTLS", "listen": True})
    assert s is not None and s.listen and (s.imap_port, s.imap_tls) == (143, "starttls")
    monkeypatch.setenv("MAIL_IMAP_PASSWORD", "from-env")
    s = mail_settings({**base, "imap_host": "imap.x", "imap_password": "in-file"})
    assert s is not None and s.imap_password == "from-env"
    with pytest.raises(ValueError, match="imap_tls"):
        mail_settings({**base, "imap_host": "imap.x", "imap_tls": "ssl"})
    with pytest.raises(ValueError, match="imap_poll"):
        mail_settings({**base, "imap_host": "imap.x", "imap_poll": 0})
    with pytest.raises(ValueError, match="a way in"):
        mail_settings({**base, "listen": False})


needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is absent")


def _certificate(tmp: Path) -> tuple[Path, Path]:
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    return cert, key


def _auth(server: Any, session: Any, envelope: Any, mechanism: str, data: Any) -> AuthResult:
    ok = isinstance(data, LoginPassword) and (data.login, data.password) == (b"bot", b"pw")
    return AuthResult(success=ok, handled=False)


@needs_openssl
@pytest.mark.parametrize("mode", ["starttls", "tls"])
async def test_outbound_over_tls_with_login(tmp_path: Path, mode: str) -> None:
    cert, key = _certificate(tmp_path)
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    recorder = Recorder()
    loop = asyncio.get_running_loop()
    if mode == "starttls":
        server = await loop.create_server(
            lambda: SMTP(recorder, tls_context=ctx, require_starttls=True, authenticator=_auth,
                         auth_required=True), "127.0.0.1", 0)
    else:
        server = await loop.create_server(
            lambda: SMTP(recorder, authenticator=_auth, auth_required=True,
                         auth_require_tls=False), "127.0.0.1", 0, ssl=ctx)
    port = server.sockets[0].getsockname()[1]
    try:
        base = dict(domain="mod.example", secret=SECRET, smtp_host="localhost", smtp_port=port,
                    smtp_tls=mode, smtp_user="bot", smtp_ca_file=str(cert), smtp_timeout=10)
        good = Mailer(MailSettings(**base, smtp_password="pw"))  # type: ignore[arg-type]
        assert await good.send(good.new_message("p@x.test", "Hello", "over TLS")) is None
        assert text_of(recorder.last("p@x.test")).strip() == "over TLS"
        wrong = Mailer(MailSettings(**base, smtp_password="no"))  # type: ignore[arg-type]
        error = await wrong.send(wrong.new_message("p@x.test", "Hello", "x"))
        assert error is not None and "Authentication" in error
        untrusted = Mailer(MailSettings(**{**base, "smtp_ca_file": ""},  # type: ignore[arg-type]
                                        smtp_password="pw"))
        error = await untrusted.send(untrusted.new_message("p@x.test", "Hello", "x"))
        assert error is not None and "CERTIFICATE_VERIFY_FAILED" in error
        assert len(recorder.mails) == 1
    finally:
        server.close()
        await server.wait_closed()
