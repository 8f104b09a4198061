"""Undo/redo policy and 18xx.games import/export through discord.py and the real engine."""

from __future__ import annotations

import json

import pytest

from tests.bot.conftest import DRAFT, FIXTURES, STOCK_ROUND, Env, needs_shared, play


async def test_undo_own_move_needs_no_consent_and_redo(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT)
    await env.cmd(env.alice, thread, "par", corporation="GMO", price="70")
    sent = await env.cmd(env.alice, thread, "undo")
    assert "**Alice** takes back: pars GMO" in sent.content, sent.content
    assert f"<@{env.alice.id}> to act" in sent.content  # Alice's turn again
    assert "market.png" in [n for n, _ in sent.files]
    live = await env.service._live(1)
    assert live.game.legal().entity == str(env.alice.id) and "GMO" in live.game.legal().pars
    sent = await env.cmd(env.alice, thread, "redo")
    assert "**Alice** redoes: pars GMO" in sent.content
    assert f"<@{env.bob.id}> to act" in sent.content
    sent = await env.cmd(env.bob, thread, "pass")
    sent = await env.cmd(env.bob, thread, "redo")
    assert sent.ephemeral and "nothing to redo" in sent.content.lower()
    assert await env.log_types() == ["bid"] * 3 + ["par", "undo", "redo", "pass"]


async def test_undo_into_another_players_turn_needs_consent(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await env.cmd(env.cy, thread, "bid", company="M&O", price="70")
    ask = await env.cmd(env.bob, thread, "undo")
    assert f"<@{env.cy.id}>, **Bob** asks to undo your move: bids $70 on M&O" in ask.content
    assert [int(u) for u in ask.mentions["users"]] == [env.cy.id]
    buttons = [c["custom_id"] for row in ask.payload["components"] for c in row["components"]]
    assert buttons == ["undo:yes:1", "undo:no:1"]
    assert await env.log_types() == ["bid"]
    # only the author of the move may answer
    sent = await env.fake.click(env.alice, ask, "undo:yes:1")
    await env.settle()
    assert sent.ephemeral and "Only the player" in sent.content
    sent = await env.fake.click(env.cy, ask, "undo:yes:1")
    await env.settle()
    assert "**Cy** agrees: **Bob** takes back bids $70 on M&O" in sent.content
    assert f"<@{env.cy.id}> to act" in sent.content
    assert await env.log_types() == ["bid", "undo"]
    live = await env.service._live(1)
    assert [p.cash for p in live.game.view().players] == [625, 625, 625]
    sent = await env.fake.click(env.cy, ask, "undo:yes:1")
    await env.settle()
    assert sent.ephemeral and "already" in sent.content
    assert await env.log_types() == ["bid", "undo"]


async def test_undo_refused_and_stale_requests(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await env.cmd(env.cy, thread, "bid", company="M&O", price="70")
    ask = await env.cmd(env.bob, thread, "undo")
    sent = await env.fake.click(env.cy, ask, "undo:no:1")
    await env.settle()
    assert "refuses" in sent.content
    ask = await env.cmd(env.bob, thread, "undo")
    await env.cmd(env.bob, thread, "bid", company="MC", price="60")  # the game moves on
    sent = await env.fake.click(env.cy, ask, "undo:yes:2")
    await env.settle()
    assert sent.ephemeral and "moved on" in sent.content
    assert await env.log_types() == ["bid", "bid"]


async def test_undo_button_survives_restart(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await env.cmd(env.cy, thread, "bid", company="M&O", price="70")
    ask = await env.cmd(env.bob, thread, "undo")
    await env.restart()
    sent = await env.fake.click(env.cy, ask, "undo:yes:1")
    await env.settle()
    assert "agrees" in sent.content
    assert await env.log_types() == ["bid", "undo"]


async def test_export_then_import(env: Env) -> None:
    from engine.io.export18xx import import_game

    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND[:3])
    sent = await env.cmd(env.alice, thread, "export")
    assert sent.ephemeral and sent.files[0][0] == "18MS-game-1.json"
    data = json.loads(sent.files[0][1])
    assert [a["type"] for a in data["actions"]] == ["bid"] * 3 + ["par", "par", "buy_shares"]
    ids = [str(p["id"]) for p in data["players"]]
    assert ids == [str(env.alice.id), str(env.bob.id), str(env.cy.id)]
    assert not import_game(data).finished  # the engine reads the export back
    # Alice's seat goes to Dee, Bob's to Cy, Cy's to Alice
    mapping = f"{ids[0]}=<@{env.dee.id}> {ids[1]}=<@{env.cy.id}> {ids[2]}=<@{env.alice.id}>"
    sent = await env.fake.invoke(
        env.cy,
        env.fake.main_channel,
        "import",
        players=mapping,
        attachment=("game.json", json.dumps(data).encode()),
    )
    await env.settle()
    sent = env.fake.final(sent)  # the images are edited in once the answer is out
    assert "Imported 18MS game #2" in sent.content and "6 actions" in sent.content
    assert f"<@{env.dee.id}> to act" in sent.content  # Alice's seat acts next
    assert sent.files and sent.files[0][1].startswith(b"\x89PNG")
    thread2 = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    sent = await env.cmd(env.alice, thread2, "buy", corporation="GMO")
    assert sent.ephemeral and "not your turn" in sent.content
    sent = await env.cmd(env.dee, thread2, "buy", corporation="GMO", share="GMO_2")
    assert not sent.ephemeral and "GMO" in sent.content, sent.content
    record = await env.service.store.game(2)
    assert record is not None and [p.user_id for p in record.seated] == [
        env.dee.id,
        env.cy.id,
        env.alice.id,
    ]
    assert await env.log_types(1) == ["bid"] * 3 + ["par", "par", "buy_shares"]


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


@pytest.mark.parametrize("blob", [b"{not json", b'{"title": "\xff"}', b"[" * 5000 + b"]" * 5000,
                                  b'{"title": "18MS", "x": NaN}'],
                         ids=["syntax", "utf8", "deep", "nan"])
async def test_an_upload_that_is_not_json_is_refused(env: Env, blob: bytes) -> None:
    sent = await env.fake.invoke(env.cy, env.fake.main_channel, "import",
                                 players=f"1=<@{env.cy.id}>", attachment=("game.json", blob))
    await env.settle()
    assert sent.ephemeral and "not JSON" in sent.content, sent.content


@needs_shared
async def test_import_a_recorded_game_and_finish_it(env: Env) -> None:
    """A real 18xx.games export (undo/redo included) cut 4 actions before its end: the
    imported game is finished with slash commands and ends with the recorded result."""
    data = json.loads((FIXTURES / "18MS" / "14375.json").read_text())
    tail = data["actions"][-4:]
    assert [a["type"] for a in tail] == ["pass", "run_routes", "dividend", "pass"]
    cut = {**data, "actions": data["actions"][:-4]}
    users = {"680": env.alice, "4861": env.bob, "686": env.cy}
    mapping = " ".join(f"{pid}=<@{u.id}>" for pid, u in users.items())
    sent = await env.fake.invoke(
        env.dee,
        env.fake.main_channel,
        "import",
        players=mapping,
        attachment=("14375.json", json.dumps(cut).encode()),
    )
    await env.settle()
    assert "Imported 18MS game #1" in sent.content and "456 actions" in sent.content
    thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    live = await env.service._live(1)
    president = users[live.game.acting_players()[0]]  # imported seats keep the export's ids
    assert f"<@{president.id}> to act for L&N" in sent.content
    await env.cmd(president, thread, "pass")
    await env.cmd(president, thread, "run", routes=json.dumps(tail[1]["routes"]))
    await env.cmd(president, thread, "dividend", kind=tail[2]["kind"])
    sent = await env.cmd(president, thread, "pass")
    assert "Game over" in sent.content and sent.mentions["users"] == []
    assert "status.png" in [n for n, _ in sent.files]
    record = await env.service.store.game(1)
    assert record is not None and record.status == "finished"
    live = await env.service._live(1)
    assert live.game.result() == data["result"]
    sent = await env.cmd(env.alice, thread, "pass")
    assert sent.ephemeral and "finished" in sent.content


@needs_shared
async def test_connection_run_default_route_is_the_one_the_rules_require(env: Env) -> None:
    """1870: in a connection run one route must join home and destination; `/run` with no
    routes uses the route the engine offers for it (the best routes need not join them)."""
    data = json.loads((FIXTURES / "1870" / "1870_game_end_bank.json").read_text())
    cut = {**data, "actions": [a for a in data["actions"] if a["id"] <= 622]}
    users = {"9263": env.alice, "7438": env.bob, "4395": env.cy, "18843": env.dee}
    mapping = " ".join(f"{pid}=<@{u.id}>" for pid, u in users.items())
    sent = await env.fake.invoke(env.dee, env.fake.main_channel, "import", players=mapping,
                                 attachment=("bank.json", json.dumps(cut).encode()))
    await env.settle()
    assert "Imported 1870 game #1" in sent.content, sent.content
    thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    live = await env.service._live(1)
    assert live.game.current_entity() == ("FW", "corporation")
    required = [c for c in live.game.legal().choices if c["type"] == "run_routes"]
    assert required, "the engine offers the connection route"
    president = users[live.game.acting_players()[0]]
    sent = await env.cmd(president, thread, "run")  # the run shown, then confirmed
    assert sent.ephemeral and sent.content.startswith("FW's best run: "), sent.content
    (button,) = [c["custom_id"] for row in sent.payload["components"] for c in row["components"]]
    sent = await env.fake.click(president, sent, button)
    await env.settle()
    assert not sent.ephemeral, sent.content
    live = await env.service._live(1)
    ran = live.game.log[-1]
    assert ran.type == "run_routes"
    assert [r.model_dump(exclude_none=True) for r in ran.routes] == required[0]["routes"]
