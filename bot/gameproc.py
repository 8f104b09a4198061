"""The game process: the games' side of the bot in a process of its own.

With `game_process = true` (config.toml), `python -m bot` runs two processes: the Discord
client (gateway, slash commands, replies and their edits) and, started by it, the game
process: the command layer (bot.commands over the service: the store, the replayed games,
the engine threads, the render workers, the next move's groundwork, the notices loop, the
e-mail transport). Each has its own interpreter and so its own core: under a burst of moves
the client's Discord work and the games' work no longer wait for one another's turn on one
GIL (bench/README.md, issue 13). The store has one owner, as with one process.

The client calls the command layer through `RemoteCommands` (the `Rail` the cogs use), over a
Unix socket, a pickled message a frame:
- client -> game: ("call", id, method, args): a `Rail` method (`_CALLS`); ("busy", +1 | -1):
  the client's commands in flight, each until its first reply is out (the game process's
  groundwork, images and collector wait for none, as in one process: bot/quiet.py);
  ("back", id, ok, value): the answer to a callback; ("ready",): the client is connected
  (the notices may start).
- game -> client: ("result", id, ok, value); ("cb", id, kind, value): create a game's thread
  ("thread": the command's key and the thread's name), send a notice ("notice": Outgoing).

A context crosses as `WireCtx`: its mentions already resolved (the client's member cache),
its thread maker a key the client answers. A reply's images stay in the game process until
the client asks for them (`finish_images`) once the reply is out. If the game process stops,
the commands it was answering get an apology (a move is answered only once stored, so a
move in flight may or may not be stored: the reply says to look), and the client starts
another, which replays the games from the store as they are asked for.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing as mp
import pickle
import re
import struct
import tempfile
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.commands import Commands, Ctx
from bot.config import Config
from bot.quiet import Quiet
from bot.replies import Attachment, BotError, PendingImages, Reply
from bot.service import Who
from bot.turns import Outgoing

log = logging.getLogger(__name__)

_HEAD = struct.Struct("!I")
_MENTION = re.compile(r"<@!?(\d+)>")
START_SECONDS = 120.0  # the game process opens the store (and migrates it) within this
KEPT_IMAGES = 1024  # replies' images kept for the client (more: the oldest are dropped)
GONE = ("The bot's game process restarted while answering this command. A move may or may "
        "not have been stored: look at the game (/status, /history) before sending it again.")


class GameProcessGone(Exception):
    """The game process stopped before answering."""


# -- frames --------------------------------------------------------------------------------


async def _read(reader: asyncio.StreamReader) -> Any:
    (size,) = _HEAD.unpack(await reader.readexactly(_HEAD.size))
    return pickle.loads(await reader.readexactly(size))


class Outbox:
    """Messages to the other process. A message goes out at once when the last write was
    `GAP` ago or more; within that, messages wait to share the next write (under a burst of
    moves, one system call for many: a write each, waking the other process, took a sixth of
    the client's time)."""

    GAP = 0.002  # seconds

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self._parts: list[bytes] = []
        self._last = 0.0
        self.writes = 0  # (tests, benches)

    def send(self, message: Any) -> None:
        data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
        if not self._parts:
            loop = asyncio.get_running_loop()
            wait = self._last + self.GAP - loop.time()
            if wait > 0:
                loop.call_later(wait, self._flush)
            else:
                loop.call_soon(self._flush)
        self._parts += (_HEAD.pack(len(data)), data)

    def _flush(self) -> None:
        if not self._parts:
            return
        parts, self._parts = self._parts, []
        self._last = asyncio.get_running_loop().time()
        if not self.writer.is_closing():
            self.writer.write(b"".join(parts))
            self.writes += 1

    def close(self) -> None:
        self._flush()
        self.writer.close()


def _portable(err: BaseException) -> BaseException:
    """An exception that crosses the socket (its own, if it pickles)."""
    try:
        pickle.loads(pickle.dumps(err))
    except Exception:
        return RuntimeError(f"{type(err).__name__}: {err}")
    return err


# -- contexts across -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WireCtx:
    """A Ctx as it crosses: `names` resolves the mentions found in the command's arguments
    (user id -> display name, as the client's resolver answered); `thread` is the key of the
    client's thread maker (None: the command cannot create one)."""

    who: Who
    guild_id: int | None
    channel_id: int
    interaction_id: str | None
    names: dict[int, str] = field(default_factory=dict)
    thread: int | None = None


def _texts(values: Iterable[Any]) -> Iterator[str]:
    for v in values:
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            yield from _texts(v.values())
        elif isinstance(v, list | tuple):
            yield from _texts(v)


def wire_ctx(ctx: Ctx, values: Iterable[Any], thread: int | None) -> WireCtx:
    """The context, its resolver asked here for every mention in `values`."""
    names: dict[int, str] = {}
    for text in _texts(values):
        for m in _MENTION.finditer(text):
            found = ctx.resolve_user(m.group(0))
            if found is not None:
                names[found[0]] = found[1]
    return WireCtx(ctx.who, ctx.guild_id, ctx.channel_id, ctx.interaction_id, names, thread)


# -- the client's side ---------------------------------------------------------------------


class LinkedQuiet(Quiet):
    """The client's commands in flight, also counted in the game process."""

    def __init__(self, tell: Callable[[int], None]) -> None:
        super().__init__()
        self._tell = tell

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        self._tell(1)
        try:
            with super().busy():
                yield
        finally:
            self._tell(-1)


class GameProcess:
    """Starts the game process (again, if it stops), calls it, answers its callbacks."""

    def __init__(self, config: Config, target: Callable[[Config, str], None] | None = None
                 ) -> None:
        """`target`: the game process's main (default `game_main`; a bench passes its own)."""
        self.config = config
        self._target = target or game_main
        self.rail = RemoteCommands(self)
        self.quiet = LinkedQuiet(self._tell_busy)
        self.starts = 0  # game processes started (tests)
        self._dir = tempfile.TemporaryDirectory(prefix="rail-game-")
        self._path = str(Path(self._dir.name) / "game.sock")
        self._server: asyncio.Server | None = None
        self._proc: Any = None
        self._writer: Outbox | None = None
        self._reader: asyncio.StreamReader | None = None
        self._connected: asyncio.Future[tuple[asyncio.StreamReader, asyncio.StreamWriter]] | None
        self._connected = None
        self._up = asyncio.Event()
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._threads: dict[int, Callable[[str], Awaitable[int]]] = {}
        self._send_notice: Callable[[Outgoing], Awaitable[None]] | None = None
        self._ready = False
        self._closing = False
        self._watch: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        """Start the game process; return once it has opened the store."""
        self._server = await asyncio.start_unix_server(self._accept, path=self._path)
        await self._spawn()
        self._watch = asyncio.create_task(self._keep_up(), name="rail: game process")

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._connected is not None and not self._connected.done():
            self._connected.set_result((reader, writer))
        else:
            writer.close()

    async def _spawn(self) -> None:
        loop = asyncio.get_running_loop()
        self._connected = loop.create_future()
        ctx = mp.get_context("spawn")
        # not a daemon: it starts the render workers of its own
        self._proc = ctx.Process(target=self._target, args=(self.config, self._path),
                                 name="rail-games", daemon=False)
        self._proc.start()
        self.starts += 1
        try:
            reader, writer = await asyncio.wait_for(self._connected, START_SECONDS)
            hello = await asyncio.wait_for(_read(reader), START_SECONDS)
        except (TimeoutError, asyncio.IncompleteReadError) as err:
            self._proc.kill()
            raise RuntimeError("the game process did not start (see its log above)") from err
        if hello != ("hello",):
            raise RuntimeError(f"the game process said {hello!r}")
        self._writer = Outbox(writer)
        if self._ready:
            self._writer.send(("ready",))
        self._reader = reader
        self._up.set()

    async def _keep_up(self) -> None:
        """Read the game process's messages; start another when it stops."""
        while not self._closing:
            try:
                assert self._reader is not None
                while True:
                    self._dispatch(await _read(self._reader))
            except (asyncio.IncompleteReadError, ConnectionError, EOFError):
                pass
            self._up.clear()
            self._writer = None
            for fut in self._waiting.values():
                if not fut.done():
                    fut.set_exception(GameProcessGone())
            self._waiting.clear()
            if self._closing:
                return
            log.error("the game process stopped (exit code %s): starting another",
                      self._proc.exitcode if self._proc is not None else None)
            await asyncio.to_thread(self._proc.join, 10)
            while not self._closing:
                try:
                    await self._spawn()
                    break
                except Exception:
                    log.exception("the game process did not start: trying again in 5 s")
                    await asyncio.sleep(5)

    def _dispatch(self, message: Any) -> None:
        kind = message[0]
        if kind == "result":
            _, rid, ok, value = message
            fut = self._waiting.pop(rid, None)
            if fut is not None and not fut.done():
                if ok:
                    fut.set_result(value)
                else:
                    fut.set_exception(value)
        elif kind == "cb":
            _, cid, what, value = message
            task = asyncio.create_task(self._callback(cid, what, value))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _callback(self, cid: int, what: str, value: Any) -> None:
        try:
            if what == "thread":
                key, name = value
                maker = self._threads.get(key)
                if maker is None:
                    raise BotError("This command cannot create a thread.")
                out: Any = int(await maker(name))
            elif what == "notice":
                if self._send_notice is None:
                    raise RuntimeError("no notice sender")
                await self._send_notice(value)
                out = None
            else:
                raise RuntimeError(f"unknown callback {what!r}")
            answer: tuple[Any, ...] = ("back", cid, True, out)
        except Exception as err:
            answer = ("back", cid, False, _portable(err))
        if self._writer is not None:
            self._writer.send(answer)

    def _tell_busy(self, delta: int) -> None:
        if self._writer is not None:
            self._writer.send(("busy", delta))

    async def call(self, method: str, *args: Any) -> Any:
        """Run `method` of the command layer in the game process and return its answer."""
        if not self._up.is_set():
            await asyncio.wait_for(self._up.wait(), START_SECONDS)
        rid = next(self._ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        assert self._writer is not None
        self._writer.send(("call", rid, method, args))
        return await fut

    def ctx(self, ctx: Ctx, *values: Any) -> WireCtx:
        """The context to send; its thread maker kept here until `forget`."""
        key = None
        if ctx.make_thread is not None:
            key = next(self._ids)
            self._threads[key] = ctx.make_thread
        return wire_ctx(ctx, values, key)

    def forget(self, wire: WireCtx) -> None:
        if wire.thread is not None:
            self._threads.pop(wire.thread, None)

    def notices(self, send: Callable[[Outgoing], Awaitable[None]],
                ready: Callable[[], Awaitable[Any]] | None) -> None:
        self._send_notice = send

        async def when_ready() -> None:
            if ready is not None:
                await ready()
            self._ready = True
            if self._writer is not None:
                self._writer.send(("ready",))

        task = asyncio.create_task(when_ready())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop the game process (it closes the store) and wait for it."""
        self._closing = True
        if self._writer is not None:
            self._writer.close()
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(BaseException):
                await self._watch
        if self._proc is not None:
            await asyncio.to_thread(self._proc.join, 30)
            if self._proc.is_alive():
                self._proc.kill()
        if self._server is not None:
            self._server.close()
        self._dir.cleanup()

    def kill(self) -> None:
        """Stop the game process at once (tests: the client starts another)."""
        if self._proc is not None:
            self._proc.kill()

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None


class RemoteCommands:
    """The `Rail` of the client: each method runs in the game process."""

    def __init__(self, games: GameProcess) -> None:
        self._games = games

    async def _ask(self, method: str, ctx: Ctx, *args: Any) -> Any:
        wire = self._games.ctx(ctx, *args)
        try:
            return await self._games.call(method, wire, *args)
        finally:
            self._games.forget(wire)

    async def _reply(self, method: str, ctx: Ctx, *args: Any) -> Reply:
        try:
            reply: Reply = await self._ask(method, ctx, *args)
        except GameProcessGone:
            return Reply(GONE, ephemeral=True)
        return reply

    async def run(self, name: str, ctx: Ctx, **args: Any) -> Reply:
        return await self._reply("run", ctx, name, args)

    async def choices(self, ctx: Ctx, command: str, param: str, typed: str,
                      filled: dict[str, Any]) -> list[tuple[str, str]]:
        try:
            out: list[tuple[str, str]] = await self._ask("choices", ctx, command, param,
                                                         typed, filled)
        except GameProcessGone:
            return []
        return out

    async def import_file(self, ctx: Ctx, raw: bytes, players: str) -> Reply:
        return await self._reply("import_file", ctx, raw, players)

    async def answer_undo(self, ctx: Ctx, request_id: int, accept: bool) -> Reply:
        return await self._reply("answer_undo", ctx, request_id, accept)

    async def answer_vote(self, ctx: Ctx, vote_id: int, yes: bool) -> Reply:
        return await self._reply("answer_vote", ctx, vote_id, yes)

    async def confirm_run(self, ctx: Ctx, proposal_id: int) -> Reply:
        return await self._reply("confirm_run", ctx, proposal_id)

    async def answer_sale(self, ctx: Ctx, request_id: int, accept: bool) -> Reply:
        return await self._reply("answer_sale", ctx, request_id, accept)

    async def invite(self, ctx: Ctx, address: str, player: str) -> Reply:
        return await self._reply("invite", ctx, address, player)

    async def seat_names(self, channel_id: int) -> list[str]:
        try:
            names: list[str] = await self._games.call("seat_names", channel_id)
        except GameProcessGone:
            return []
        return names

    async def finish_images(self, reply: Reply) -> list[Attachment]:
        pending, reply.images = reply.images, None
        if not isinstance(pending, PendingImages):
            return []
        try:
            drawn: list[Attachment] = await self._games.call("finish_images", pending.handle)
        except GameProcessGone:
            return []
        return drawn

    def drop_images(self, reply: Reply) -> None:
        pending, reply.images = reply.images, None
        if isinstance(pending, PendingImages) and self._games._writer is not None:
            self._games._writer.send(("call", 0, "drop_images", (pending.handle,)))

    def start_notices(self, send: Callable[[Outgoing], Awaitable[None]],
                      ready: Callable[[], Awaitable[Any]] | None = None) -> None:
        self._games.notices(send, ready)

    async def stop_notices(self) -> None:
        """The game process stops its notices when it stops."""


# -- the game process ----------------------------------------------------------------------


Extra = dict[str, Callable[..., Awaitable[Any]]]


class GameSide:
    """The game process's end of the socket: runs the client's calls on the command layer
    (and `extra` calls by name: a bench's counters)."""

    def __init__(self, commands: Commands, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, extra: Extra | None = None) -> None:
        self.commands = commands
        self.extra = extra or {}
        self.quiet = commands.service.quiet
        self.ready = asyncio.Event()
        self._reader, self._out = reader, Outbox(writer)
        self._ids = itertools.count(1)
        self._asked: dict[int, asyncio.Future[Any]] = {}
        self._images: OrderedDict[int, Any] = OrderedDict()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._busy = 0  # the client's commands in flight, as counted here

    async def serve(self) -> None:
        """Until the client closes the socket."""
        try:
            while True:
                message = await _read(self._reader)
                kind = message[0]
                if kind == "call":
                    _, rid, method, args = message
                    task = asyncio.create_task(self._call(rid, method, args))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
                elif kind == "busy":
                    if message[1] > 0:
                        self._busy += 1
                        self.quiet.enter()
                    elif self._busy > 0:
                        self._busy -= 1
                        self.quiet.leave()
                elif kind == "back":
                    _, cid, ok, value = message
                    fut = self._asked.pop(cid, None)
                    if fut is not None and not fut.done():
                        if ok:
                            fut.set_result(value)
                        else:
                            fut.set_exception(value)
                elif kind == "ready":
                    self.ready.set()
        except (asyncio.IncompleteReadError, ConnectionError, EOFError):
            pass
        finally:
            while self._busy:
                self._busy -= 1
                self.quiet.leave()

    async def ask(self, what: str, value: Any) -> Any:
        """A callback: the client creates a thread or sends a notice."""
        cid = next(self._ids)
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._asked[cid] = fut
        self._out.send(("cb", cid, what, value))
        return await fut

    async def send_notice(self, msg: Outgoing) -> None:
        await self.ask("notice", msg)

    def _ctx(self, wire: WireCtx) -> Ctx:
        names = wire.names

        def resolve(text: str) -> tuple[int, str] | None:
            uid = Commands.mention_id(text)
            return None if uid is None else (uid, names.get(uid, ""))

        make_thread = None
        if wire.thread is not None:
            key = wire.thread

            async def make(name: str) -> int:
                return int(await self.ask("thread", (key, name)))

            make_thread = make
        return Ctx(who=wire.who, guild_id=wire.guild_id, channel_id=wire.channel_id,
                   interaction_id=wire.interaction_id, make_thread=make_thread,
                   resolve_user=resolve)

    def _keep_images(self, reply: Reply) -> Reply:
        """The reply to send back: its images kept here, named by a handle."""
        if reply.images is not None and not isinstance(reply.images, PendingImages):
            handle = next(self._ids)
            self._images[handle] = reply.images
            while len(self._images) > KEPT_IMAGES:
                self._images.popitem(last=False)
            reply.images = PendingImages(handle)
        return reply

    async def _call(self, rid: int, method: str, args: tuple[Any, ...]) -> None:
        try:
            value = await self._run(method, args)
            answer: tuple[Any, ...] = ("result", rid, True, value)
        except Exception as err:
            answer = ("result", rid, False, _portable(err))
        if rid:  # 0: nothing waits for the answer
            self._out.send(answer)

    async def _run(self, method: str, args: tuple[Any, ...]) -> Any:
        c = self.commands
        match method:
            case "run":
                wire, name, kwargs = args
                return self._keep_images(await c.run(name, self._ctx(wire), **kwargs))
            case "choices":
                wire, *rest = args
                return await c.choices(self._ctx(wire), *rest)
            case ("import_file" | "answer_undo" | "answer_vote" | "confirm_run"
                  | "answer_sale" | "invite"):
                wire, *rest = args
                return self._keep_images(await getattr(c, method)(self._ctx(wire), *rest))
            case "seat_names":
                return await c.seat_names(*args)
            case "finish_images":
                job = self._images.pop(args[0], None)
                return [] if job is None else await c.finish_images(Reply("", images=job))
            case "drop_images":
                self._images.pop(args[0], None)
                return None
        if method in self.extra:
            return await self.extra[method](*args)
        raise RuntimeError(f"the game process has no call {method!r}")


def game_main(config: Config, path: str,
              extra: Callable[[Any, Commands], Extra] | None = None) -> None:
    """The game process (spawned by the client's GameProcess). It stops when the client
    closes the socket (or dies): Ctrl-C in a terminal reaches the client, which closes it."""
    import signal

    from bot.app import run_loop, tune_collector

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s [games]: %(message)s")
    tune_collector()
    run_loop(_serve(config, path, extra))


async def _serve(config: Config, path: str,
                 extra: Callable[[Any, Commands], Extra] | None = None) -> None:
    """The game process's life: the service up, the client's calls answered until it closes
    the socket. `extra(service, commands)`: more calls by name (a bench's)."""
    from bot.collector import QuietCollector
    from bot.mail.transport import start_mail
    from bot.service import Service
    from bot.store import Store

    store = await Store.open(config.store_target)
    service = Service.from_config(store, config)
    commands = Commands(service)
    reader, writer = await asyncio.open_unix_connection(path)
    side = GameSide(commands, reader, writer, extra(service, commands) if extra else None)
    collector = QuietCollector(service.quiet)
    service.lag.start()
    collector.start()
    service.groundwork.start()
    service.images.start()
    commands.mail = await start_mail(config, service)
    service.start_notices(side.send_notice, side.ready.wait)
    side._out.send(("hello",))
    try:
        await side.serve()
    finally:
        await service.stop_notices()
        if commands.mail is not None:
            await commands.mail.stop()
        await collector.stop()
        await service.groundwork.stop()
        await service.lag.stop()
        service.close()
        await store.close()
        writer.close()
