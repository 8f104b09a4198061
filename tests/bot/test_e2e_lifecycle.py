"""End to end through discord.py and the real engine: create, join, start."""

from __future__ import annotations

import aiohttp

from tests.bot.conftest import Env


async def test_create_join_start(env: Env) -> None:
    fake = env.fake
    sent = await env.cmd(env.alice, fake.main_channel, "create", title="18MS")
    assert "Created 18MS game #1" in sent.content and not sent.ephemeral
    assert any(p[0] == "POST" and p[1].endswith("/threads") for p in fake.calls)
    thread = max(c for c, d in fake.channels.items() if d["type"] == 11)
    welcome = [m for m in fake.sent if m.kind == "channel" and m.channel_id == thread]
    assert welcome and "/join" in welcome[0].content and welcome[0].mentions["parse"] == []
    sent = await env.cmd(env.bob, thread, "join")
    assert "Bob" in sent.content
    sent = await env.cmd(env.bob, thread, "join")
    assert sent.ephemeral and "already" in sent.content
    sent = await env.cmd(env.bob, thread, "start")
    assert sent.ephemeral and "creator" in sent.content
    sent = await env.cmd(env.cy, thread, "join")
    assert "Cy" in sent.content
    seating = f"<@{env.bob.id}> <@{env.cy.id}> <@{env.alice.id}>"
    sent = await env.cmd(env.alice, thread, "start", seating=seating)
    assert "starts" in sent.content and "1. Bob, 2. Cy, 3. Alice" in sent.content
    # 18MS: the private draft starts with the last seat
    assert f"<@{env.alice.id}> to act" in sent.content
    assert [int(u) for u in sent.mentions["users"]] == [env.alice.id]
    assert sent.mentions["parse"] == []
    assert [n for n, _ in sent.files] == ["status.png", "card.png"]
    assert sent.files[0][1].startswith(b"\x89PNG\r\n\x1a\n")
    record = await env.service.store.game(1)
    assert record is not None and record.status == "active"
    assert [p.name for p in record.seated] == ["Bob", "Cy", "Alice"]
    live = await env.service._live(1)
    assert live.game.legal().round == "Private Company Draft"
    sent = await env.cmd(env.dee, thread, "status")  # anyone may look: the card, then the sheet
    assert [n for n, _ in sent.files] == ["card.png", "status.png"]
    shown = [e["image"]["url"] for e in sent.payload["embeds"]]
    assert shown == ["attachment://card.png", "attachment://status.png"]
    sent = await env.cmd(env.dee, thread, "join")
    assert sent.ephemeral and "already started" in sent.content


async def test_the_bot_keeps_idle_connections_to_discord_as_configured(env: Env) -> None:
    """A burst of replies after a quiet spell reuses the last burst's connections (each new
    one is a TLS handshake on Discord): discord.py's HTTP client runs on a connector keeping
    idle connections `http_keepalive` seconds, with no limit on their number."""
    assert env.bot is not None
    connector = env.bot.http.connector
    assert isinstance(connector, aiohttp.TCPConnector) and connector.limit == 0
    assert connector._keepalive_timeout == env.bot.config.http_keepalive == 120.0
    sent = await env.cmd(env.alice, env.fake.main_channel, "games")
    assert sent.content  # the client works on it


async def test_the_gateway_streams_compressed_as_discord_does(env: Env) -> None:
    """discord.py asks the gateway for zlib-stream transport compression, as it does of
    Discord; the fake then sends every frame as the next piece of one zlib stream (the bytes
    a burst of interactions puts on the wire, and the bot's work to read them, as on Discord)."""
    assert env.bot is not None and env.fake._ws is not None
    assert id(env.fake._ws) in env.fake._zlib
    sent = await env.cmd(env.alice, env.fake.main_channel, "games")
    assert sent.content  # the bot read the interaction from the compressed stream
