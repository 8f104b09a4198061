"""The game tells its story, end to end through discord.py and the fake Discord (real engine,
renderer and SQLite): each move's reply says what followed from it, names people know in
replies, autocomplete and typed input, /history under round headers, /catchup, /help, a
fixed-price bid without a price; and the same in the terminal mode."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.local import LocalSession
from bot.service import RealEngine, RealRenderer, Service
from bot.store import Store
from tests.bot.conftest import DRAFT, FIXTURES, STOCK_ROUND, Env, needs_shared, play
from tests.bot.replay import effective_log, import_cut, replay_as_commands


async def test_replies_say_what_followed(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    # a fixed-price draft: the bid needs no price, and the company is named as people know it
    sent = await env.cmd(env.cy, thread, "bid", company="m&o")
    assert not sent.ephemeral and sent.content.startswith(
        "**Cy** bids $70 on Mobile & Ohio Railway (M&O)"), sent.content
    replies = await play(env, thread, DRAFT[1:])
    last = replies[-1].content
    assert "Birmingham Southern Railroad (BS) is removed from the game (nobody bought it)." in last
    assert "Meridian and Memphis Railway (M&M) is removed from the game" in last
    assert "• — Stock Round 1 —" in last
    replies = await play(env, thread, STOCK_ROUND)
    par, buy = replies[0].content, replies[2].content
    assert "**Alice** pars GMO at $70 and buys the president's 20% of GMO for $140" in par
    assert "**Cy** buys 10% of GMO for $70 from the IPO" in buy
    assert "• GMO floats and receives $700." in replies[6].content
    end = replies[-1].content
    assert "• — Operating Round 1 (of 10) —" in end
    # each private's income as the title's data has it (AGS $15, MC $5, M&O $5)
    assert "• Private income: Alice $15 (AGS), Bob $5 (MC), Cy $5 (M&O)." in end, end
    # names typed: the hex by its place, any case; the tile by its name
    sent = await env.cmd(env.alice, thread, "lay", hex="mobile", tile="57", rotation="1")
    assert not sent.ephemeral and "**Alice** (GMO) lays tile 57 on Mobile (H6) (rotation 1)" in (
        sent.content), sent.content


async def test_history_under_round_headers_and_catchup(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND)
    sent = await env.cmd(env.cy, thread, "history", count=20)
    text = sent.content
    assert sent.ephemeral
    assert text.index("__Stock Round 1__") < text.index("pars GMO at $70") < text.index(
        "↳ GMO floats and receives $700.") < text.index("__Operating Round 1 (of 10)__")
    assert "Private income:" in text.split("__Operating Round 1 (of 10)__", 1)[1]
    # Bob's last move was his pass: since then Cy and Alice passed and the round changed
    sent = await env.cmd(env.bob, thread, "catchup")
    assert sent.ephemeral and sent.content.startswith("Since your last move:"), sent.content
    after = sent.content.split("\n", 1)[1]
    assert "**Cy** passes" in after and "**Alice** passes" in after
    assert "**Bob**" not in after
    assert "__Operating Round 1 (of 10)__" in after
    assert "Now: Operating Round 1 (of 10), waiting for Alice." in after
    assert [n for n, _ in sent.files] == ["card.png"]
    # Alice acted last: nothing since
    sent = await env.cmd(env.alice, thread, "catchup")
    assert sent.content.startswith("Nothing has happened since your last move.")


async def test_autocomplete_shows_names(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    choices = await env.fake.autocomplete(env.cy, thread, "bid", "company")
    assert {"name": "Mobile & Ohio Railway (M&O) for $70", "value": "M&O"} in choices
    await play(env, thread, DRAFT + STOCK_ROUND[:1])
    choices = await env.fake.autocomplete(env.bob, thread, "buy", "share", corporation="GMO")
    assert choices and all(c["name"].startswith("10% of GMO for $70 from the IPO")
                           for c in choices), choices
    await play(env, thread, STOCK_ROUND[1:])
    choices = await env.fake.autocomplete(env.alice, thread, "lay", "hex")
    assert {"name": "Mobile (H6)", "value": "H6"} in choices
    choices = await env.fake.autocomplete(env.alice, thread, "lay", "hex", typed="mob")
    assert [c["value"] for c in choices] == ["H6"]


async def test_help_in_discord(env: Env) -> None:
    sent = await env.cmd(env.alice, env.fake.main_channel, "help")
    assert sent.ephemeral and "__Operating round__" in sent.content
    assert "/token — Place a station token" in sent.content
    assert "/catchup — What happened since your last move" in sent.content
    sent = await env.cmd(env.alice, env.fake.main_channel, "help", command="token")
    assert "Use: `/token city [slot] [company]`" in sent.content
    assert "• city (required)" in sent.content and "Meridian or E5" in sent.content
    assert "`/token city:Meridian`" in sent.content
    sent = await env.cmd(env.alice, env.fake.main_channel, "help", command="tokn")
    assert "There is no command /tokn. Did you mean /token?" in sent.content
    choices = await env.fake.autocomplete(env.alice, env.fake.main_channel, "help", "command",
                                          typed="cat")
    assert [c["value"] for c in choices] == ["catchup"]


@needs_shared
async def test_recorded_game_events_and_a_token_by_name(env: Env) -> None:
    data = json.loads((FIXTURES / "18MS" / "14375.json").read_text())
    log = effective_log(data)
    upto = next(i for i, a in enumerate(log) if a["type"] == "place_token" and a["city"] == "I1-0-0")
    sent, _images, users = await replay_as_commands(env, data, log[:upto])
    assert sent is not None
    replies = {s.interaction_id: s for s in env.fake.sent if s.kind == "callback"}
    said = "\n".join(s.content for s in replies.values())
    # the site's log: "IC does not run", "IC's share price moves left from $90 to $80"
    assert "IC's share price drops from $90 to $80 (it has no train to run)." in said
    # "-- Phase 3 (... Available Tiles: Yellow, Green) --", "-- Operating Round 2 (of 10) --",
    # "IC pays out $90 = $9.0 per share ($54 to Player 2, $9 to Player 1)"
    assert "Phase 3 begins: train limit 3, tiles yellow, green." in said
    assert "— Operating Round 2 (of 10) —" in said
    assert "**P4861** (IC) pays out $90 ($9 per share): P4861 $54, P680 $9\n" in said
    # Fr's token in New Orleans (I1): by the place's name, then after an undo by the hex
    fr = users["686"]
    thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    choices = await env.fake.autocomplete(fr, thread, "token", "city")
    assert any(c["name"].startswith("New Orleans (I1)") for c in choices), choices
    sent = await env.cmd(fr, thread, "token", city="new orleans")
    assert not sent.ephemeral and "**P686** (Fr) places a token in New Orleans (I1)" in (
        sent.content), sent.content
    sent = await env.cmd(fr, thread, "undo")
    assert not sent.ephemeral, sent.content
    sent = await env.cmd(fr, thread, "token", city="i1")
    assert not sent.ephemeral and "places a token in New Orleans (I1)" in sent.content


async def test_terminal_tells_the_story(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "local.sqlite3")
    service = Service(store, engine=RealEngine(), renderer=RealRenderer(), render_images=False)
    s = LocalSession(service, tmp_path / "img")
    try:
        out = await s.handle("help")
        assert "Operating round" in out and "token — Place a station token" in out
        assert "name=value" in out  # how the terminal reads arguments
        out = await s.handle("help token")
        assert "Use: `/token city [slot] [company]`" in out and "`token city=Meridian`" in out
        await s.handle("alice: create 18MS")
        await s.handle("bob: join")
        await s.handle("cy: join")
        await s.handle("alice: start alice bob cy")
        out = await s.handle("cy: bid m&o")
        assert out.startswith("cy bids $70 on Mobile & Ohio Railway (M&O)"), out
        await s.handle("bob: bid MC 60")
        out = await s.handle("alice: bid ags")
        assert "• — Stock Round 1 —" in out
        assert "is removed from the game (nobody bought it)." in out
        out = await s.handle("alice: history")
        assert "__Private Company Draft__" in out and "__Stock Round 1__" in out
        out = await s.handle("cy: catchup")
        assert out.startswith("(only you) Since your last move:")
        assert "bob bids $60 on Mississippi Central Railway (MC)" in out
        assert "Now: Stock Round 1, waiting for alice." in out
    finally:
        service.close()
        await store.close()


@needs_shared
async def test_run_routes_typed_as_city_names(env: Env) -> None:
    data = json.loads((FIXTURES / "18MS" / "14375.json").read_text())
    log = effective_log(data)
    first_run = next(i for i, a in enumerate(log) if a["type"] == "run_routes")
    sent, _images, users = await replay_as_commands(env, data, log[:first_run])
    assert sent is not None
    ic = users["4861"]  # IC's president ("Player 2")
    thread = max(c for c, d in env.fake.channels.items() if d["type"] == 11)
    sent = await env.cmd(ic, thread, "run", routes="Memphis-Mobile")
    assert sent.ephemeral and "No legal route of 2+-0 stops at Memphis, Mobile" in sent.content
    # the site's log: "IC runs a 2+ train for $90: B12-B2-A1"
    sent = await env.cmd(ic, thread, "run", routes="chattanooga-Grenada-MEMPHIS")
    assert not sent.ephemeral, sent.content
    assert "**P4861** (IC) runs a 2+ train Memphis-Grenada-Chattanooga for $90" in sent.content
    assert "routes.png" in [n for n, _ in sent.files]  # the run drawn on the map


def _cross_sale_position() -> tuple[dict[str, Any], str, tuple[Any, ...], str]:
    """A random 18MS game cut where the operating corporation may buy a train from a
    corporation another player presides: (the export, the buyer's player id, the offer,
    the seller's president)."""
    from engine import dump_action
    from engine.game import Game
    from engine.io.export18xx import export_game
    from engine.randomplay import random_game

    for seed in range(1, 6):
        full = random_game("18MS", seed=seed, players=3, undo=False, max_actions=3000)
        game = Game("18MS", full.players, [])
        game.raw_player_ids = dict(full.raw_player_ids)
        for act in full.log:
            lg = game.legal()
            buyer = game.title.controller(game, lg.entity, lg.entity_type)
            for offer in lg.trains:
                seller_corp = game.state.corporations.get(offer[4])
                if seller_corp is None:
                    continue
                president = game.title.controller(game, seller_corp.id, seller_corp.kind)
                if president is not None and president != buyer:
                    return export_game(game), str(buyer), offer, str(president)
            game.apply(dump_action(act))
    raise AssertionError("no random game offers a train between two players' corporations")


async def test_a_train_from_another_players_corporation_asks_its_president(env: Env) -> None:
    data, buyer, offer, seller = _cross_sale_position()
    ids = [str(p["id"]) for p in data["players"]]
    users = dict(zip(ids, (env.alice, env.bob, env.cy), strict=True))
    thread = await import_cut(env, env.alice, data, users, "cut.json")
    moves = len(await env.service.store.actions(1))
    tid, _face, low, _high, corp = offer
    sent = await env.cmd(users[buyer], thread, "train", train=tid, price=str(low))
    seller_user = users[seller]
    assert not sent.ephemeral and sent.content.startswith(
        f"<@{seller_user.id}>, **{users[buyer].name}** wants to buy "), sent.content
    assert f"from {corp} for " in sent.content and "do you agree?" in sent.content
    assert [int(u) for u in sent.mentions["users"]] == [seller_user.id]
    assert len(await env.service.store.actions(1)) == moves  # nothing bought yet
    buttons = [c["custom_id"] for row in sent.payload["components"] for c in row["components"]]
    yes = next(b for b in buttons if b.startswith("sale:yes:"))
    # the request is stored: a restart of the bot before the answer loses nothing
    await env.restart()
    # only the seller's president may answer
    answer = await env.fake.click(users[buyer], sent, yes)
    assert answer.ephemeral and "Only the selling corporation's president" in answer.content
    answer = await env.fake.click(seller_user, sent, yes)
    await env.settle()
    assert not answer.ephemeral and answer.content.startswith(
        f"**{seller_user.name}** agrees to sell.\n**{users[buyer].name}** "), answer.content
    assert f"buys a {tid.rsplit('-', 1)[0]} train for ${low} from {corp}" in answer.content
    assert (await env.log_types())[-1] == "buy_train"
    # answered: the request is gone
    again = await env.fake.click(seller_user, sent, yes)
    assert again.ephemeral and "no longer exists" in again.content


async def test_lay_without_a_rotation_shows_the_rotations_that_fit(env: Env) -> None:
    import io

    from PIL import Image

    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND)
    moves = len(await env.service.store.actions(1))
    live = await env.service._live(1)
    fits = dict(live.game.legal().tiles)["H6"]
    copy, offered = fits[0]
    # the rotations shown: one of each group laying the same track (all stay legal)
    from engine.core.tiles import distinct_rotations

    rotations = distinct_rotations(live.game.title.data.tiles[copy.rsplit("-", 1)[0]].geometry,
                                   list(offered))
    assert len(rotations) > 1, fits
    sent = await env.cmd(env.alice, thread, "lay", hex="Mobile", tile=copy.rsplit("-", 1)[0])
    assert sent.ephemeral and sent.content.startswith(
        f"Tile {copy.rsplit('-', 1)[0]} fits on H6 in rotations "
        f"{', '.join(map(str, rotations))}: give one."), sent.content
    assert len(await env.service.store.actions(1)) == moves  # nothing laid
    (name, png), = sent.files
    assert name == "rotations.png"
    img = Image.open(io.BytesIO(png)).convert("RGB")
    from render.rotations import PANEL

    # one numbered close-up per rotation, side by side; the number's badge is dark
    assert img.width >= len(rotations) * PANEL
    for i in range(len(rotations)):
        assert img.getpixel((8 + i * (img.width // len(rotations)) + 12, 20)) == (20, 20, 20)
    sent = await env.cmd(env.alice, thread, "lay", hex="h6", tile=copy.rsplit("-", 1)[0],
                         rotation=str(rotations[-1]))
    assert not sent.ephemeral and f"(rotation {rotations[-1]})" in sent.content


async def test_history_kept_across_moves_equals_a_fresh_telling(env: Env) -> None:
    from bot import story

    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND)
    sent = await env.cmd(env.alice, thread, "lay", hex="H6", tile="57", rotation="1")
    assert not sent.ephemeral, sent.content
    await env.cmd(env.alice, thread, "undo")
    await env.cmd(env.cy, thread, "history", count=30)  # told once and kept
    key = next(k for k in reversed(story._stories) if k[0] == 1)
    await env.cmd(env.alice, thread, "lay", hex="H6", tile="57", rotation="4")
    await env.cmd(env.alice, thread, "pass")
    # the kept story grew by the two moves (no replay)
    assert (key[0], key[1] + 2, key[2]) in story._stories and key not in story._stories
    kept = (await env.cmd(env.cy, thread, "history", count=30)).content
    assert "lays tile 57 on Mobile (H6) (rotation 4)" in kept
    assert "(rotation 1)" not in kept
    story._stories.clear()
    assert (await env.cmd(env.cy, thread, "history", count=30)).content == kept
