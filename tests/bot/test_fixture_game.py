"""Whole recorded 18MS games re-played as slash commands by the right Discord users.

Every effective action of an 18xx.games export (undo/redo resolved by the engine's
`effective_actions`) is typed as the slash command a player would use, by the Discord user who
controls the acting entity at that moment (worked out by a reference engine game stepping
alongside, not by the bot). The game must end with exactly the recorded `result`, with real
map/market PNGs posted. The fixture files are read in place from ../shared, never copied;
without ../shared the tests skip.
"""

from __future__ import annotations

import json

import pytest

from tests.bot.conftest import FIXTURES, Env, needs_shared
from tests.bot.replay import effective_log, replay_as_commands

pytestmark = needs_shared
GAMES = FIXTURES / "18MS"


def _pngs(env: Env) -> list[bytes]:
    return [f for s in env.fake.sent for n, f in s.files if n.endswith(".png")]


@pytest.mark.whole_game
# slow (about 25 s each): the default run plays the short 1870 game whole (test_titles.py) and
# 18MS recorded moves in test_e2e_story.py and test_mail_mixed.py
@pytest.mark.parametrize("fixture", [pytest.param("14375.json", marks=pytest.mark.slow),
                                     pytest.param("17510.json", marks=pytest.mark.slow)])
async def test_recorded_game_as_slash_commands(env: Env, fixture: str) -> None:
    data = json.loads((GAMES / fixture).read_text())
    log = effective_log(data)
    sent, images, users = await replay_as_commands(env, data, log)
    assert sent is not None and "Game over" in sent.content, sent
    record = await env.service.store.game(1)
    assert record is not None and record.status == "finished"
    assert len(await env.service.store.actions(1)) == len(log)
    live = await env.service._live(1)
    assert live.game.result() == {str(users[p].id): v for p, v in data["result"].items()}
    for pid, value in data["result"].items():
        assert f"{users[pid].name} ${value}" in sent.content
    pngs = _pngs(env)
    # + the status image and card of /start, + the standings chart sent with the game-over
    # reply (then again in the edit that adds that reply's images)
    assert images > 0 and len(pngs) == images + 3
    assert [n for n, _ in sent.files].count("standings.png") == 1
    assert all(p.startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)
    names = {n for s in env.fake.sent for n, _f in s.files}
    assert {"map.png", "market.png", "status.png", "card.png", "standings.png"} <= names


async def test_best_routes_and_autocomplete_with_real_engine(env: Env) -> None:
    data = json.loads((GAMES / "14375.json").read_text())
    log = effective_log(data)
    first_run = next(i for i, a in enumerate(log) if a["type"] == "run_routes")
    sent, _images, users = await replay_as_commands(env, data, log[:first_run])
    assert sent is not None
    live = await env.service._live(1)
    user = next(u for u in users.values() if str(u.id) == live.game.acting_players()[0])
    thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    # /run shows the solver's best run to the president, who runs it with the button
    sent = await env.cmd(user, thread, "run")
    assert sent.ephemeral and sent.content.startswith(
        "IC's best run: a 2+ train Memphis-Grenada-Chattanooga $90. Total $90."), sent.content
    assert len(await env.service.store.actions(1)) == first_run  # nothing run yet
    (button,) = [c["custom_id"] for row in sent.payload["components"] for c in row["components"]]
    other = next(u for u in users.values() if u is not user)
    refused = await env.fake.click(other, sent, button)
    assert refused.ephemeral and "Only the player who asked for this run" in refused.content
    sent = await env.fake.click(user, sent, button)
    await env.settle()
    assert not sent.ephemeral and " runs a 2+ train Memphis-Grenada-Chattanooga for $90" in (
        sent.content), sent.content
    choices = await env.fake.autocomplete(user, thread, "dividend", "kind")
    assert {c["value"] for c in choices} <= {"payout", "withhold", "half"} and choices
