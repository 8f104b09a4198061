"""Programmed moves through discord.py and the real engine (18MS, 3 players): /auto gives a
standing order out of turn, the engine makes the moves when the turn comes, the reply says so
and pings whoever must really act, the export carries them as the site's auto_actions."""

from __future__ import annotations

import json

from tests.bot.conftest import DRAFT, Env, play


async def test_auto_pass_and_auto_buy_through_discord(env: Env) -> None:
    from engine.io.export18xx import import_game

    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT)
    await play(env, thread, [("A", "par", {"corporation": "GMO", "price": "70"})])
    # Cy, not acting, orders an auto-pass: a public move of hers; the turn stays Bob's (he is
    # not pinged again)
    sent = await env.cmd(env.cy, thread, "auto", mode="pass")
    assert not sent.ephemeral and "Cy" in sent.content and "auto-pass" in sent.content
    assert sent.mentions["users"] == []
    sent = await env.cmd(env.cy, thread, "auto")
    assert sent.ephemeral and "pass in this stock round until something changes" in sent.content
    # Bob passes: Cy's order passes for her, the reply says so, Alice is pinged
    sent = await env.cmd(env.bob, thread, "pass")
    assert not sent.ephemeral
    assert "**Cy** passes (auto-pass)" in sent.content
    assert sent.mentions["users"] == [env.alice.id]
    records = await env.service.store.actions(1)
    assert records[-1].action["type"] == "pass"
    assert records[-1].action["auto_actions"] == [
        {"entity": str(env.cy.id), "entity_type": "player", "type": "pass"}]
    # Alice orders an auto-buy of GMO in her turn: it buys at once, then Bob is to act
    sent = await env.cmd(env.alice, thread, "auto", mode="buy", corporation="gmo")
    assert not sent.ephemeral and "auto-buy of GMO until it floats" in sent.content
    assert "**Alice** buys GMO_1 (auto-buy)" in sent.content
    assert sent.mentions["users"] == [env.bob.id]
    # Bob pars IC: at Cy's turn her auto-pass ends, with the reason; Cy is pinged
    sent = await env.cmd(env.bob, thread, "par", corporation="IC", price="70,1,2")
    assert "**Cy**'s programmed move ends: Corporation IC parred." in sent.content
    assert sent.mentions["users"] == [env.cy.id]
    # Cy passes: Alice's auto-buy buys again, then Bob is to act
    sent = await env.cmd(env.cy, thread, "pass")
    assert "**Alice** buys GMO_2 (auto-buy)" in sent.content
    assert sent.mentions["users"] == [env.bob.id]
    # a refused order: the engine's words, privately, nothing stored
    before = len(await env.service.store.actions(1))
    sent = await env.cmd(env.bob, thread, "auto", mode="buy", corporation="Fr")
    assert sent.ephemeral and "has not been started" in sent.content
    sent = await env.cmd(env.cy, thread, "auto", mode="off")
    assert sent.ephemeral and "no programmed move to cancel" in sent.content
    sent = await env.cmd(env.dee, thread, "auto", mode="pass")
    assert sent.ephemeral and "not a player" in sent.content
    assert len(await env.service.store.actions(1)) == before
    # the export keeps the orders and the programmed moves in the site's format
    sent = await env.cmd(env.alice, thread, "export")
    data = json.loads(sent.files[0][1])
    kinds = [a["type"] for a in data["actions"]]
    assert "program_share_pass" in kinds and "program_buy_shares" in kinds
    made = [s for a in data["actions"] for s in a.get("auto_actions", [])]
    assert {"entity": str(env.alice.id), "entity_type": "player", "type": "buy_shares",
            "shares": ["GMO_2"], "percent": 10} in made
    back = import_game(data)
    assert [a.type for a in back.log] == kinds
    # Alice cancels her order; Bob's undo of a move takes its programmed moves back with it
    sent = await env.cmd(env.alice, thread, "auto", mode="off")
    assert not sent.ephemeral and "cancels their programmed move" in sent.content
    live = await env.service._live(1)
    assert live.game.state.programs == {}


async def test_auto_in_the_terminal_grammar() -> None:
    from bot.local import parse_arguments

    assert parse_arguments("auto", ["buy", "GMO", "4", "market"]) == {
        "mode": "buy", "corporation": "GMO", "until": "4", "source": "market"}
    assert parse_arguments("auto", ["mode=pass-always"]) == {"mode": "pass-always"}
