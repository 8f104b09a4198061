"""Moves through discord.py and the real engine (18MS, 3 players): rejections, permissions,
idempotency, restarts, images, two games at once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.bot.conftest import DRAFT, STOCK_ROUND, Env, engine_game, play
from tests.bot.fake_discord import APP_ID


async def _cash(env: Env, game_id: int = 1) -> list[int]:
    live = await env.service._live(game_id)
    return [p.cash for p in live.game.view().players]


async def test_rejected_move_is_private_with_the_engines_reason(env: Env) -> None:
    from engine import EngineError

    thread = await env.new_game(env.alice, env.bob, env.cy)
    before = await _cash(env)
    sent = await env.cmd(env.cy, thread, "bid", company="BS", price="10")
    # the same action applied to the engine directly gives the reason shown to the player
    game = engine_game(env.alice.id, env.bob.id, env.cy.id)
    with pytest.raises(EngineError) as err:
        game.apply(
            {
                "type": "bid",
                "entity": str(env.cy.id),
                "entity_type": "player",
                "company": "BS",
                "price": 10,
            }
        )
    assert (
        sent.ephemeral and sent.content == str(err.value) == "BS costs exactly its face value, $40."
    )
    assert sent.files == [] and sent.mentions["users"] == []
    assert await env.log_types() == [] and await _cash(env) == before
    # a wrong par price in the stock round: again the engine's words, nothing stored
    await play(env, thread, DRAFT)
    sent = await env.cmd(env.alice, thread, "par", corporation="GMO", price="1")
    assert sent.ephemeral and "not a par value you may choose for GMO" in sent.content
    assert await env.log_types() == ["bid"] * 3


async def test_non_player_and_wrong_player(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    sent = await env.cmd(env.dee, thread, "pass")
    assert sent.ephemeral and "not a player" in sent.content
    sent = await env.cmd(env.alice, thread, "bid", company="AGS", price="30")
    assert sent.ephemeral and "not your turn" in sent.content and "Cy" in sent.content
    await play(env, thread, DRAFT + STOCK_ROUND)
    # GMO operates: only its president (Alice) may act for it
    sent = await env.cmd(env.bob, thread, "lay", hex="H6", tile="57-0", rotation="1")
    assert sent.ephemeral and "not your turn" in sent.content and "Alice" in sent.content
    assert await env.log_types() == ["bid"] * 3 + ["par"] * 2 + ["buy_shares"] * 5 + ["pass"] * 3


async def test_moves_post_summary_images_and_ping_next(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    sent = await env.cmd(env.cy, thread, "bid", company="M&O", price="70")
    assert not sent.ephemeral and sent.content.startswith("**Cy** ")
    assert f"<@{env.bob.id}> to act" in sent.content
    assert [int(u) for u in sent.mentions["users"]] == [env.bob.id]
    assert sent.mentions["parse"] == []
    assert [n for n, _ in sent.files] == ["card.png"]  # the turn passed: the phone card
    replies = await play(env, thread, DRAFT[1:] + STOCK_ROUND[:1])
    par = replies[-1]
    assert "GMO" in par.content and "market.png" in [n for n, _ in par.files]
    replies = await play(env, thread, STOCK_ROUND[1:])
    assert f"<@{env.alice.id}> to act for GMO" in replies[-1].content
    sent = await env.cmd(env.alice, thread, "lay", hex="H6", tile="57-0", rotation="1")
    assert not sent.ephemeral and "**Alice** (GMO) lays tile 57 on Mobile (H6) (rotation 1)" in sent.content
    names = [n for n, _ in sent.files]
    assert "map.png" in names
    assert "closeup.png" in names  # the hexes of the move, legible on a phone
    assert "card.png" not in names  # GMO's turn goes on
    # each image in its own embed (full width on a phone), the close-up before the full map
    shown = [e["image"]["url"] for e in sent.payload["embeds"]]
    assert shown[:2] == ["attachment://closeup.png", "attachment://map.png"]
    assert sorted(shown) == sorted(f"attachment://{n}" for n in names)
    for _n, png in sent.files:
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000


async def test_images_of_a_move_are_those_it_changed_after_a_reload_too(env: Env) -> None:
    """Which images a move changed is worked out when they are drawn, from the state last
    drawn or as loaded: a game loaded again from its log between two moves still posts only
    what changed; a game dropped between its move and its images posts them all (what the
    move changed is not known then)."""
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND[:2])
    env.service.evict(1)
    sent = await env.cmd(env.cy, thread, "buy", corporation="GMO")
    assert [n for n, _ in sent.files] == ["card.png"]  # the turn passed; no price moved
    original = env.service._draw

    def dropped_first(reply: Any, draw: Any) -> None:
        env.service.evict(1)  # the move stored and answered, its images not drawn yet
        original(reply, draw)

    env.service._draw = dropped_first  # type: ignore[method-assign]
    sent = await env.cmd(env.alice, thread, "buy", corporation="GMO", share="GMO_2")
    assert sorted(n for n, _ in sent.files) == ["card.png", "map.png", "market.png"]


async def test_duplicated_interaction_applies_once(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    iid = 960000000000000001
    first = await env.fake.invoke(
        env.cy, thread, "bid", company="M&O", price="70", interaction_id=iid
    )
    await env.settle()
    second = await env.fake.redeliver(env.cy, thread, "bid", iid, company="M&O", price="70")
    await env.settle()
    assert "M&O" in first.content and not first.ephemeral
    assert second.ephemeral and "already handled" in second.content
    assert await env.log_types() == ["bid"]
    assert await _cash(env) == [625, 625, 555]


async def test_concurrent_commands_on_one_game_are_serialised(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    a, b = await asyncio.gather(
        env.fake.invoke(env.cy, thread, "bid", company="M&O", price="70"),
        env.fake.invoke(env.cy, thread, "bid", company="MC", price="60"),
    )
    await env.settle()
    assert sorted([a.ephemeral, b.ephemeral]) == [False, True]
    assert await env.log_types() == ["bid"]


async def test_restart_mid_game(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND[:4])
    await env.restart()  # a new bot client on the same SQLite file replays the log
    sent = await env.cmd(env.alice, thread, "buy", corporation="IC")
    assert "not your turn" in sent.content and "Bob" in sent.content
    await play(env, thread, STOCK_ROUND[4:])
    sent = await env.cmd(env.alice, thread, "lay", hex="H6", tile="57-0", rotation="4")
    assert "lays tile 57 on Mobile (H6)" in sent.content
    sent = await env.cmd(env.cy, thread, "history", count=50)
    assert sent.ephemeral and "**Cy** bids $70 on Mobile & Ohio Railway (M&O)" in sent.content
    live = await env.service._live(1)
    ref = engine_game(env.alice.id, env.bob.id, env.cy.id)
    for rec in await env.service.store.actions(1):
        ref.apply(rec.action)
    assert [p.cash for p in live.game.view().players] == [p.cash for p in ref.view().players]


async def test_two_games_interleaved(env: Env) -> None:
    t1 = await env.new_game(env.alice, env.bob, env.cy)
    t2 = await env.new_game(env.cy, env.alice, env.bob)  # seats: Cy, Alice, Bob
    assert t1 != t2
    await env.cmd(env.cy, t1, "bid", company="M&O", price="70")
    sent = await env.cmd(env.bob, t2, "bid", company="BS", price="40")  # Bob is last in #2
    assert "**Bob** bids $40 on Birmingham Southern Railroad (BS)" in sent.content
    sent = await env.cmd(env.bob, t1, "bid", company="BS", price="40")
    assert "**Bob** bids $40 on Birmingham Southern Railroad (BS)" in sent.content  # BS is still free in game #1
    sent = await env.cmd(env.bob, t2, "pass")
    assert sent.ephemeral and "not your turn" in sent.content
    await env.cmd(env.alice, t2, "bid", company="M&O", price="70")
    assert await env.log_types(1) == ["bid", "bid"]
    assert await env.log_types(2) == ["bid", "bid"]
    one = (await env.service._live(1)).game.view()
    two = (await env.service._live(2)).game.view()
    assert {c.id: c.owner for c in one.companies}["M&O"] == str(env.cy.id)
    assert {c.id: c.owner for c in two.companies}["M&O"] == str(env.alice.id)
    sent = await env.cmd(env.alice, env.fake.main_channel, "games")
    assert "#1 18MS (active)" in sent.content and "#2 18MS (active)" in sent.content


async def test_autocomplete_offers_only_legal_choices(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    choices = await env.fake.autocomplete(env.cy, thread, "bid", "company")
    assert [c["value"] for c in choices] == ["AGS", "BS", "M&M", "MC", "M&O"]
    choices = await env.fake.autocomplete(env.cy, thread, "bid", "company", typed="m&")
    assert [c["value"] for c in choices] == ["M&M", "M&O"]
    assert await env.fake.autocomplete(env.bob, thread, "bid", "company") == []  # not his turn
    await play(env, thread, DRAFT + STOCK_ROUND)
    choices = await env.fake.autocomplete(env.alice, thread, "lay", "hex")
    assert [c["value"] for c in choices] == ["H6"]
    choices = await env.fake.autocomplete(
        env.alice, thread, "lay", "rotation", hex="H6", tile="57-0"
    )
    # the engine offers 1 and 4; tile 57 (a city on a straight) lays the same track in both,
    # so one is shown (4 is still accepted when typed)
    assert ("57-0", [1, 4]) in dict((await env.service._live(1)).game.legal().tiles)["H6"]
    assert [c["value"] for c in choices] == ["1"]
    sent = await env.cmd(env.alice, thread, "lay", hex="H6", tile="57", rotation="4")
    assert not sent.ephemeral and "(rotation 4)" in sent.content, sent.content


async def test_abandon_permissions(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    sent = await env.cmd(env.bob, thread, "abandon")
    assert sent.ephemeral and "creator" in sent.content
    sent = await env.cmd(env.admin, thread, "abandon")
    assert "abandoned" in sent.content and not sent.ephemeral
    sent = await env.cmd(env.cy, thread, "bid", company="M&O", price="70")
    assert sent.ephemeral and "abandoned" in sent.content


async def test_slow_commands_are_deferred(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.cogs._base as base

    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT)
    monkeypatch.setattr(base, "DEFER_AFTER", 0.0)
    sent = await env.cmd(env.alice, thread, "par", corporation="GMO", price="70")
    replies = env.fake.pending[max(env.fake.pending)].replies
    # defer, then the followup; then its images are edited into it
    assert [(r.kind, r.callback_type) for r in replies] == [
        ("callback", 5), ("followup", None), ("edit", None)]
    assert sent.kind == "followup" and "GMO" in sent.content and sent.files
    sent = await env.cmd(env.bob, thread, "par", corporation="IC", price="1")
    assert sent.kind == "followup" and sent.ephemeral and "not a par value" in sent.content
    assert (
        "DELETE",
        f"/webhooks/{APP_ID}/tok{max(env.fake.pending)}/messages/@original",
    ) in env.fake.calls


async def test_a_command_outlasting_the_deferral_time_is_deferred_while_it_runs(
        env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    """The deferral is a timer running beside the command: a command still running when it
    fires is deferred, then answered by a followup; one done before it is answered at once."""
    import bot.cogs._base as base

    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT)
    assert env.bot is not None
    rail = env.bot.rail
    run = rail.run
    slow = [0.0]

    async def slowed(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(slow[0])
        return await run(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rail, "run", slowed)
    monkeypatch.setattr(base, "DEFER_AFTER", 0.2)
    slow[0] = 0.5  # outlasts the timer
    sent = await env.cmd(env.alice, thread, "par", corporation="GMO", price="70")
    replies = env.fake.pending[max(env.fake.pending)].replies
    assert [(r.kind, r.callback_type) for r in replies][:2] == [("callback", 5), ("followup", None)]
    assert replies[0].at < replies[1].at
    assert sent.kind == "followup" and "GMO" in sent.content
    slow[0] = 0.0  # done well before the timer: answered at once, never deferred
    sent = await env.cmd(env.bob, thread, "par", corporation="IC", price="70,1,2")
    replies = env.fake.pending[max(env.fake.pending)].replies
    assert [(r.kind, r.callback_type) for r in replies][0] == ("callback", 4), replies
    assert "IC" in sent.content and not sent.ephemeral
    await asyncio.sleep(0.3)  # the timer was stopped: no late deferral
    assert [r.callback_type for r in replies if r.kind == "callback"] == [4]


async def test_legal_lists_what_the_engine_allows(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    sent = await env.cmd(env.cy, thread, "legal")
    assert sent.ephemeral and sent.content.startswith("Cy may: bid")
    assert "Mobile & Ohio Railway (M&O) for $70" in sent.content
    sent = await env.cmd(env.bob, thread, "legal")
    assert "nothing to do" in sent.content
