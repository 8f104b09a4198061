"""Long games end to end (fake Discord, real engine, fake clock): reminders after the game's
delay with growing gaps, never in quiet hours, never twice (also across a restart); nudges
rate-limited; pings only when the turn passes."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.clock import HOUR, QuietHours
from tests.bot.conftest import DRAFT, STOCK_ROUND, Env, play, user_of
from tests.bot.fake_discord import Sent

MINUTE = 60.0


async def advance(env: Env, seconds: float) -> None:
    """Move the bot's clock and let its reminder loop run."""
    env.clock.advance(seconds)
    await env.service.notices_idle()


def reminders(env: Env, thread: int) -> list[Sent]:
    return [m for m in env.fake.sent
            if m.kind == "channel" and m.channel_id == thread and "reminder" in m.content]


async def test_reminders_growing_gaps_and_none_twice_across_restart(env: Env) -> None:
    t0 = env.clock.now()
    thread = await env.new_game(env.alice, env.bob, env.cy)  # the draft starts with Cy
    await advance(env, 12 * HOUR - MINUTE)
    assert reminders(env, thread) == []
    await advance(env, MINUTE)
    (first,) = reminders(env, thread)
    assert first.content.startswith(f"<@{env.cy.id}>, reminder: 18MS game #1 waits for you")
    assert f"<t:{int(t0)}:f>" in first.content  # since the start
    assert [int(u) for u in first.mentions["users"]] == [env.cy.id]
    assert first.mentions["parse"] == []
    # the next after twice the delay, then twice that
    await advance(env, 24 * HOUR - MINUTE)
    assert len(reminders(env, thread)) == 1
    await advance(env, MINUTE)
    assert len(reminders(env, thread)) == 2
    # a restart sends nothing again, and keeps the schedule
    await env.restart()
    await env.service.notices_idle()
    assert len(reminders(env, thread)) == 2
    await advance(env, 48 * HOUR - MINUTE)
    assert len(reminders(env, thread)) == 2
    await env.restart()
    await advance(env, MINUTE)
    assert len(reminders(env, thread)) == 3
    sent = await env.service.long.sent_reminders(1)
    assert [(r.user_id, r.n) for r in sent] == [(env.cy.id, 1), (env.cy.id, 2), (env.cy.id, 3)]
    assert [r.sent_at - t0 for r in sent] == [12 * HOUR, 36 * HOUR, 84 * HOUR]
    # Cy moves: the reminders now go to Bob, from Cy's move on
    await env.cmd(env.cy, thread, *DRAFT[0][1:2], **DRAFT[0][2])
    await advance(env, 12 * HOUR)
    last = reminders(env, thread)[-1]
    assert len(reminders(env, thread)) == 4 and last.content.startswith(f"<@{env.bob.id}>,")
    assert [int(u) for u in last.mentions["users"]] == [env.bob.id]


async def test_no_reminder_in_quiet_hours(env: Env) -> None:
    t0 = env.clock.now()  # 20:26:40 UTC, 22:26:40 in Paris (summer time)
    thread = await env.new_game(env.alice, env.bob, env.cy)
    sent = await env.cmd(env.cy, thread, "settings", timezone="Europe/Paris", quiet="10-13")
    assert sent.ephemeral and "quiet 10:00-13:00" in sent.content
    sent = await env.cmd(env.cy, thread, "settings", timezone="Mars/Base")
    assert sent.ephemeral and "not a time zone" in sent.content
    # due 12 h after the start: 10:26 in Paris, inside Cy's quiet hours
    await advance(env, 12 * HOUR)
    assert reminders(env, thread) == []
    quiet_end = datetime(2026, 5, 29, 11, 0, tzinfo=UTC).timestamp()  # 13:00 in Paris
    await advance(env, quiet_end - 1 - env.clock.now())
    assert reminders(env, thread) == []
    await advance(env, 1)
    assert len(reminders(env, thread)) == 1
    for _ in range(6):
        await advance(env, 12 * HOUR)
    quiet = QuietHours("Europe/Paris", 10, 13)
    sent_at = [r.sent_at for r in await env.service.long.sent_reminders(1)]
    assert len(sent_at) >= 3 and all(t is not None and quiet.until(t) is None for t in sent_at)
    assert sent_at[0] == quiet_end and t0 < quiet_end


async def test_nudge_rate_limited_and_quiet_hours(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)  # Cy is up
    sent = await env.cmd(env.bob, thread, "nudge")
    assert sent.ephemeral and "possible once 1h 0m have passed" in sent.content
    await advance(env, HOUR)
    sent = await env.cmd(env.bob, thread, "nudge")
    assert not sent.ephemeral and sent.content.startswith(f"<@{env.cy.id}>, **Bob** nudges you")
    assert [int(u) for u in sent.mentions["users"]] == [env.cy.id]
    sent = await env.cmd(env.alice, thread, "nudge")
    assert sent.ephemeral and "Cy was nudged 0s ago" in sent.content
    await env.restart()  # the nudges are stored
    await advance(env, 4 * HOUR - 1)
    sent = await env.cmd(env.alice, thread, "nudge")
    assert sent.ephemeral and "at most one nudge every 4h 0m" in sent.content
    for who in (env.cy, env.dee):
        sent = await env.cmd(who, thread, "nudge")
        assert sent.ephemeral
    assert "your turn" in (await env.cmd(env.cy, thread, "nudge")).content
    assert "Only the game's players" in (await env.cmd(env.dee, thread, "nudge")).content
    # Cy's quiet hours cover now (01:26:40 UTC): no nudge
    await env.cmd(env.cy, thread, "settings", timezone="UTC", quiet="1-3")
    await advance(env, 1)
    sent = await env.cmd(env.alice, thread, "nudge")
    assert sent.ephemeral and "Cy is in quiet hours until" in sent.content
    await env.cmd(env.cy, thread, "settings", quiet="none")
    sent = await env.cmd(env.alice, thread, "nudge")
    assert not sent.ephemeral and "**Alice** nudges you" in sent.content
    nudges = [m for m in env.fake.sent if "nudges you" in m.content and not m.ephemeral]
    assert len(nudges) == 2


async def test_pings_only_when_the_turn_passes(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    replies = await play(env, thread, DRAFT + STOCK_ROUND)
    # a move pings the next player only if the turn passed to another player (the draft's
    # last bid and the first stock move are both Alice's; so are the last pass and GMO's turn)
    movers = [who for who, _n, _o in DRAFT + STOCK_ROUND] + ["A"]
    for i, reply in enumerate(replies):
        nxt = movers[i + 1]
        expected = [] if nxt == movers[i] else [user_of(env, nxt).id]
        assert [int(u) for u in reply.mentions["users"]] == expected, (i, reply.content)
        assert f"<@{user_of(env, nxt).id}> to act" in reply.content
    sent = await env.cmd(env.alice, thread, "lay", hex="H6", tile="57-0", rotation="1")
    assert not sent.ephemeral
    # Alice still acts for GMO: the reply says so, but nobody is pinged again
    assert f"<@{env.alice.id}> to act for GMO" in sent.content
    assert sent.mentions["users"] == []


async def test_a_game_stored_before_turns_were_recorded_gets_reminders(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT[:1])  # Bob is up
    await env.stop_bot()
    from bot.store import Store

    store = await Store.open(env.database)  # as if the game was played before migration 002
    await store.db.execute("DELETE FROM turn_state")
    await store.db.execute("DELETE FROM reminders")
    await store.close()
    await env.start_bot()
    await env.service.notices_idle()
    state = await env.service.long.turn_state(1)
    assert state is not None and state.acting == (str(env.bob.id),)
    assert state.since == env.clock.now()  # the clock starts at the restart
    await advance(env, 12 * HOUR)
    (sent,) = reminders(env, thread)
    assert sent.content.startswith(f"<@{env.bob.id}>, reminder")


async def test_turn_passing_in_quiet_hours_names_without_a_ping(env: Env) -> None:
    """The turn passes to Bob at 22:26 in Paris, inside his quiet hours (22-8): the reply names
    him but does not ping him; his first reminder, at 08:00 Paris, is the ping."""
    thread = await env.new_game(env.alice, env.bob, env.cy)  # the draft starts with Cy
    sent = await env.cmd(env.bob, thread, "settings", timezone="Europe/Paris", quiet="22-8")
    assert sent.ephemeral and "quiet 22:00-08:00" in sent.content
    reply = await env.cmd(env.cy, thread, *DRAFT[0][1:2], **DRAFT[0][2])
    assert not reply.ephemeral and f"<@{env.bob.id}>" in reply.content
    assert "Bob is in quiet hours: pinged when they end" in reply.content
    assert env.bob.id not in [int(u) for u in reply.mentions["users"]]
    quiet_end = datetime(2026, 5, 29, 6, 0, tzinfo=UTC).timestamp()  # 08:00 in Paris
    await advance(env, quiet_end - 1 - env.clock.now())
    assert reminders(env, thread) == []
    await advance(env, 1)
    (ping,) = reminders(env, thread)
    assert ping.content.startswith(f"<@{env.bob.id}>, reminder:")
    assert [int(u) for u in ping.mentions["users"]] == [env.bob.id]
    # outside quiet hours the turn passing pings at once, as before
    reply = await env.cmd(env.bob, thread, *DRAFT[1][1:2], **DRAFT[1][2])
    assert "quiet hours" not in reply.content
    assert [int(u) for u in reply.mentions["users"]] == [user_of(env, DRAFT[2][0]).id]
