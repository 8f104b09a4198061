"""1870 and 18MEX through slash commands: whole recorded games (title-specific commands
included: /redeem, /connect, /assign with a company, /merge) and 1870 price protection."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.bot.conftest import FIXTURES, Env, needs_shared
from tests.bot.replay import effective_log, import_cut, replay_as_commands, typed_actions

pytestmark = needs_shared


def _load(path: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / path).read_text())
    return data


@pytest.mark.parametrize(
    ("fixture", "expect"),
    [
        pytest.param("1870/1870_game_end_bank.json", {"redeem", "connect", "assign", "discard"},
                     marks=pytest.mark.slow),  # 923 commands: about 2 minutes
        pytest.param("18MEX/13315.json", {"merge"}, marks=pytest.mark.slow),
    ],
)
async def test_recorded_title_game_as_slash_commands(
    env: Env, fixture: str, expect: set[str]
) -> None:
    from tests.bot.replay import command_for

    data = _load(fixture)
    typed = typed_actions(effective_log(data))
    used = {command_for(a)[0] for a in typed}
    assert expect <= used, used
    sent, images, users = await replay_as_commands(env, data, typed)
    assert sent is not None and "Game over" in sent.content, sent
    live = await env.service._live(1)
    assert live.game.result() == {str(users[p].id): v for p, v in data["result"].items()}
    record = await env.service.store.game(1)
    assert record is not None and record.status == "finished"
    assert images > 0


@pytest.mark.whole_game
async def test_short_1870_game_as_slash_commands(env: Env) -> None:
    """The default run's 1870 game through the bot (the long one above is marked slow): a real
    game of 203 commands with /assign and /redeem, typed up to its last move (a connection run
    that the site started by its own check, which typed commands do not reproduce); the bot's
    game then equals the engine's."""
    from engine.game import Game
    from engine.io.export18xx import end_state
    from tests.bot.replay import command_for

    data = _load("1870/34110.json")
    typed = typed_actions(effective_log(data))[:-1]
    assert {"assign", "redeem"} <= {command_for(a)[0] for a in typed}
    sent, images, users = await replay_as_commands(env, data, typed)
    live = await env.service._live(1)
    ref = Game("1870", [(str(users[str(p["id"])].id), "x") for p in data["players"]], [])
    ids = {str(p["id"]): str(users[str(p["id"])].id) for p in data["players"]}
    for a in typed:
        ref.apply({**a, "entity": ids.get(str(a["entity"]), a["entity"])})
    assert end_state(live.game)["corporations"] == end_state(ref)["corporations"]
    assert live.game.result() == ref.result()
    assert images > 0


async def test_1870_price_protection_with_protect(env: Env) -> None:
    """A real 1870 export imported just before a price protection, then /protect by the
    president: the state equals the recorded game's after that action."""
    from engine.io.export18xx import import_game

    data = _load("1870/40469_price_protect_allowed.json")
    at = next(
        i
        for i, a in enumerate(data["actions"])
        if a["type"] == "buy_shares" and a["entity_type"] == "player" and len(a["shares"]) > 1
    )
    action = data["actions"][at]
    ids = [str(p["id"]) for p in data["players"]]
    users = dict(zip(ids, (env.alice, env.bob, env.cy, env.dee), strict=True))
    mapping = " ".join(f"{pid}=<@{u.id}>" for pid, u in users.items())
    cut = {**data, "actions": data["actions"][:at]}
    sent = await env.fake.invoke(
        env.alice,
        env.fake.main_channel,
        "import",
        players=mapping,
        attachment=("40469.json", json.dumps(cut).encode()),
    )
    await env.settle()
    assert "Imported 1870 game #1" in sent.content, sent.content
    thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    president = users[str(action["entity"])]
    corp = action["shares"][0].rsplit("_", 1)[0]
    other = next(u for u in users.values() if u is not president)
    sent = await env.cmd(other, thread, "protect", corporation=corp)
    assert sent.ephemeral and "not your turn" in sent.content
    sent = await env.cmd(president, thread, "protect", corporation=corp)
    assert not sent.ephemeral, sent.content
    live = await env.service._live(1)
    stored = (await env.service.store.actions(1))[-1].action
    assert stored["type"] == "buy_shares" and stored["entity"] == str(action["entity"])
    assert sorted(stored["shares"]) == sorted(action["shares"]) or stored["shares"] == [corp]
    expected = import_game(data, upto=int(action["id"]))
    got, want = live.game.view(), expected.view()
    assert [(p.id, p.cash) for p in got.players] == [(p.id, p.cash) for p in want.players]
    assert live.game.acting_players() == expected.acting_players()


async def test_18mex_merger_with_merge(env: Env) -> None:
    """The default run's 18MEX through the bot (the whole game above is slow): a real export
    imported just before the NdM merger offer, then /merge by the acting president; the
    state equals the recorded game's after that action."""
    from engine.io.export18xx import import_game
    from tests.bot.fake_discord import User

    data = _load("18MEX/13315.json")
    at = next(i for i, a in enumerate(data["actions"]) if a["type"] == "merge")
    action = data["actions"][at]
    ids = [str(p["id"]) for p in data["players"]]
    users = {pid: User(6000 + i, f"P{pid}") for i, pid in enumerate(ids)}
    cut = {**data, "actions": data["actions"][:at]}
    thread = await import_cut(env, env.alice, cut, users, "13315.json")
    live = await env.service._live(1)
    (pid,) = live.game.acting_players()
    president = users[pid]  # an imported game keeps the export's player ids
    other = next(u for u in users.values() if u is not president)
    sent = await env.cmd(other, thread, "merge", corporation=action["corporation"])
    assert sent.ephemeral and "not your turn" in sent.content, sent.content
    sent = await env.cmd(president, thread, "merge", corporation=action["corporation"])
    assert not sent.ephemeral, sent.content
    stored = (await env.service.store.actions(1))[-1].action
    assert stored["type"] == "merge" and stored["corporation"] == action["corporation"]
    live = await env.service._live(1)
    expected = import_game(data, upto=int(action["id"]))
    got, want = live.game.view(), expected.view()
    assert [(p.id, p.cash) for p in got.players] == [(p.id, p.cash) for p in want.players]
    assert [(c.id, c.treasury, c.trains, c.closed) for c in got.corporations] == [
        (c.id, c.treasury, c.trains, c.closed) for c in want.corporations]
    assert live.game.acting_players() == expected.acting_players()
