"""Turn clocks, the time bank, /games, /mygames and followers, end to end with a fake clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.clock import HOUR
from bot.service import RealEngine, RealRenderer
from tests.bot.conftest import DRAFT, STOCK_ROUND, Env, play
from tests.bot.test_e2e_reminders import advance

MINUTE = 60.0


async def test_clocks_add_up_to_the_turns(env: Env) -> None:
    t0 = env.clock.now()
    thread = await env.new_game(env.alice, env.bob, env.cy)
    waits = {"C": 2 * HOUR, "B": 3 * HOUR + 5 * MINUTE, "A": 30 * MINUTE}
    last = None
    for who, name, options in DRAFT:  # Cy, Bob, then Alice bid
        await advance(env, waits[who])
        last = (await play(env, thread, [(who, name, options)]))[0]
    assert last is not None and "Clocks: Alice 30m · Bob 3h 5m · Cy 2h 0m" in last.content
    clocks = await env.service.long.clocks(1)
    spent = {uid: s for (_eid, uid), s in clocks.items()}
    assert spent == {env.cy.id: 2 * HOUR, env.bob.id: 3 * HOUR + 5 * MINUTE,
                     env.alice.id: 30 * MINUTE}
    assert sum(spent.values()) == env.clock.now() - t0  # one player up at a time
    # Alice is up in the stock round: her clock runs, /games shows it
    await advance(env, HOUR)
    sent = await env.cmd(env.dee, env.fake.main_channel, "games")
    assert sent.ephemeral and "#1 18MS (active)" in sent.content
    assert "Stock Round 1 — Alice up since" in sent.content
    # up since Bob's bid: her last draft bid left her the one to act
    assert f"<t:{int(env.clock.now() - HOUR - 30 * MINUTE)}:f>" in sent.content
    assert "Clocks: Alice 1h 30m · Bob 3h 5m · Cy 2h 0m" in sent.content
    # a time bank: the creator sets it, the others may only look
    sent = await env.cmd(env.bob, thread, "timing", bank="3")
    assert sent.ephemeral and "Only the game's creator" in sent.content
    sent = await env.cmd(env.alice, thread, "timing", bank="3", reminder="6")
    assert not sent.ephemeral and "a time bank of 3 h each" in sent.content
    assert "first reminder after 6 h" in sent.content
    sent = await env.cmd(env.cy, thread, "timing")
    assert sent.ephemeral and "a time bank of 3 h each" in sent.content
    sent = await env.cmd(env.dee, env.fake.main_channel, "games")
    assert "Alice 1h 30m (1h 30m left) · Bob 3h 5m (over by 5m) · Cy 2h 0m (1h 0m left)" in (
        sent.content)
    # the clocks survive a restart, the running turn included
    await env.restart()
    await advance(env, 10 * MINUTE)
    replies = await play(env, thread, STOCK_ROUND[:1])
    assert "Clocks: Alice 1h 40m (1h 20m left)" in replies[0].content


async def test_games_and_mygames(env: Env) -> None:
    one = await env.new_game(env.alice, env.bob, env.cy)  # Cy is up
    await advance(env, HOUR)
    two = await env.new_game(env.cy, env.bob, env.alice)  # Alice is up
    sent = await env.cmd(env.cy, one, "mygames")
    assert sent.ephemeral and sent.content.count("\n") == 0
    assert sent.content.startswith(f"#1 18MS in <#{one}> — Private Company Draft — your turn")
    sent = await env.cmd(env.alice, one, "mygames")
    assert sent.content.startswith(f"#2 18MS in <#{two}>") and sent.content.count("\n") == 0
    sent = await env.cmd(env.bob, one, "mygames")
    assert sent.content == "No game waits for you."
    sent = await env.cmd(env.bob, env.fake.main_channel, "games")
    lines = [ln for ln in sent.content.splitlines() if not ln.startswith("  ")]
    assert lines[0].startswith(f"#1 18MS (active) in <#{one}> — Private Company Draft — Cy up")
    assert lines[1].startswith(f"#2 18MS (active) in <#{two}> — Private Company Draft — Alice up")
    # Cy bids in game 1: Bob's turn there, none of Cy's
    await play(env, one, DRAFT[:1])
    sent = await env.cmd(env.cy, one, "mygames")
    assert sent.content == "No game waits for you."
    sent = await env.cmd(env.bob, one, "mygames")
    assert sent.content.startswith("#1 18MS")


async def test_followers_get_a_message_when_the_turn_passes(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    sent = await env.cmd(env.dee, thread, "follow")
    assert sent.ephemeral and "You follow game #1" in sent.content
    assert "already" in (await env.cmd(env.dee, thread, "follow")).content

    def dms() -> list[str]:
        channel = env.fake.dms.get(env.dee.id)
        return [m.content for m in env.fake.sent if m.kind == "channel"
                and m.channel_id == channel]

    await play(env, thread, DRAFT[:2])
    await env.service.notices_idle()
    assert dms() == [f"18MS game #1 (<#{thread}>): Bob to act — Private Company Draft.",
                     f"18MS game #1 (<#{thread}>): Alice to act — Private Company Draft."]
    await play(env, thread, DRAFT[2:] + STOCK_ROUND)
    await env.service.notices_idle()
    count = len(dms())
    # only when the turn passed to another player (Alice's last bid and her first stock move,
    # her last pass and GMO's turn are hers)
    assert count == 2 + len(STOCK_ROUND) - 1
    await env.cmd(env.alice, thread, "lay", hex="H6", tile="57-0", rotation="1")
    await env.service.notices_idle()
    assert len(dms()) == count  # Alice still acts for GMO: no message
    sent = await env.cmd(env.dee, thread, "unfollow")
    assert sent.ephemeral and "no longer follow" in sent.content
    await env.cmd(env.bob, thread, "follow")  # a player may follow too
    await env.cmd(env.alice, thread, "end")
    await env.service.notices_idle()
    assert len(dms()) == count
    bob = env.fake.dms[env.bob.id]
    assert [m.content for m in env.fake.sent if m.channel_id == bob] == [
        f"18MS game #1 (<#{thread}>) is over."]


class ClockCardRenderer:
    """The real renderer, noting the clocks each card was drawn with."""

    def __init__(self) -> None:
        self.real = RealRenderer()
        self.cards: list[dict[str, float]] = []

    def render(self, kind: str, view: Any, clocks: dict[str, float] | None = None) -> bytes | None:
        if kind == "card":
            self.cards.append(dict(clocks or {}))
        return self.real.render(kind, view, clocks)


async def test_the_card_after_a_move_shows_the_clocks(tmp_path: Path) -> None:
    """The phone card posted when the turn passes is drawn with every seated player's time on
    turns (a real PNG, edited into the reply)."""
    renderer = ClockCardRenderer()
    env = Env(tmp_path, RealEngine(), renderer, tmp_path / "bot.sqlite3")
    await env.start()
    try:
        thread = await env.new_game(env.alice, env.bob, env.cy)
        await advance(env, 2 * HOUR)
        sent = (await play(env, thread, [DRAFT[0]]))[0]  # Cy bids after 2 h
        await env.service.images.idle()
        await env.settle()
        assert any(n == "card.png" and f.startswith(b"\x89PNG") for n, f in sent.files)
        players = {p.user_id: p.engine_id for p in (await env.service.store.game(1)).players}
        assert renderer.cards[-1] == {players[env.cy.id]: 2 * HOUR, players[env.bob.id]: 0.0,
                                      players[env.alice.id]: 0.0}
    finally:
        await env.stop()


async def test_a_move_reads_the_clocks_once_for_the_card_and_the_clocks_line(env: Env) -> None:
    """The card's clocks and the clocks line are the same figures: worked out once a move."""
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT[:1])
    reads: list[int] = []
    long = env.service.long
    real = long.clocks

    async def clocks(game_id: int) -> Any:
        reads.append(game_id)
        return await real(game_id)

    long.clocks = clocks  # type: ignore[method-assign]
    await advance(env, HOUR)
    sent = (await play(env, thread, DRAFT[1:2]))[0]
    assert "Clocks: Alice 0s · Bob 1h 0m · Cy 0s" in sent.content
    assert len(reads) == 1
