"""Seats end to end: substitution (by the creator, or by a vote of the other players),
resignation (a substitute takes the seat, or the players vote to end), dropping an absent
player with the others' consent; the game stays replayable (the engine's player ids stay)."""

from __future__ import annotations

import json

from bot.clock import DAY
from tests.bot.conftest import DRAFT, STOCK_ROUND, Env, play
from tests.bot.fake_discord import Sent
from tests.bot.test_e2e_reminders import advance


def _buttons(sent: Sent) -> list[str]:
    return [c["custom_id"] for row in sent.payload.get("components", [])
            for c in row["components"]]


async def _click(env: Env, user: object, message: Sent, custom_id: str) -> Sent:
    sent = await env.fake.click(user, message, custom_id)  # type: ignore[arg-type]
    await env.settle()
    return sent


async def test_creator_substitutes_and_the_game_replays(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)  # Cy is up
    sent = await env.cmd(env.bob, thread, "substitute", player="3", new=env.dee)
    assert not sent.ephemeral and "proposes that **Dee** takes Cy's seat" in sent.content
    sent = await env.cmd(env.alice, thread, "substitute", player="3", new=env.dee)
    assert not sent.ephemeral and "**Dee** takes Cy's seat in game #1." in sent.content
    assert [int(u) for u in sent.mentions["users"]] == [env.dee.id]  # Dee must act now
    sent = await env.cmd(env.cy, thread, "bid", company="M&O", price="70")
    assert sent.ephemeral and "not a player" in sent.content
    await play(env, thread, [("D", "bid", {"company": "M&O", "price": "70"})])
    # the seat is still the engine's player Cy had: the log replays after a restart
    await env.restart()
    await play(env, thread, DRAFT[1:] + STOCK_ROUND[:2])
    live = await env.service._live(1)
    view = live.game.view()
    assert {c.id: c.owner for c in view.companies}["M&O"] == str(env.cy.id)
    assert [p.name for p in view.players] == ["Alice", "Bob", "Dee"]
    sent = await env.cmd(env.dee, thread, "export")
    data = json.loads(sent.files[0][1])
    assert [(p["id"], p["name"]) for p in data["players"]][2] == (str(env.cy.id), "Dee")
    # the export replays through the engine to the same state
    from engine.io.export18xx import import_game

    again = import_game(data).view()
    assert [p.cash for p in again.players] == [p.cash for p in view.players]
    sent = await env.cmd(env.dee, thread, "seats")
    assert "3. Dee" in sent.content and "Cy left (substituted)" in sent.content
    sent = await env.cmd(env.alice, thread, "substitute", player="3", new=env.bob)
    assert sent.ephemeral and "already holds a seat" in sent.content


async def test_the_substitute_answers_for_the_seats_earlier_moves(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT[:1])  # Cy bids
    await env.cmd(env.alice, thread, "substitute", player="3", new=env.dee)
    ask = await env.cmd(env.bob, thread, "undo")  # undoing Cy's bid: Dee holds the seat now
    assert ask.content.startswith(f"<@{env.dee.id}>, **Bob** asks to undo your move")
    assert [int(u) for u in ask.mentions["users"]] == [env.dee.id]
    sent = await _click(env, env.cy, ask, "undo:yes:1")
    assert sent.ephemeral
    sent = await _click(env, env.dee, ask, "undo:yes:1")
    assert "**Dee** agrees" in sent.content and await env.log_types() == ["bid", "undo"]


async def test_the_creators_substitute_takes_over_the_game(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await env.cmd(env.alice, thread, "resign", substitute=env.dee)
    record = await env.service.store.game(1)
    assert record is not None and record.creator_id == env.dee.id
    sent = await env.cmd(env.dee, thread, "timing", reminder="24")
    assert not sent.ephemeral and "first reminder after 24 h" in sent.content
    sent = await env.cmd(env.alice, thread, "timing", reminder="6")
    assert sent.ephemeral and "Only the game's creator" in sent.content


async def test_substitute_by_vote_of_the_other_players(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    ask = await env.cmd(env.bob, thread, "substitute", player="1", new=env.dee)
    assert [int(u) for u in ask.mentions["users"]] == [env.cy.id]  # Alice's seat: Cy votes
    assert _buttons(ask) == ["seat:yes:1", "seat:no:1"]
    sent = await _click(env, env.alice, ask, "seat:yes:1")
    assert sent.ephemeral and "for the other players" in sent.content
    sent = await env.cmd(env.cy, thread, "substitute", player="1", new=env.dee)
    assert sent.ephemeral and "already waiting" in sent.content
    await env.restart()  # the vote is stored; its buttons still work
    sent = await _click(env, env.cy, ask, "seat:yes:1")
    assert "The players agree. **Dee** takes Alice's seat" in sent.content
    record = await env.service.store.game(1)
    assert record is not None
    assert [(p.name, p.engine_id) for p in record.seated][0] == ("Dee", str(env.alice.id))
    sent = await _click(env, env.cy, ask, "seat:yes:1")
    assert sent.ephemeral and "closed (passed)" in sent.content
    # a refused proposal: Cy proposes, Bob refuses... the others are Bob and Dee (2): 1 of 2
    ask = await env.cmd(env.cy, thread, "substitute", player="2", new=env.alice)
    sent = await _click(env, env.dee, ask, "seat:no:2")
    assert "The players refuse that **Alice** takes Bob's seat" in sent.content
    assert (await env.service.store.game(1)).seated[1].name == "Bob"  # type: ignore[union-attr]


async def test_resign_with_a_substitute_or_vote_to_end(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT[:1])  # Bob is up
    sent = await env.cmd(env.bob, thread, "resign", substitute=env.dee)
    assert "**Bob** resigns.\n**Dee** takes Bob's seat" in sent.content
    assert [int(u) for u in sent.mentions["users"]] == [env.dee.id]
    await play(env, thread, [("D", "bid", {"company": "MC", "price": "60"})])
    record = await env.service.store.game(1)
    assert record is not None and record.creator_id == env.alice.id  # Bob was not the creator
    # Alice is up and resigns without a substitute: the seat is vacant, the others vote
    sent = await env.cmd(env.alice, thread, "resign")
    assert "their seat is vacant" in sent.content
    assert sorted(int(u) for u in sent.mentions["users"]) == sorted([env.dee.id, env.cy.id])
    assert "to end the game now" in sent.content
    sent_v = sent
    sent = await env.cmd(env.alice, thread, "bid", company="AGS", price="30")
    assert sent.ephemeral and "not a player" in sent.content
    sent = await env.cmd(env.cy, thread, "games")
    assert "(vacant, was Alice) up since" in sent.content
    sent = await _click(env, env.cy, sent_v, "seat:yes:1")
    assert "**Cy** agrees" in sent.content
    sent = await _click(env, env.dee, sent_v, "seat:yes:1")
    assert "The players agree to end the game." in sent.content and "Game over" in sent.content
    assert sent.mentions["users"] == []
    record = await env.service.store.game(1)
    assert record is not None and record.status == "finished"
    assert (await env.log_types())[-1] == "end_game"


async def test_drop_an_absent_player_with_every_others_consent(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)  # Cy is up
    sent = await env.cmd(env.alice, thread, "drop", player="3")
    assert sent.ephemeral and "dropped after 7 days without a move" in sent.content
    sent = await env.cmd(env.alice, thread, "drop", player="2")
    assert sent.ephemeral and "not the one the game waits for" in sent.content
    await env.cmd(env.alice, thread, "timing", drop="2")
    await advance(env, 2 * DAY)
    ask = await env.cmd(env.alice, thread, "drop", player=f"<@{env.cy.id}>")
    assert [int(u) for u in ask.mentions["users"]] == [env.bob.id]
    assert "every other player must agree" in ask.content
    sent = await _click(env, env.cy, ask, "seat:yes:1")
    assert sent.ephemeral  # not Cy's vote
    sent = await _click(env, env.bob, ask, "seat:no:1")
    assert "The players refuse to drop Cy" in sent.content
    ask = await env.cmd(env.alice, thread, "drop", player="3")
    sent = await _click(env, env.bob, ask, "seat:yes:2")
    assert "Cy is dropped and the seat is vacant" in sent.content
    assert "to end the game now" in sent.content and _buttons(sent) == ["seat:yes:3", "seat:no:3"]
    # the creator seats a substitute in the vacant seat (named by its last holder)
    sent = await env.cmd(env.alice, thread, "substitute", player=f"<@{env.cy.id}>", new=env.dee)
    assert "**Dee** takes the seat Cy left in game #1" in sent.content
    await play(env, thread, [("D", "bid", {"company": "M&O", "price": "70"})])
    history = await env.service.long.seat_history(1)
    assert [(old, new, why) for _e, old, _n, new, why in history] == [
        (env.cy.id, -3, "dropped"), (-3, env.dee.id, "substituted")]
