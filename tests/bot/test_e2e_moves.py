"""Moves through discord.py: rejections, permissions, idempotency, restarts, images."""

from __future__ import annotations

import asyncio

import pytest

from tests.bot.conftest import Env
from tests.bot.fake_discord import APP_ID


async def _log_types(env: Env, game_id: int) -> list[str]:
    return [r.action["type"] for r in await env.service.store.actions(game_id)]


async def test_rejected_move_is_private_and_changes_nothing(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    sent = await env.cmd(env.alice, thread, "bid", company="M&O", price="10")
    assert sent.ephemeral
    assert sent.content == "A bid must be at least $20."
    assert await _log_types(env, 1) == []


async def test_non_player_and_wrong_player(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    sent = await env.cmd(env.dee, thread, "pass")
    assert sent.ephemeral and "not a player" in sent.content
    sent = await env.cmd(env.bob, thread, "pass")
    assert sent.ephemeral and "not your turn" in sent.content and "Alice" in sent.content
    assert await _log_types(env, 1) == []


async def test_move_posts_summary_images_and_pings_next(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    sent = await env.cmd(env.alice, thread, "lay", hex="E12", tile="57-0", rotation="1")
    assert not sent.ephemeral
    assert sent.content.startswith("**Alice** lays tile 57 on E12 (rotation 1)")
    assert f"<@{env.bob.id}> to act" in sent.content
    assert [int(u) for u in sent.mentions["users"]] == [env.bob.id]
    assert sent.mentions["parse"] == []
    assert [name for name, _ in sent.files] == ["map.png"]
    sent = await env.cmd(env.bob, thread, "bid", company="BS", price="25")
    assert [name for name, _ in sent.files] == ["market.png"]
    sent = await env.cmd(env.alice, thread, "pass")
    assert sent.files == []


async def test_duplicated_interaction_applies_once(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    iid = 960000000000000001
    first = await env.fake.invoke(env.alice, thread, "pass", interaction_id=iid)
    await env.settle()
    second = await env.fake.redeliver(env.alice, thread, "pass", iid)
    await env.settle()
    assert "passes" in first.content
    assert second.ephemeral and "already handled" in second.content
    assert await _log_types(env, 1) == ["pass"]


async def test_concurrent_commands_on_one_game_are_serialised(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    a, b = await asyncio.gather(
        env.fake.invoke(env.alice, thread, "pass"), env.fake.invoke(env.alice, thread, "pass")
    )
    await env.settle()
    assert sorted([a.ephemeral, b.ephemeral]) == [False, True]
    assert await _log_types(env, 1) == ["pass"]


async def test_restart_mid_game(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await env.cmd(env.alice, thread, "bid", company="M&O", price="30")
    await env.cmd(env.bob, thread, "lay", hex="F13", tile="57-0", rotation="2")
    await env.restart()
    sent = await env.cmd(env.bob, thread, "pass")
    assert "not your turn" in sent.content and "Cy" in sent.content
    sent = await env.cmd(env.cy, thread, "pass")
    assert "**Cy** passes" in sent.content
    assert await _log_types(env, 1) == ["bid", "lay_tile", "pass"]
    sent = await env.cmd(env.cy, thread, "history", count=5)
    assert "Alice** bids $30 on M&O" in sent.content and sent.ephemeral


async def test_two_games_interleaved(env: Env) -> None:
    t1 = await env.new_game(env.alice, env.bob)
    t2 = await env.new_game(env.cy, env.alice)
    assert t1 != t2
    await env.cmd(env.alice, t1, "bid", company="M&O", price="20")
    await env.cmd(env.cy, t2, "pass")
    await env.cmd(env.bob, t1, "pass")
    sent = await env.cmd(env.alice, t2, "bid", company="BS", price="40")
    assert "Alice** bids $40 on BS" in sent.content
    assert await _log_types(env, 1) == ["bid", "pass"]
    assert await _log_types(env, 2) == ["pass", "bid"]
    sent = await env.cmd(env.alice, env.fake.main_channel, "games")
    assert "#1 18MS (active)" in sent.content and "#2 18MS (active)" in sent.content


async def test_game_over_reports_scores(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    await env.cmd(env.alice, thread, "bid", company="M&O", price="30")
    await env.cmd(env.bob, thread, "pass")
    sent = await env.cmd(env.alice, thread, "pass")
    assert "Game over. Bob $100, Alice $70" in sent.content
    assert sent.mentions["users"] == [] and "status.png" in [n for n, _ in sent.files]
    record = await env.service.store.game(1)
    assert record is not None and record.status == "finished"
    sent = await env.cmd(env.bob, thread, "pass")
    assert sent.ephemeral and "finished" in sent.content


async def test_autocomplete_offers_only_legal_choices(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    choices = await env.fake.autocomplete(env.alice, thread, "lay", "hex")
    assert [c["value"] for c in choices] == ["E12", "F13"]
    choices = await env.fake.autocomplete(
        env.alice, thread, "lay", "rotation", hex="E12", tile="57-0"
    )
    assert [c["value"] for c in choices] == ["0", "1", "2"]
    choices = await env.fake.autocomplete(env.alice, thread, "bid", "company", typed="m&")
    assert [c["value"] for c in choices] == ["M&O"]
    assert await env.fake.autocomplete(env.bob, thread, "lay", "hex") == []  # not his turn


async def test_abandon_permissions(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    sent = await env.cmd(env.bob, thread, "abandon")
    assert sent.ephemeral and "creator" in sent.content
    sent = await env.cmd(env.admin, thread, "abandon")
    assert "abandoned" in sent.content and not sent.ephemeral
    sent = await env.cmd(env.alice, thread, "pass")
    assert sent.ephemeral and "abandoned" in sent.content


async def test_slow_commands_are_deferred(env: Env, monkeypatch: pytest.MonkeyPatch) -> None:
    import bot.cogs._base as base

    thread = await env.new_game(env.alice, env.bob)
    monkeypatch.setattr(base, "DEFER_AFTER", 0.0)
    sent = await env.cmd(env.alice, thread, "lay", hex="E12", tile="57-0", rotation="1")
    replies = env.fake.pending[max(env.fake.pending)].replies
    assert [r.callback_type for r in replies] == [5, None]  # defer, then the followup
    assert sent.kind == "followup" and "lays tile 57" in sent.content and sent.files
    sent = await env.cmd(env.bob, thread, "bid", company="BS", price="1")
    assert sent.kind == "followup" and sent.ephemeral and "at least $20" in sent.content
    assert (
        "DELETE",
        f"/webhooks/{APP_ID}/tok{max(env.fake.pending)}/messages/@original",
    ) in env.fake.calls


async def test_legal_lists_what_the_engine_allows(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob)
    sent = await env.cmd(env.alice, thread, "legal")
    assert sent.ephemeral and sent.content.startswith("Alice may: bid, lay tile, pass")
    assert "hex: E12, F13" in sent.content
    sent = await env.cmd(env.bob, thread, "legal")
    assert "nothing to do" in sent.content
