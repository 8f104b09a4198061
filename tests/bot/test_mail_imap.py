"""Inbound mail by polling an IMAP mailbox, against a real IMAP server on 127.0.0.1 (pymap,
in memory): the players' mails are delivered into the mailbox, the bot polls it on its fake
clock and answers by SMTP through the recording server. The SMTP listener is off: a game is
organised and played through the mailbox alone. A move is applied once and answered, a forged
or unsigned mail changes nothing, a mail read twice is applied once, a server that is down
for a poll does not stop the game."""

from __future__ import annotations

import logging
import re
import ssl
from collections.abc import AsyncIterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from bot.mail.imap import envelope_of
from tests.bot.mailkit import DOMAIN, ImapServer, MailEnv, text_of
from tests.bot.test_mail_units import _certificate, needs_openssl

ALICE, BOB, CY = "alice@players.test", "bob@players.test", "cy@players.test"


@pytest.fixture
async def imap() -> AsyncIterator[ImapServer]:
    server = ImapServer()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def env_for(tmp: Path, imap: ImapServer, **more: object) -> MailEnv:
    e = MailEnv(tmp, listen=False, **imap.settings(**more))
    await e.start()
    return e


@pytest.fixture
async def menv(tmp_path: Path, imap: ImapServer) -> AsyncIterator[MailEnv]:
    e = await env_for(tmp_path, imap)
    try:
        yield e
    finally:
        await e.stop()


async def mailed(menv: MailEnv, imap: ImapServer, msg: EmailMessage, **kw: str) -> None:
    """The mail arrives in the mailbox; the next poll reads it."""
    await imap.deliver(msg, **kw)
    await menv.poll()


async def opened(menv: MailEnv, imap: ImapServer) -> int:
    """Alice organises an 18MS game, Bob and Cy join, she starts it: every answer through
    the IMAP mailbox."""
    assert menv.mail.server is None and menv.mail.poller is not None
    gid = await menv.mail.create_game(f"Alice <{ALICE}>", "Alice", "18MS", channel_id=900)
    created = menv.recorder.last(ALICE)
    await mailed(menv, imap, MailEnv.answer(created, ALICE,
                                            [f"invite {BOB} Bob", f"invite {CY} Cy"]))
    for who in (BOB, CY):
        await mailed(menv, imap, MailEnv.answer(menv.recorder.last(who), who, ["yes"]))
        assert "You have a seat" in text_of(menv.recorder.last(who))
    await mailed(menv, imap, MailEnv.answer(menv.recorder.last(ALICE), ALICE,
                                            ["start Alice Bob Cy"]))
    record = await menv.service.game_record(gid)
    assert record.status == "active"
    assert [p.name for p in record.players] == ["Alice", "Bob", "Cy"]
    return gid


async def test_a_move_in_the_mailbox_is_applied_once_and_answered(
        menv: MailEnv, imap: ImapServer) -> None:
    gid = await opened(menv, imap)
    turn = menv.recorder.last(CY)
    assert "waiting for Cy" in str(turn["Subject"])
    before = len(menv.recorder.mails)
    await mailed(menv, imap, MailEnv.answer(turn, CY, ["bid M&O 70"]))
    actions = await menv.service.store.actions(gid)
    assert [(r.action["type"], r.action.get("company")) for r in actions] == [("bid", "M&O")]
    answers = [m for _f, r, m in menv.recorder.mails[before:] if CY in r]
    assert text_of(answers[0]).startswith("OK  bid M&O 70"), text_of(answers[0])
    assert "waiting for Bob" in str(menv.recorder.last(BOB)["Subject"])
    # every mail the bot read is flagged \Seen and left in the mailbox; none is unseen
    assert len(await imap.uids()) == 5
    assert await imap.uids(criterion="UNSEEN") == []
    # further polls with nothing new change nothing
    count = len(menv.recorder.mails)
    await menv.poll()
    await menv.poll()
    assert len(await menv.service.store.actions(gid)) == 1
    assert len(menv.recorder.mails) == count


async def test_forged_or_unsigned_mails_change_nothing(menv: MailEnv, imap: ImapServer) -> None:
    gid = await opened(menv, imap)
    turn = menv.recorder.last(CY)
    good = str(turn["Reply-To"])
    local, _at, domain = good.partition("@")
    bad_sig = local[:-1] + ("a" if local[-1] != "a" else "b") + "@" + domain
    other_seat = re.sub(r"^move\+(\d+)\.(\d+)\.", lambda m: f"move+{m[1]}.{int(m[2]) - 1}.",
                        good)
    before = len(menv.recorder.mails)
    for forged in (bad_sig, other_seat, f"move+{gid}.1.0.aaaaaaaaaaaaaaaa@{DOMAIN}",
                   f"someone@{DOMAIN}", "cy@players.test"):
        mail = MailEnv.answer(turn, CY, ["bid M&O 70"])
        mail.replace_header("To", forged)
        await imap.deliver(mail, rcpt=forged)
    await menv.poll()
    assert await menv.service.store.actions(gid) == []
    assert len(menv.recorder.mails) == before  # nothing answered (no mail loops)
    # each was read once and flagged \Seen: not read again at every poll
    assert await imap.uids(criterion="UNSEEN") == []
    # the From header is not trusted: Alice writing to Cy's signed address moves Cy's seat,
    # and the answer goes to Cy, never to Alice
    await mailed(menv, imap, MailEnv.answer(turn, ALICE, ["bid M&O 70"]))
    after = menv.recorder.mails[before:]
    assert all(ALICE not in r for _f, r, _m in after)
    assert any(CY in r for _f, r, _m in after)


async def test_the_same_mail_read_twice_is_applied_once(menv: MailEnv, imap: ImapServer) -> None:
    gid = await opened(menv, imap)
    mail = MailEnv.answer(menv.recorder.last(CY), CY, ["bid M&O 70"])
    await mailed(menv, imap, mail)
    count = len(menv.recorder.mails)
    assert len(await menv.service.store.actions(gid)) == 1
    # delivered twice (a forwarding server's retry): the second copy changes nothing
    await mailed(menv, imap, mail)
    assert len(await menv.service.store.actions(gid)) == 1
    assert len(menv.recorder.mails) == count
    # a crash between handling a mail and flagging it leaves it unseen: read again, nothing
    # changes, and it is flagged this time
    uid = (await imap.uids())[-2]
    await imap.command("INBOX", "STORE", uid.decode(), "-FLAGS", "(\\Seen)")
    assert await imap.uids(criterion="UNSEEN") == [uid]
    await menv.poll()
    assert len(await menv.service.store.actions(gid)) == 1
    assert len(menv.recorder.mails) == count
    assert await imap.uids(criterion="UNSEEN") == []


async def test_the_server_down_for_a_poll_does_not_stop_the_game(
        menv: MailEnv, imap: ImapServer, caplog: pytest.LogCaptureFixture) -> None:
    gid = await opened(menv, imap)
    poller = menv.mail.poller
    assert poller is not None and poller.failures == 0
    turn = menv.recorder.last(CY)
    await imap.stop()
    with caplog.at_level(logging.WARNING, logger="bot.mail.imap"):
        await menv.poll()
        await menv.poll()
    assert poller.failures == 2
    assert "could not be read" in caplog.text and "ConnectionRefusedError" in caplog.text
    assert len(await menv.service.store.actions(gid)) == 0
    # the server is back: the move mailed meanwhile is read at the next poll
    await imap.start()
    await mailed(menv, imap, MailEnv.answer(turn, CY, ["bid M&O 70"]))
    assert poller.failures == 2
    assert len(await menv.service.store.actions(gid)) == 1
    assert text_of(menv.recorder.last(CY)).startswith("OK  bid M&O 70")


async def test_handled_mails_can_be_moved_away(tmp_path: Path, imap: ImapServer) -> None:
    await imap.create("Done")
    menv = await env_for(tmp_path, imap, imap_move_to="Done")
    try:
        await opened(menv, imap)
        await mailed(menv, imap, MailEnv.answer(menv.recorder.last(CY), CY, ["bid M&O 70"]))
        assert await imap.uids() == []
        assert len(await imap.uids("Done")) == 5
    finally:
        await menv.stop()


async def test_wrong_password_is_a_failed_poll(tmp_path: Path, imap: ImapServer,
                                               caplog: pytest.LogCaptureFixture) -> None:
    menv = await env_for(tmp_path, imap, imap_password="wrong")
    try:
        with caplog.at_level(logging.WARNING, logger="bot.mail.imap"):
            await menv.poll()
        assert menv.mail.poller is not None and menv.mail.poller.failures == 2
        assert "could not be read" in caplog.text and "AUTHENTICATIONFAILED" in caplog.text
    finally:
        await menv.stop()


@needs_openssl
@pytest.mark.parametrize("mode", ["starttls", "tls"])
async def test_polling_over_tls(tmp_path: Path, mode: str) -> None:
    cert, key = _certificate(tmp_path)
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)
    imap = ImapServer(ssl_context=ctx, implicit=mode == "tls")
    await imap.start()
    menv = await env_for(tmp_path, imap, imap_host="localhost", imap_tls=mode,
                         imap_ca_file=str(cert))
    try:
        gid = await menv.mail.create_game(f"Alice <{ALICE}>", "Alice", "18MS", channel_id=900)
        created = menv.recorder.last(ALICE)
        await mailed(menv, imap, MailEnv.answer(created, ALICE, [f"invite {BOB} Bob"]))
        assert "Invitation" in str(menv.recorder.last(BOB)["Subject"])
        assert gid == 1 and menv.mail.poller is not None and menv.mail.poller.failures == 0
    finally:
        await menv.stop()
        await imap.stop()


def test_envelope_from_the_delivering_servers_headers() -> None:
    raw = (b"Return-Path: <>\r\nDelivered-To: move+1.2.3.abc@m.test\r\n"
           b"From: Mailer-Daemon <daemon@x.test>\r\nTo: Someone <s@x.test>\r\n"
           b"Cc: move+1.2.3.abc@m.test, c@x.test\r\n\r\nbody\r\n")
    assert envelope_of(raw) == ("", ["move+1.2.3.abc@m.test", "s@x.test", "c@x.test"])
    raw = b"From: Bob <bob@x.test>\r\nTo: join+1.2.abc@m.test\r\n\r\nyes\r\n"
    assert envelope_of(raw) == ("bob@x.test", ["join+1.2.abc@m.test"])


async def test_a_mail_that_could_not_be_handled_stays_unseen(
        menv: MailEnv, imap: ImapServer, monkeypatch: pytest.MonkeyPatch) -> None:
    gid = await opened(menv, imap)
    desk = menv.mail
    real = desk.receive
    calls = 0

    async def failing_once(mail_from: str, rcpts: list[str], raw: bytes) -> None:
        nonlocal calls
        calls += 1
        if calls == 1:  # a fault while handling (the database busy, a crash...)
            raise RuntimeError("injected fault")
        await real(mail_from, rcpts, raw)

    monkeypatch.setattr(desk, "receive", failing_once)
    await mailed(menv, imap, MailEnv.answer(menv.recorder.last(CY), CY, ["bid M&O 70"]))
    assert calls == 1 and await menv.service.store.actions(gid) == []
    assert len(await imap.uids(criterion="UNSEEN")) == 1  # not lost: still unseen
    await menv.poll()
    assert calls == 2 and len(await menv.service.store.actions(gid)) == 1
    assert text_of(menv.recorder.last(CY)).startswith("OK  bid M&O 70")
    assert await imap.uids(criterion="UNSEEN") == []
