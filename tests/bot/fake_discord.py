"""A fake Discord (REST + gateway) on 127.0.0.1 for driving the real discord.py client.

See /work/shared/docs/DISCORD-TESTING.md. Every REST call is recorded; unknown routes get a
404 and are listed in `unknown` (the fixture fails the test on them). Interactions are
dispatched over the gateway exactly as Discord would, and `invoke()` waits for the bot's
final answer (the callback, or the followup after a defer).
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import ssl
import time
import zlib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import aiohttp
import discord
import yarl
from aiohttp import web

APP_ID = 900000000000000001
BOT_ID = APP_ID
GUILD_ID = 910000000000000001
ADMIN_PERMS = str(discord.Permissions.all().value)
MEMBER_PERMS = str(discord.Permissions(send_messages=True, use_application_commands=True).value)

_ids = itertools.count()
_last_id = 0
_DISCORD_EPOCH_MS = 1_420_070_400_000


def snowflake() -> int:
    """A new id that, as Discord's, carries its creation time (milliseconds since Discord's
    epoch, shifted by 22 bits): the bot reads an interaction's age from it."""
    global _last_id
    ms = int(time.time() * 1000) - _DISCORD_EPOCH_MS
    _last_id = max(_last_id + 1, (ms << 22) | (next(_ids) & 0x3FFFFF))
    return _last_id


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _json(data: Any, status: int = 200) -> web.Response:
    # exactly application/json: discord.py parses only that (no "; charset=")
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


@dataclass
class User:
    id: int
    name: str
    admin: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.id == BOT_ID,
        }

    def member(self) -> dict[str, Any]:
        return {
            "user": self.payload(),
            "roles": [],
            "joined_at": _now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "pending": False,
            "permissions": ADMIN_PERMS if self.admin else MEMBER_PERMS,
        }


@dataclass
class Sent:
    """One message the bot sent (callback, followup or channel message)."""

    kind: str  # "callback" | "followup" | "channel" | "edit"
    interaction_id: int | None
    channel_id: int | None
    content: str
    ephemeral: bool
    files: list[tuple[str, bytes]]
    payload: dict[str, Any]
    callback_type: int | None = None
    at: float = field(default_factory=time.perf_counter)  # when the fake received it

    @property
    def mentions(self) -> dict[str, Any]:
        return self.payload.get("allowed_mentions") or {}


@dataclass
class Pending:
    done: asyncio.Event = field(default_factory=asyncio.Event)
    replies: list[Sent] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    dispatched: float = 0.0  # when the interaction was sent to the bot (perf_counter)
    written: float = 0.0  # when its frame was handed to the socket (after any flow control)


class FakeDiscord:
    zlib_stream = True  # the gateway compressed when the client asks, as Discord's (benches)
    rest_delay = 0.0  # seconds each REST answer is held after it is taken (benches: latency)

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.unknown: list[tuple[str, str]] = []
        self.sent: list[Sent] = []
        self.commands: dict[str, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}
        self.attachments: dict[int, bytes] = {}
        self.dms: dict[int, int] = {}  # user id -> DM channel id
        self.pending: dict[int, Pending] = {}
        self._tokens: dict[str, int] = {}
        self._ws: web.WebSocketResponse | None = None
        self._zlib: dict[int, Any] = {}  # gateway connection (id) -> its zlib stream
        self._tls = False  # listening over TLS (start)
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.bot_user = User(BOT_ID, "Rail Moderator")
        self.main_channel = self.add_channel("games")
        self.identified = asyncio.Event()
        self.identifies: list[list[int]] = []  # the shard [id, count] of each IDENTIFY

    # -- setup --------------------------------------------------------------------------------

    def add_channel(self, name: str, *, parent: int | None = None) -> int:
        cid = snowflake()
        data: dict[str, Any] = {
            "id": str(cid),
            "type": 0,
            "guild_id": str(GUILD_ID),
            "name": name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        if parent is not None:
            data.update(
                {
                    "type": 11,
                    "parent_id": str(parent),
                    "owner_id": str(BOT_ID),
                    "message_count": 0,
                    "member_count": 1,
                    "thread_metadata": {
                        "archived": False,
                        "auto_archive_duration": 10080,
                        "archive_timestamp": _now(),
                        "locked": False,
                    },
                }
            )
        self.channels[cid] = data
        return cid

    async def start(self, tls: ssl.SSLContext | None = None) -> None:
        """Listen on a free port of 127.0.0.1; with `tls`, over TLS (https and wss), as
        Discord does (bench/load_bench.py --tls)."""
        self._tls = tls is not None
        app = web.Application(client_max_size=50 * 1024 * 1024)
        app.router.add_get("/gw", self._gateway)
        app.router.add_get("/gw/", self._gateway)
        app.router.add_get("/cdn/{id}", self._cdn)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        # a burst of 200 replies opens up to 200 connections at once: a short accept queue
        # (aiohttp's 128) drops the rest's SYNs, which TCP sends again only after a second
        site = web.TCPSite(self._runner, "127.0.0.1", 0, ssl_context=tls, backlog=1024)
        await site.start()
        server = site._server
        assert server is not None
        sockets: Any = getattr(server, "sockets", None)
        self.port = int(sockets[0].getsockname()[1])

    def patch(self) -> tuple[str, yarl.URL]:
        """Point discord.py at this fake; returns the old values for restore()."""
        return self.point_at(self.port, self._tls)

    @staticmethod
    def point_at(port: int, tls: bool = False) -> tuple[str, yarl.URL]:
        """Point this process's discord.py at a fake Discord listening on `port` (which may
        run in another process: bench/load_bench.py); returns the old values for restore()."""
        old = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        s = "s" if tls else ""
        discord.http.Route.BASE = f"http{s}://127.0.0.1:{port}/api/v10"
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws{s}://127.0.0.1:{port}/gw")
        return old

    @property
    def _base(self) -> str:
        """This fake's address as discord.py is pointed at it (http or https)."""
        return f"http{'s' if self._tls else ''}://127.0.0.1:{self.port}"

    @property
    def _gateway_url(self) -> str:
        return f"ws{'s' if self._tls else ''}://127.0.0.1:{self.port}/gw"

    @staticmethod
    def restore(old: tuple[str, yarl.URL]) -> None:
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old

    async def stop(self) -> None:
        if self._ws is not None and not self._ws.closed:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- gateway ------------------------------------------------------------------------------

    def _guild(self) -> dict[str, Any]:
        return {
            "id": str(GUILD_ID),
            "name": "18xx club",
            "icon": None,
            "owner_id": "1",
            "unavailable": False,
            "member_count": 10,
            "large": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [
                {
                    "id": str(GUILD_ID),
                    "name": "@everyone",
                    "permissions": MEMBER_PERMS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [c for c in self.channels.values() if c["type"] == 0],
            "threads": [],
            "members": [self.bot_user.member()],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "mfa_level": 0,
            "verification_level": 0,
            "explicit_content_filter": 0,
            "default_message_notifications": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "system_channel_flags": 0,
            "afk_timeout": 300,
            "joined_at": _now(),
        }

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        if self.zlib_stream and request.query.get("compress") == "zlib-stream":
            # as Discord: every frame the gateway sends is the next piece of one zlib stream,
            # each ending in a sync flush (discord.py asks for it in the gateway's URL)
            self._zlib[id(ws)] = zlib.compressobj()
        await self._send_raw(ws, {"op": 10, "d": {"heartbeat_interval": 41250}})
        try:
            await self._serve_gateway(ws)
        finally:
            self._zlib.pop(id(ws), None)
        return ws

    async def _send_raw(self, ws: web.WebSocketResponse, message: dict[str, Any]) -> None:
        text = json.dumps(message)
        stream = self._zlib.get(id(ws))
        if stream is None:
            await ws.send_str(text)
        else:
            await ws.send_bytes(stream.compress(text.encode()) + stream.flush(zlib.Z_SYNC_FLUSH))

    async def _serve_gateway(self, ws: web.WebSocketResponse) -> None:
        async for msg in ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await self._send_raw(ws, {"op": 11})
            elif op == 2:
                # a sharded client identifies once per shard: the guild (and its
                # interactions) belongs to the shard (guild_id >> 22) % count, as on Discord
                shard = list(data.get("d", {}).get("shard") or [0, 1])
                self.identifies.append(shard)
                owner = shard[0] == (GUILD_ID >> 22) % max(1, int(shard[1]))
                if owner:
                    self._ws = ws
                guilds = [{"id": str(GUILD_ID), "unavailable": True}] if owner else []
                await self._send_on(ws, "READY", {
                    "v": 10,
                    "user": self.bot_user.payload(),
                    "private_channels": [],
                    "guilds": guilds,
                    "session_id": f"fake-session-{shard[0]}",
                    "resume_gateway_url": self._gateway_url,
                    "application": {"id": str(APP_ID), "flags": 0},
                    "shard": shard,
                })
                if owner:
                    await self._send_dispatch("GUILD_CREATE", self._guild())
                    self.identified.set()

    async def _send_dispatch(self, event: str, data: dict[str, Any]) -> None:
        assert self._ws is not None, "the bot is not connected"
        await self._send_on(self._ws, event, data)

    async def _send_on(self, ws: web.WebSocketResponse, event: str, data: dict[str, Any]) -> None:
        self._seq += 1
        await self._send_raw(ws, {"op": 0, "t": event, "s": self._seq, "d": data})

    # -- interactions -------------------------------------------------------------------------

    def _interaction(
        self,
        kind: int,
        user: User,
        channel_id: int,
        data: dict[str, Any],
        *,
        interaction_id: int | None = None,
        message: dict[str, Any] | None = None,
    ) -> tuple[int, dict[str, Any]]:
        iid = interaction_id or snowflake()
        token = f"tok{iid}"
        self._tokens[token] = iid
        payload: dict[str, Any] = {
            "id": str(iid),
            "application_id": str(APP_ID),
            "type": kind,
            "data": data,
            "guild_id": str(GUILD_ID),
            "channel_id": str(channel_id),
            "channel": self.channels[channel_id],
            "member": user.member(),
            "token": token,
            "version": 1,
            "app_permissions": ADMIN_PERMS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(GUILD_ID)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if message is not None:
            payload["message"] = message
        return iid, payload

    @staticmethod
    def _options(options: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for name, value in options.items():
            if value is None:
                continue
            if isinstance(value, User):  # a user option (its resolved data added by invoke)
                out.append({"name": name, "type": 6, "value": str(value.id)})
            elif isinstance(value, bool):
                out.append({"name": name, "type": 5, "value": value})
            elif isinstance(value, int):
                out.append({"name": name, "type": 4, "value": value})
            else:
                out.append({"name": name, "type": 3, "value": str(value)})
        return out

    async def invoke(
        self,
        user: User,
        channel_id: int,
        name: str,
        *,
        interaction_id: int | None = None,
        attachment: tuple[str, bytes] | None = None,
        timeout: float = 10.0,
        **options: Any,
    ) -> Sent:
        """Run a slash command as `user` and return the bot's final answer."""
        assert name in self.commands, f"/{name} was not synced"
        data: dict[str, Any] = {
            "id": self.commands[name]["id"],
            "name": name,
            "type": 1,
            "options": self._options(options),
        }
        if attachment is not None:
            aid = snowflake()
            self.attachments[aid] = attachment[1]
            data["options"].append({"name": "file", "type": 11, "value": str(aid)})
            data["resolved"] = {
                "attachments": {
                    str(aid): {
                        "id": str(aid),
                        "filename": attachment[0],
                        "size": len(attachment[1]),
                        "url": f"{self._base}/cdn/{aid}",
                        "proxy_url": f"{self._base}/cdn/{aid}",
                        "content_type": "application/json",
                    }
                }
            }
        members = [v for v in options.values() if isinstance(v, User)]
        if members:
            resolved = data.setdefault("resolved", {})
            resolved["users"] = {str(m.id): m.payload() for m in members}
            resolved["members"] = {
                str(m.id): {k: v for k, v in m.member().items() if k != "user"} for m in members
            }
        iid, payload = self._interaction(2, user, channel_id, data, interaction_id=interaction_id)
        return await self._wait(iid, payload, timeout)

    async def autocomplete(
        self, user: User, channel_id: int, name: str, focused: str, typed: str = "", **options: Any
    ) -> list[dict[str, Any]]:
        opts = self._options(options)
        opts.append({"name": focused, "type": 3, "value": typed, "focused": True})
        data = {"id": self.commands[name]["id"], "name": name, "type": 1, "options": opts}
        iid, payload = self._interaction(4, user, channel_id, data)
        pending = self.pending.setdefault(iid, Pending())
        await self._send_dispatch("INTERACTION_CREATE", payload)
        await asyncio.wait_for(pending.done.wait(), 10)
        return pending.choices or []

    async def click(self, user: User, message: Sent, custom_id: str, timeout: float = 10.0) -> Sent:
        data = {"custom_id": custom_id, "component_type": 2}
        msg = self._message(message.channel_id or self.main_channel, message.payload)
        iid, payload = self._interaction(
            3, user, message.channel_id or self.main_channel, data, message=msg
        )
        return await self._wait(iid, payload, timeout)

    async def _wait(self, iid: int, payload: dict[str, Any], timeout: float) -> Sent:
        pending = self.pending.setdefault(iid, Pending())
        pending.dispatched = time.perf_counter()
        await self._send_dispatch("INTERACTION_CREATE", payload)
        pending.written = time.perf_counter()
        await asyncio.wait_for(pending.done.wait(), timeout)
        return pending.replies[-1]

    def final(self, sent: Sent) -> Sent:
        """The answer as it stands after the bot's later edits (images are edited into a
        reply once it is out)."""
        if sent.interaction_id is None:
            return sent
        replies = self.pending.get(sent.interaction_id, Pending()).replies
        edits = [r for r in replies[replies.index(sent) + 1:] if r.kind == "edit" and r.files]
        if not edits:
            return sent
        shown = {k: v for k, v in edits[-1].payload.items() if k in ("embeds", "attachments")}
        return dataclasses.replace(sent, files=edits[-1].files, payload={**sent.payload, **shown})

    async def redeliver(
        self, user: User, channel_id: int, name: str, interaction_id: int, **options: Any
    ) -> Sent:
        """Deliver the same interaction id again (a retry) and return the new answer."""
        data = {
            "id": self.commands[name]["id"],
            "name": name,
            "type": 1,
            "options": self._options(options),
        }
        _iid, payload = self._interaction(2, user, channel_id, data, interaction_id=interaction_id)
        pending = self.pending.setdefault(interaction_id, Pending())
        pending.done.clear()
        await self._send_dispatch("INTERACTION_CREATE", payload)
        await asyncio.wait_for(pending.done.wait(), 10)
        return pending.replies[-1]

    # -- REST ---------------------------------------------------------------------------------

    def _message(
        self, channel_id: int, payload: dict[str, Any], files: list[tuple[str, bytes]] | None = None
    ) -> dict[str, Any]:
        return {
            "id": str(snowflake()),
            "channel_id": str(channel_id),
            "guild_id": str(GUILD_ID),
            "author": self.bot_user.payload(),
            "content": payload.get("content") or "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
            "type": 0,
            "flags": int(payload.get("flags") or 0),
            "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [],
            "attachments": [
                {
                    "id": str(snowflake()),
                    "filename": n,
                    "size": len(b),
                    "url": "http://x/y",
                    "proxy_url": "http://x/y",
                }
                for n, b in (files or [])
            ],
        }

    async def _body(self, request: web.Request) -> tuple[Any, list[tuple[str, bytes]]]:
        ctype = request.headers.get("Content-Type", "")
        if ctype.startswith("multipart/"):
            payload: Any = {}
            files: list[tuple[str, bytes]] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, aiohttp.BodyPartReader)
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                else:
                    files.append((part.filename or "file", bytes(await part.read())))
            return payload, files
        if request.can_read_body:
            raw = await request.read()
            return (json.loads(raw) if raw else {}), []
        return {}, []

    async def _cdn(self, request: web.Request) -> web.Response:
        aid = int(request.match_info["id"])
        return web.Response(body=self.attachments[aid], content_type="application/octet-stream")

    async def _rest(self, request: web.Request) -> web.Response:
        response = await self._answer(request)
        if self.rest_delay:  # Discord's time to answer, the connection busy meanwhile
            await asyncio.sleep(self.rest_delay)
        return response

    async def _answer(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.calls.append((method, path))
        parts = path.strip("/").split("/")
        body, files = await self._body(request)
        if method == "GET" and path == "/users/@me":
            return _json(self.bot_user.payload())
        if method == "GET" and path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": str(APP_ID),
                    "name": "Rail Moderator",
                    "description": "",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "verify_key": "00",
                    "owner": {"id": "1", "username": "owner", "discriminator": "0", "avatar": None},
                    "flags": 0,
                    "team": None,
                    "summary": "",
                }
            )
        if method == "GET" and path == "/gateway/bot":
            return _json(
                {
                    "url": self._gateway_url,
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 1000,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        if (
            method == "PUT"
            and parts[:3] == ["applications", str(APP_ID), "commands"]
            or (
                method == "PUT"
                and len(parts) == 5
                and parts[2] == "guilds"
                and parts[4] == "commands"
            )
        ):
            out = []
            for cmd in body:
                stored = {
                    **cmd,
                    "id": str(snowflake()),
                    "application_id": str(APP_ID),
                    "version": "1",
                    "default_member_permissions": None,
                    "type": cmd.get("type", 1),
                }
                self.commands[cmd["name"]] = stored
                out.append(stored)
            return _json(out)
        if (
            method == "POST"
            and len(parts) == 4
            and parts[0] == "interactions"
            and parts[3] == "callback"
        ):
            return self._callback(int(parts[1]), body, files)
        if parts[:1] == ["webhooks"] and len(parts) >= 3:
            iid = self._tokens.get(parts[2])
            if iid is not None:
                return self._webhook(method, iid, parts[3:], body, files)
        if method == "POST" and parts == ["users", "@me", "channels"]:  # open a DM
            uid = int(body["recipient_id"])
            cid = self.dms.setdefault(uid, snowflake())
            recipient = {"id": str(uid), "username": f"user{uid}", "discriminator": "0",
                         "global_name": None, "avatar": None}
            return _json({"id": str(cid), "type": 1, "recipients": [recipient],
                          "last_message_id": None})
        if (
            method == "POST"
            and len(parts) == 3
            and parts[0] == "channels"
            and parts[2] == "threads"
        ):
            parent = int(parts[1])
            tid = self.add_channel(body.get("name", "thread"), parent=parent)
            self.channels[tid]["name"] = body.get("name", "thread")
            return _json(self.channels[tid], 201)
        if (
            method == "POST"
            and len(parts) == 3
            and parts[0] == "channels"
            and parts[2] == "messages"
        ):
            cid = int(parts[1])
            self._record(Sent("channel", None, cid, body.get("content") or "", False, files, body))
            return _json(self._message(cid, body, files))
        self.unknown.append((method, path))
        return _json({"message": f"fake Discord: unknown route {method} {path}", "code": 0}, 404)

    def _record(self, sent: Sent) -> None:
        self.sent.append(sent)
        if sent.interaction_id is not None:
            pending = self.pending.setdefault(sent.interaction_id, Pending())
            pending.replies.append(sent)
            if sent.callback_type != 5:  # a defer is not the final answer
                pending.done.set()

    def _callback(
        self, iid: int, body: dict[str, Any], files: list[tuple[str, bytes]]
    ) -> web.Response:
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        channel_id = None
        if kind == 8:  # autocomplete result
            pending = self.pending.setdefault(iid, Pending())
            pending.choices = data.get("choices", [])
            pending.done.set()
            return _json({"interaction": {"id": str(iid), "type": 4}})
        ephemeral = bool(int(data.get("flags") or 0) & 64)
        self._record(
            Sent(
                "callback", iid, channel_id, data.get("content") or "", ephemeral, files, data, kind
            )
        )
        message = self._message(self.main_channel, data, files)
        return _json(
            {
                "interaction": {
                    "id": str(iid),
                    "type": 2,
                    "response_message_id": message["id"],
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": ephemeral,
                },
                "resource": {"type": kind, "message": message},
            }
        )

    def _webhook(
        self,
        method: str,
        iid: int,
        rest: list[str],
        body: dict[str, Any],
        files: list[tuple[str, bytes]],
    ) -> web.Response:
        if method == "POST" and not rest:
            ephemeral = bool(int(body.get("flags") or 0) & 64)
            self._record(
                Sent("followup", iid, None, body.get("content") or "", ephemeral, files, body)
            )
            return _json(self._message(self.main_channel, body, files))
        if rest == ["messages", "@original"] and method == "PATCH":
            self._record(Sent("edit", iid, None, body.get("content") or "", False, files, body))
            return _json(self._message(self.main_channel, body, files))
        if rest == ["messages", "@original"] and method == "DELETE":
            return web.Response(status=204)
        if rest == ["messages", "@original"] and method == "GET":
            return _json(self._message(self.main_channel, {}))
        self.unknown.append((method, "/webhooks/.../" + "/".join(rest)))
        return _json({"message": "unknown webhook route", "code": 0}, 404)
