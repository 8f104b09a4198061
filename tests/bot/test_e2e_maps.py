"""/map region:NAME and /map hex:HEX through discord.py, the real engine and the real renderer:
the PNG posted is the region (or the close-up) of the game's position; a name the map does not
have is refused with the list of those it has; the autocomplete offers the title's regions.
The terminal mode's `map` takes the same options."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

import render
from bot.local import LocalSession
from bot.service import RealEngine, RealRenderer, Service
from bot.store import Store
from engine.core.data import load_title_data
from engine.view import GameView
from tests.bot.conftest import DRAFT, STOCK_ROUND, Env, play


async def _view(env: Env) -> GameView:
    live = await env.service._live(1)
    return live.game.view()


async def test_map_region_posts_that_region(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    await play(env, thread, DRAFT + STOCK_ROUND)
    await env.cmd(env.alice, thread, "lay", hex="H6", tile="57-0", rotation="1")
    region = next(r for r, hexes in render.map_regions(load_title_data("18MS")).items()
                  if "H6" in hexes)
    sent = await env.cmd(env.bob, thread, "map", region=region)
    assert not sent.ephemeral and f"Region {region}" in sent.content
    (name, png), = sent.files
    assert name == f"region-{region}.png"
    assert [e["image"]["url"] for e in sent.payload["embeds"]] == [f"attachment://{name}"]
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.width == 800
    # the very image of this position's region (the laid tile included)
    view = await _view(env)
    assert png == render.render_region(view, region)
    assert png != render.render_map(view)
    # typed in lower case: the same region
    again = await env.cmd(env.bob, thread, "map", region=region.lower())
    assert again.files == sent.files


async def test_map_hex_posts_the_closeup_around_it(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    sent = await env.cmd(env.cy, thread, "map", hex="e9")
    assert not sent.ephemeral and "around E9" in sent.content
    (name, png), = sent.files
    assert name == "area-E9.png"
    assert png == render.render_map(await _view(env), focus=("E9",))
    assert Image.open(io.BytesIO(png)).width == 800
    # the whole map is still /map without options
    sent = await env.cmd(env.cy, thread, "map")
    assert [n for n, _ in sent.files] == ["map.png"]
    assert Image.open(io.BytesIO(sent.files[0][1])).width == 1600


async def test_a_bad_region_or_hex_lists_what_there_is(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    regions = list(render.map_regions(load_title_data("18MS")))
    sent = await env.cmd(env.bob, thread, "map", region="Z1-Z9")
    assert sent.ephemeral and sent.files == []
    assert "no region 'Z1-Z9'" in sent.content
    assert "Regions: " + ", ".join(regions) + "." in sent.content
    sent = await env.cmd(env.bob, thread, "map", hex="Q77")
    assert sent.ephemeral and sent.files == [] and "no hex 'Q77'" in sent.content
    data = load_title_data("18MS")
    rows = sent.content.split("Hexes: ", 1)[1].rstrip(".").split("; ")
    listed = {f"{r.split()[0]}{c}" for r in rows for c in r.split()[1:]}
    assert listed == set(data.hexes)
    sent = await env.cmd(env.bob, thread, "map", region=regions[0], hex="E9")
    assert sent.ephemeral and "not both" in sent.content
    # outside a game's thread: no map at all
    sent = await env.cmd(env.bob, env.fake.main_channel, "map", region=regions[0])
    assert sent.ephemeral and sent.files == []


async def test_autocomplete_offers_the_regions_and_hexes(env: Env) -> None:
    thread = await env.new_game(env.alice, env.bob, env.cy)
    regions = render.map_regions(load_title_data("18MS"))
    choices = await env.fake.autocomplete(env.dee, thread, "map", "region")
    assert [c["value"] for c in choices] == list(regions)
    mobile = next(r for r, hexes in regions.items() if "H6" in hexes)
    assert any("Mobile" in c["name"] for c in choices if c["value"] == mobile)
    typed = list(regions)[-1][:2]
    choices = await env.fake.autocomplete(env.dee, thread, "map", "region", typed=typed)
    assert choices and all(typed.lower() in c["name"].lower() for c in choices)
    choices = await env.fake.autocomplete(env.dee, thread, "map", "hex", typed="H6")
    assert choices[0]["value"] == "H6" and "Mobile" in choices[0]["name"]
    # no game here: nothing offered
    assert await env.fake.autocomplete(env.dee, env.fake.main_channel, "map", "region") == []


async def test_terminal_map_takes_the_same_options(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "local.sqlite3")
    service = Service(store, engine=RealEngine(), renderer=RealRenderer())
    s = LocalSession(service, tmp_path / "img")
    try:
        await s.handle("alice: create 18MS")
        await s.handle("bob: join")
        await s.handle("cy: join")
        await s.handle("alice: start alice bob cy")
        region = list(render.map_regions(load_title_data("18MS")))[0]
        before = set((tmp_path / "img").iterdir())
        for line, stem in ((f"map region={region}", f"region-{region}"),
                           (f"map region:{region}", f"region-{region}"),
                           ("map hex=H6", "area-H6"), ("map hex:H6", "area-H6"),
                           ("map H6", "area-H6")):
            out = await s.handle(f"bob: {line}")
            assert "wrote" in out and f"{stem}.png" in out, (line, out)
        written = set((tmp_path / "img").iterdir()) - before
        assert written and all(f.read_bytes().startswith(b"\x89PNG") for f in written)
        out = await s.handle("bob: map region=nowhere")
        assert "no region 'nowhere'" in out and "Regions: " in out
    finally:
        await store.close()
