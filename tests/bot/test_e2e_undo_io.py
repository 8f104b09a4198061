"""Undo/redo policy and 18xx.games import/export through discord.py."""

from __future__ import annotations

import json

from tests.bot.conftest import Env


async def _types(env: Env, game_id: int = 1) -> list[str]:
    return [r.action["type"] for r in await env.service.store.actions(game_id)]


async def test_undo_own_move_needs_no_consent_and_redo(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    await env.cmd(env.alice, thread, "lay", hex="E12", tile="57-0", rotation="0")
    sent = await env.cmd(env.alice, thread, "undo")
    assert "**Alice** takes back: lays tile 57 on E12" in sent.content
    assert f"<@{env.alice.id}> to act" in sent.content  # Alice's turn again
    assert "map.png" in [n for n, _ in sent.files]
    sent = await env.cmd(env.alice, thread, "redo")
    assert "**Alice** redoes: lays tile 57" in sent.content
    sent = await env.cmd(env.bob, thread, "pass")
    sent = await env.cmd(env.bob, thread, "redo")
    assert sent.ephemeral and "nothing to redo" in sent.content.lower()
    assert await _types(env) == ["lay_tile", "undo", "redo", "pass"]


async def test_undo_into_another_players_turn_needs_consent(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await env.cmd(env.alice, thread, "bid", company="M&O", price="30")
    ask = await env.cmd(env.bob, thread, "undo")
    assert f"<@{env.alice.id}>, **Bob** asks to undo your move: bids $30 on M&O" in ask.content
    assert [int(u) for u in ask.mentions["users"]] == [env.alice.id]
    buttons = [c["custom_id"] for row in ask.payload["components"] for c in row["components"]]
    assert buttons == ["undo:yes:1", "undo:no:1"]
    assert await _types(env) == ["bid"]
    # only the author of the move may answer
    sent = await env.fake.click(env.cy, ask, "undo:yes:1")
    await env.settle()
    assert sent.ephemeral and "Only the player" in sent.content
    sent = await env.fake.click(env.alice, ask, "undo:yes:1")
    await env.settle()
    assert "**Alice** agrees: **Bob** takes back bids $30 on M&O" in sent.content
    assert await _types(env) == ["bid", "undo"]
    sent = await env.fake.click(env.alice, ask, "undo:yes:1")
    await env.settle()
    assert sent.ephemeral and "already" in sent.content
    assert await _types(env) == ["bid", "undo"]


async def test_undo_refused_and_stale_requests(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    await env.cmd(env.alice, thread, "pass")
    ask = await env.cmd(env.bob, thread, "undo")
    sent = await env.fake.click(env.alice, ask, "undo:no:1")
    await env.settle()
    assert "refuses" in sent.content
    ask = await env.cmd(env.bob, thread, "undo")
    await env.cmd(env.bob, thread, "pass")  # the game moves on: the request is stale
    sent = await env.fake.click(env.alice, ask, "undo:yes:2")
    await env.settle()
    assert sent.ephemeral and "moved on" in sent.content
    assert await _types(env) == ["pass", "pass"]


async def test_undo_button_survives_restart(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    await env.cmd(env.alice, thread, "pass")
    ask = await env.cmd(env.bob, thread, "undo")
    await env.restart()
    sent = await env.fake.click(env.alice, ask, "undo:yes:1")
    await env.settle()
    assert "agrees" in sent.content
    assert await _types(env) == ["pass", "undo"]


async def test_export_then_import(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    await env.cmd(env.alice, thread, "bid", company="M&O", price="30")
    await env.cmd(env.bob, thread, "pass")
    sent = await env.cmd(env.alice, thread, "export")
    assert sent.ephemeral and sent.files[0][0] == "18MS-game-1.json"
    data = json.loads(sent.files[0][1])
    assert [a["type"] for a in data["actions"]] == ["bid", "pass"]
    ids = [p["id"] for p in data["players"]]
    mapping = f"{ids[0]}=<@{env.cy.id}> {ids[1]}=<@{env.dee.id}>"
    sent = await env.fake.invoke(
        env.cy,
        env.fake.main_channel,
        "import",
        players=mapping,
        attachment=("game.json", json.dumps(data).encode()),
    )
    await env.settle()
    assert "Imported 18MS game #2" in sent.content and "2 actions" in sent.content
    assert f"<@{env.cy.id}> to act" in sent.content
    thread2 = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    sent = await env.cmd(env.dee, thread2, "pass")
    assert "not your turn" in sent.content
    sent = await env.cmd(env.cy, thread2, "pass")
    assert "Game over" in sent.content
    record = await env.service.store.game(2)
    assert record is not None and [p.name for p in record.seated] == ["Alice", "Bob"]


async def test_import_requires_every_player_mapped(env: Env) -> None:
    data = {
        "title": "18MS",
        "players": [{"id": 1, "name": "P1"}, {"id": 2, "name": "P2"}],
        "actions": [],
        "settings": {"seed": 3},
    }
    sent = await env.fake.invoke(
        env.cy,
        env.fake.main_channel,
        "import",
        players=f"1=<@{env.cy.id}>",
        attachment=("game.json", json.dumps(data).encode()),
    )
    await env.settle()
    assert sent.ephemeral and "P2" in sent.content
