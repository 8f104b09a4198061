"""A game mixing Discord and e-mail players: Alice and Bob on the (fake) Discord through the
real discord.py client, Cy by mail over real SMTP on 127.0.0.1; and the first stock and
operating round of a recorded 18MS game played entirely by mail."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from tests.bot.conftest import FIXTURES, Env, needs_shared
from tests.bot.mailkit import MailEnv, text_of
from tests.bot.replay import command_for, effective_log

CY = "cy@players.test"


async def test_mixed_discord_and_mail_game(env: Env, tmp_path: Path) -> None:
    menv = MailEnv(tmp_path, service=env.service)
    await menv.start()
    try:
        await env.cmd(env.alice, env.fake.main_channel, "create", title="18MS")
        thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
        await env.cmd(env.bob, thread, "join")
        # the bot runs the e-mail transport: /invite is there (bot/cogs/mail.py)
        assert env.bot is not None
        env.bot.mail = menv.mail
        await env.bot.load_extension("bot.cogs.mail")
        await env.bot.tree.sync()
        sent = await env.cmd(env.alice, thread, "invite", address=CY, player="Cy")
        assert "Invitation #1 mailed to Cy" in sent.content, sent.content
        invitation = menv.recorder.last(CY)
        assert "Alice invites you to a 18MS game (#1)" in text_of(invitation)
        await menv.send(MailEnv.answer(menv.recorder.last(CY), CY, ["I'm in"]))
        record = await env.service.game_record(1)
        cy = record.players[-1]
        assert cy.name == "Cy" and cy.user_id >= 3_000_000_000
        seating = f"<@{env.alice.id}> <@{env.bob.id}> Cy"  # Cy has no mention: named
        sent = await env.cmd(env.alice, thread, "start", seating=seating)
        assert "starts" in sent.content, sent.content
        # Cy is up first: named in the thread, no Discord mention for an e-mail player
        assert "**Cy** (by e-mail) to act" in sent.content and "<@3" not in sent.content
        assert sent.mentions["users"] == []
        await menv.mail.settle()
        # Cy is up first (the draft goes in reverse order) and answers by mail
        turn = menv.recorder.last(CY)
        assert "waiting for Cy" in str(turn["Subject"])
        await menv.send(MailEnv.answer(turn, CY, ["bid M&O 70"]))
        await env.service.notices_idle()
        posted = [s for s in env.fake.sent if s.channel_id == thread and "(by e-mail)" in s.content]
        assert "Cy** joins game #1" in posted[0].content, posted
        assert len(posted) == 2 and "bids $70 on Mobile & Ohio Railway (M&O)" in posted[1].content, posted
        posted = posted[1:]
        assert [int(u) for u in posted[0].mentions["users"]] == [env.bob.id]  # Bob is up
        # Bob and Alice play on Discord; Cy's next mail tells what they did
        for user, price, company in ((env.bob, "60", "MC"), (env.alice, "30", "AGS")):
            sent = await env.cmd(user, thread, "bid", company=company, price=price)
            assert not sent.ephemeral, sent.content
        sent = await env.cmd(env.alice, thread, "par", corporation="GMO", price="70")
        assert not sent.ephemeral, sent.content
        sent = await env.cmd(env.bob, thread, "par", corporation="IC", price="70,1,2")
        assert not sent.ephemeral, sent.content
        await menv.mail.settle()
        turn = menv.recorder.last(CY)
        since = text_of(turn).split("Since your last move:")[1]
        for what in ("Bob bids $60 on MC", "Alice bids $30 on AGS", "GMO", "IC"):
            assert what in since, since
        await menv.send(MailEnv.answer(turn, CY, ["buy GMO"]))
        types = [r.action["type"] for r in await env.service.store.actions(1)]
        assert types == ["bid", "bid", "bid", "par", "par", "buy_shares"]
        # a Discord player cannot act for the mail player, and the mail player acts only by mail
        sent = await env.cmd(env.cy, thread, "buy", corporation="GMO")
        assert sent.ephemeral
    finally:
        await menv.stop()


def mail_line(name: str, options: dict[str, object]) -> str:
    return " ".join([name] + [shlex.quote(f"{k}={v}") for k, v in options.items()
                              if v is not None])


@needs_shared
@pytest.mark.parametrize("stop", ["Stock Round 2", pytest.param(None, marks=pytest.mark.slow)])
async def test_recorded_game_by_mail(tmp_path: Path, stop: str | None) -> None:
    """The recorded game 14375 up to its second stock round (the whole game: marked slow),
    every move typed in a mail by the player who controls the acting entity (a reference
    engine game stepping alongside says who that is); a player's moves in a row go in one
    mail. The whole game must end with the recorded result."""
    from engine.game import Game

    data = json.loads((FIXTURES / "18MS" / "14375.json").read_text())
    log = effective_log(data)
    exported = [str(p["id"]) for p in data["players"]]
    ref = Game(data["title"], [(pid, f"P{pid}") for pid in exported], [])
    menv = MailEnv(tmp_path)
    await menv.start()
    try:
        address = {pid: f"p{pid}@players.test" for pid in exported}
        org = exported[0]
        gid = await menv.mail.create_game(address[org], f"P{org}", "18MS", channel_id=900)
        invites = [f"invite {address[p]} P{p}" for p in exported[1:]]
        await menv.send(MailEnv.answer(menv.recorder.last(address[org]), address[org], invites))
        for pid in exported[1:]:
            await menv.send(MailEnv.answer(menv.recorder.last(address[pid]), address[pid], ["ok"]))
        start = "start " + " ".join(f"P{p}" for p in exported)
        await menv.send(MailEnv.answer(menv.recorder.last(address[org]), address[org], [start]))
        # the actions up to the second stock round, grouped by the player who types them
        batches: list[tuple[str, list[str]]] = []
        played = 0
        for action in log:
            if (stop and stop in str(ref.view().round)) or ref.finished:
                break
            name, options = command_for(action)
            if action.get("entity_type") == "player":
                pid = str(action["entity"])
            else:
                (pid,) = ref.acting_players()
            ref.apply(action)
            played += 1
            if batches and batches[-1][0] == pid:
                batches[-1][1].append(mail_line(name, options))
            else:
                batches.append((pid, [mail_line(name, options)]))
        assert played > 20 and any(len(lines) > 1 for _p, lines in batches)
        for pid, lines in batches:
            before = len(menv.recorder.mails)
            turn = menv.recorder.last(address[pid])
            assert str(turn["Reply-To"]).startswith("move+"), turn["Subject"]
            await menv.send(MailEnv.answer(turn, address[pid], lines))
            answer = next(m for _f, r, m in menv.recorder.mails[before:] if address[pid] in r)
            assert "REFUSED" not in text_of(answer), text_of(answer)
        stored = [r.action for r in await menv.service.store.actions(gid)]
        assert len(stored) == played
        live = await menv.service._live(gid)
        assert live.game.view().round == ref.view().round
        assert [a["type"] for a in stored] == [a["type"] for a in log[:played]]
        if stop is None:
            users = {str(p.user_id): p.name for p in live.record.players}
            result = {users[k][1:]: v for k, v in live.game.result().items()}
            assert result == {str(k): v for k, v in data["result"].items()}
            over = text_of(menv.recorder.last(address[org]))
            assert "Game over" in over, over
    finally:
        await menv.stop()


async def test_an_email_player_is_reminded_by_mail(env: Env, tmp_path: Path) -> None:
    """Cy, seated by mail, is up first and does not answer: 12 hours later the reminder is a
    mail (answerable like the turn mail), not a Discord post with a mention nobody can get."""
    from bot.clock import HOUR
    from tests.bot.test_e2e_reminders import advance

    menv = MailEnv(tmp_path, service=env.service)
    await menv.start()
    try:
        await env.cmd(env.alice, env.fake.main_channel, "create", title="18MS")
        thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
        await env.cmd(env.bob, thread, "join")
        from bot.core import Who

        await menv.mail.invite(Who(env.alice.id, env.alice.name), 1, CY, "Cy")
        await menv.send(MailEnv.answer(menv.recorder.last(CY), CY, ["I'm in"]))
        sent = await env.cmd(env.alice, thread, "start",
                             seating=f"<@{env.alice.id}> <@{env.bob.id}> Cy")
        assert "starts" in sent.content, sent.content
        await menv.mail.settle()
        mails = len(menv.recorder.to(CY))
        await advance(env, 12 * HOUR)
        await menv.mail.settle()
        reminder = menv.recorder.last(CY)
        assert len(menv.recorder.to(CY)) == mails + 1
        assert str(reminder["Subject"]).startswith("Reminder: 18MS game #1: waiting for Cy")
        assert "A reminder: the game waits for you since" in text_of(reminder)
        assert not [m for m in env.fake.sent if "<@3" in m.content]
        # the reminder answers like a turn mail
        await menv.send(MailEnv.answer(reminder, CY, ["bid M&O 70"]))
        types = [r.action["type"] for r in await env.service.store.actions(1)]
        assert types == ["bid"]
    finally:
        await menv.stop()
