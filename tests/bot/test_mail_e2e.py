"""Play by e-mail end to end, over real SMTP on 127.0.0.1: the bot's own listener (aiosmtpd)
takes the players' mails, the bot sends through a recording SMTP server (aiosmtpd). A group
organises a game by mail (invitations, start), plays the draft and the first stock round;
forged addresses are refused at RCPT and change nothing; a replayed mail is applied once; a
late mail is refused; a refused delivery does not stop the game."""

from __future__ import annotations

import asyncio
import re
import smtplib
from collections.abc import AsyncIterator
from email.message import EmailMessage
from pathlib import Path

import pytest

from tests.bot.mailkit import DOMAIN, MailEnv, pngs_of, text_of

ALICE, BOB, CY = "alice@players.test", "bob@players.test", "cy@players.test"
ADDRESS = {"A": ALICE, "B": BOB, "C": CY}


@pytest.fixture
async def menv(tmp_path: Path) -> AsyncIterator[MailEnv]:
    e = MailEnv(tmp_path)
    await e.start()
    try:
        yield e
    finally:
        await e.stop()


async def opened(menv: MailEnv) -> int:
    """Alice organises an 18MS game by mail, invites Bob and Cy, who answer; she starts it."""
    gid = await menv.mail.create_game(f"Alice <{ALICE}>", "Alice", "18MS", channel_id=900)
    created = menv.recorder.last(ALICE)
    assert "game #1 is open" in str(created["Subject"])
    await menv.send(MailEnv.answer(created, ALICE, [f"invite {BOB} Bob", f"invite {CY} Cy"]))
    for who, name in ((BOB, "Bob"), (CY, "Cy")):
        invitation = menv.recorder.last(who)
        assert str(invitation["Subject"]) == "Invitation: 18MS game #1"
        assert str(invitation["Reply-To"]).startswith(f"join+{gid}.")
        await menv.send(MailEnv.answer(invitation, who, ["yes, count me in"]))
        assert "You have a seat" in text_of(menv.recorder.last(who)), name
    record = await menv.service.game_record(gid)
    assert [p.name for p in record.players] == ["Alice", "Bob", "Cy"]
    await menv.send(MailEnv.answer(menv.recorder.last(ALICE), ALICE, ["start Alice Bob Cy"]))
    record = await menv.service.game_record(gid)
    assert record.status == "active"
    return gid


async def move(menv: MailEnv, who: str, *lines: str) -> str:
    """`who` answers the latest mail the bot sent them; the bot's answer's text."""
    before = len(menv.recorder.mails)
    address = ADDRESS[who]
    await menv.send(MailEnv.answer(menv.recorder.last(address), address, list(lines)))
    answers = [m for _f, r, m in menv.recorder.mails[before:] if address in r]
    assert answers, f"no answer to {address}"
    return text_of(answers[0])


DRAFT = [("C", "bid M&O 70"), ("B", "bid company=MC price=60"), ("A", "bid AGS 30")]


async def test_game_organised_and_played_by_mail(menv: MailEnv) -> None:
    gid = await opened(menv)
    # the draft goes in reverse seat order: Cy is mailed first, with the game and whom it waits for
    first = menv.recorder.last(CY)
    assert re.match(r"18MS game #1: waiting for Cy .*Draft|18MS game #1: waiting for Cy",
                    str(first["Subject"])), first["Subject"]
    assert "You may: bid" in text_of(first) and "The card:" in text_of(first)
    assert re.fullmatch(rf"move\+{gid}\.\d+\.0\.[a-z2-7]{{16}}@{DOMAIN}", str(first["Reply-To"]))
    assert not menv.recorder.to(ALICE)[-1]["Subject"].startswith("18MS game #1: waiting")
    for who, line in DRAFT:
        if who == "A":  # Alice's turn mail says what happened since: Cy's and Bob's bids
            alice = text_of(menv.recorder.last(ALICE))
            since = alice.split("Since your last move:")[1]
            assert "Cy bids $70 on M&O" in since and "Bob bids $60 on MC" in since, since
        answer = await move(menv, who, line)
        assert answer.startswith(f"OK  {line}"), answer
    types = [r.action["type"] for r in await menv.service.store.actions(gid)]
    assert types == ["bid", "bid", "bid"]
    # several moves in one mail apply in order until one is refused; the rest is not read
    answer = await move(menv, "A", "par GMO 70", "buy GMO", "pass")
    assert answer.startswith("OK  par GMO 70")
    assert "REFUSED  buy GMO" in answer and "It is not your turn" in answer
    assert "Not read (after the refusal): pass" in answer
    assert len(await menv.service.store.actions(gid)) == 4
    # the answer is threaded on the player's mail
    last = menv.recorder.last(ALICE)
    assert str(last["In-Reply-To"]).endswith("@player.test>")


async def test_forged_addresses_change_nothing(menv: MailEnv) -> None:
    gid = await opened(menv)
    turn = menv.recorder.last(CY)
    good = str(turn["Reply-To"])
    local, _at, domain = good.partition("@")
    bad_sig = local[:-1] + ("a" if local[-1] != "a" else "b") + "@" + domain
    other_seat = re.sub(r"^move\+(\d+)\.(\d+)\.", lambda m: f"move+{m[1]}.{int(m[2]) - 1}.",
                        good)
    for forged in (bad_sig, other_seat, f"move+{gid}.1.0.aaaaaaaaaaaaaaaa@{DOMAIN}",
                   f"someone@{DOMAIN}"):
        mail = MailEnv.answer(turn, CY, ["bid M&O 70"])
        with pytest.raises(smtplib.SMTPRecipientsRefused):
            await menv.send(mail, rcpt=forged)
    assert await menv.service.store.actions(gid) == []
    # From is not trusted: Alice writing to Cy's address... moves Cy's seat? No: the token is
    # Cy's, and the answer goes to Cy's own address, never to the From header
    before = len(menv.recorder.mails)
    mail = MailEnv.answer(turn, ALICE, ["bid M&O 70"])
    await menv.send(mail)
    after = menv.recorder.mails[before:]
    assert all(ALICE not in r for _f, r, _m in after)
    assert any(CY in r for _f, r, _m in after)


async def test_replayed_and_late_mails(menv: MailEnv) -> None:
    gid = await opened(menv)
    turn = menv.recorder.last(CY)
    mail = MailEnv.answer(turn, CY, ["bid M&O 70"])
    await menv.send(mail)
    count = len(menv.recorder.mails)
    await menv.send(mail)  # the same mail again (same Message-ID): applied once, no answer
    assert len(await menv.service.store.actions(gid)) == 1
    assert len(menv.recorder.mails) == count
    # the same move again in a new mail to the old address: the position has passed
    late = MailEnv.answer(turn, CY, ["bid M&O 70"])
    await menv.send(late)
    answer = text_of(menv.recorder.last(CY))
    assert "REFUSED  bid M&O 70" in answer and "moved on" in answer
    assert len(await menv.service.store.actions(gid)) == 1
    # the same answer resent without a Message-ID: the raw bytes name it, applied once too
    bob = menv.recorder.last(BOB)
    raw = MailEnv.answer(bob, BOB, ["bid MC 60"])
    del raw["Message-ID"]
    await menv.send(raw)
    await menv.send(raw)
    assert len(await menv.service.store.actions(gid)) == 2


async def test_refused_delivery_and_bounce_do_not_stop_the_game(menv: MailEnv) -> None:
    gid = await opened(menv)
    menv.recorder.refuse.add(BOB)
    await move(menv, "C", "bid M&O 70")  # Bob is up: his mail is refused by the server
    failures = await menv.mail.repo.failures(gid)
    assert failures and "550" in failures[0][2]
    menv.recorder.refuse.clear()
    # a delivery report for Cy's answer comes back to the bot's own address
    sent = menv.recorder.last(CY)
    dsn = EmailMessage()
    dsn["From"] = "MAILER-DAEMON@players.test"
    dsn["To"] = f"moderator@{DOMAIN}"
    dsn["Subject"] = "Undelivered Mail Returned to Sender"
    dsn.set_content("The mail could not be delivered.")
    dsn.add_attachment(f"Message-ID: {sent['Message-ID']}\nSubject: x\n".encode(),
                       maintype="text", subtype="rfc822-headers")
    await menv.send(dsn, mail_from="")
    statuses = {s for _u, s, _e in await menv.mail.repo.failures(gid)}
    assert statuses == {"failed", "bounced"}
    # Bob plays on by answering the invitation thread's next mail (the game went on)
    await menv.mail.notify(gid)  # nothing new: his position's mail was already tried once
    record = await menv.service.game_record(gid)
    assert record.status == "active" and len(await menv.service.store.actions(gid)) == 1


async def test_a_turn_mail_not_taken_for_now_is_tried_again(menv: MailEnv) -> None:
    """Bob's server answers 450 (busy): the turn mail is tried again after a minute, then
    after ten, and he gets it once his server takes it; a 550 (above) is not tried again."""
    from bot.mail.turnmail import RETRY_AFTER

    gid = await opened(menv)
    menv.recorder.defer.add(BOB)
    await move(menv, "C", "bid M&O 70")  # Bob is up
    await menv.mail.settle()
    assert not [m for m in menv.recorder.to(BOB) if "waiting for Bob" in str(m["Subject"])]
    failures = await menv.mail.repo.failures(gid)
    assert failures and all("450" in f[2] for f in failures)
    # still busy at the first retry: tried once more
    menv.clock.advance(RETRY_AFTER[0])
    await asyncio.sleep(0.05)
    await menv.mail.settle()
    assert len(await menv.mail.repo.failures(gid)) == len(failures) + 1
    menv.recorder.defer.clear()
    menv.clock.advance(RETRY_AFTER[1])
    await asyncio.sleep(0.05)
    await menv.mail.settle()
    turns = [m for m in menv.recorder.to(BOB) if "waiting for Bob" in str(m["Subject"])]
    assert len(turns) == 1
    # and he can answer it
    await menv.send(MailEnv.answer(turns[0], BOB, ["bid MC 60"]))
    assert len(await menv.service.store.actions(gid)) == 2


async def test_a_mail_move_is_judged_at_its_position_under_the_games_lock(menv: MailEnv) -> None:
    """The position a mail answers is checked again under the game's lock: if another move
    comes in after the mail's lines were read (here: the position read before it), the mail's
    move is refused, not applied to the newer position."""
    gid = await opened(menv)
    turn = menv.recorder.last(CY)  # Cy's turn mail, at position 0
    stale = await menv.mail.position(gid)
    real_position = menv.mail.position

    async def before_the_other_move(game_id: int) -> int:  # read before the move below
        return stale

    # another way in (Discord, the terminal) makes Cy's move first
    from bot.core import Who

    record = await menv.service.game_record(gid)
    cy = next(p for p in record.players if p.name == "Cy")
    from bot import moves

    await menv.service.act(Who(cy.user_id, "Cy"), gid,
                           lambda legal: moves.bid(legal, company="M&O", price="70"),
                           interaction_id="elsewhere")
    assert len(await menv.service.store.actions(gid)) == 1
    menv.mail.position = before_the_other_move  # type: ignore[method-assign]
    try:
        await menv.send(MailEnv.answer(turn, CY, ["bid M&O 70"]))
    finally:
        menv.mail.position = real_position  # type: ignore[method-assign]
    answer = text_of(menv.recorder.last(CY))
    assert "REFUSED  bid M&O 70" in answer and "moved on" in answer, answer
    assert len(await menv.service.store.actions(gid)) == 1


async def test_turn_mail_attaches_map_and_market(tmp_path: Path) -> None:
    menv = MailEnv(tmp_path, render_images=True)
    await menv.start()
    try:
        await opened(menv)
        files = pngs_of(menv.recorder.last(CY))
        assert set(files) == {"map.png", "market.png"}
        assert all(f.startswith(b"\x89PNG\r\n\x1a\n") for f in files.values())
    finally:
        await menv.stop()


async def test_terminal_invites_and_organises_by_mail(menv: MailEnv, tmp_path: Path) -> None:
    from bot.local import LocalSession

    session = LocalSession(menv.service, tmp_path / "images", "Dee")
    assert "Created 18MS game #1" in await session.handle("create 18MS")
    session.mail = None
    assert "does not run the e-mail transport" in await session.handle(f"invite {CY} Cy")
    session.mail = menv.mail
    assert "Invitation #1 mailed to Cy" in await session.handle(f"invite {CY} Cy")
    await menv.send(MailEnv.answer(menv.recorder.last(CY), CY, ["ok"]))
    record = await menv.service.game_record(1)
    assert [p.name for p in record.players] == ["Dee", "Cy"]
    out = await session.handle(f"mailgame 1870 {ALICE} Alice")
    assert "Game #2 created" in out, out
    assert "1870 game #2 is open" in str(menv.recorder.last(ALICE)["Subject"])


async def test_a_mail_that_failed_is_read_again_when_retried(menv: MailEnv,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    gid = await opened(menv)
    mail = MailEnv.answer(menv.recorder.last(CY), CY, ["bid M&O 70"])
    real = menv.mail.run_line

    async def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(menv.mail, "run_line", broken)
    with pytest.raises(smtplib.SMTPDataError) as err:
        await menv.send(mail)
    assert err.value.smtp_code == 451  # "try again later": the sender's server retries
    assert await menv.service.store.actions(gid) == []
    monkeypatch.setattr(menv.mail, "run_line", real)
    await menv.send(mail)  # the retry (same Message-ID) is read, once
    await menv.send(mail)
    assert len(await menv.service.store.actions(gid)) == 1
