"""Fixtures: the real discord.py client (RailBot) against the fake Discord on 127.0.0.1,
with the real engine (engine.Game), the real renderer (PNG) and a real database: a SQLite
file, and (the same tests again) a fresh database on a real PostgreSQL server (tests/pg.py;
skipped, saying why, where PostgreSQL is not installed).

`play(env, thread, SCRIPT)` drives an 18MS game for Alice, Bob and Cy (seated in that order)
through the private draft and the first stock round into GMO's first operating turn, with
moves the engine's `legal_moves` offers."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.app import RailBot, make_bot
from bot.clock import FakeClock
from bot.config import Config
from bot.service import EnginePort, RealEngine, RealRenderer, Renderer, Service
from bot.store import Store
from tests.bot.fake_discord import FakeDiscord, Sent, User
from tests.pg import PgServer, why_unavailable

# ../shared next to the checkout (RAIL_SHARED overrides it)
SHARED = Path(os.environ.get("RAIL_SHARED") or Path(__file__).resolve().parents[3] / "shared")
FIXTURES = SHARED / "fixtures"
needs_shared = pytest.mark.skipif(
    not FIXTURES.is_dir(), reason=f"{FIXTURES} is absent (recorded games live in ../shared)"
)


class Env:
    """One fake Discord plus one bot process (restartable on the same database)."""

    def __init__(self, tmp: Path, engine: EnginePort, renderer: Renderer,
                 database: str | Path | None = None) -> None:
        self.fake = FakeDiscord()
        self.db = tmp / "bot.sqlite3"
        # the SQLite file above, or a postgresql:// URL
        self.database: str | Path = database if database is not None else self.db
        self.engine = engine
        self.renderer = renderer
        self.errors: list[BaseException] = []
        self.clock = FakeClock()  # the bot's time: tests move it with advance()
        self.bot: RailBot | None = None
        self.store: Store | None = None
        # Discord sharding (bot/app.py make_bot): None runs the plain client
        self.shard_count: int | None = None
        self.shard_ids: tuple[int, ...] | None = None
        self._task: asyncio.Task[None] | None = None
        self._old: Any = None
        self.alice = User(1001, "Alice")
        self.bob = User(1002, "Bob")
        self.cy = User(1003, "Cy")
        self.dee = User(1004, "Dee")
        self.admin = User(1999, "Mod", admin=True)

    async def start(self) -> None:
        await self.fake.start()
        self._old = self.fake.patch()
        await self.start_bot()

    async def start_bot(self) -> None:
        url = str(self.database) if self.database != self.db else None
        config = Config(database=self.db, database_url=url, guild_ready_timeout=0.05,
                        shard_count=self.shard_count, shard_ids=self.shard_ids)
        self.store = await Store.open(self.database)
        service = Service(self.store, engine=self.engine, renderer=self.renderer,
                          clock=self.clock)
        bot = make_bot(config, service)
        original = bot.tree.on_error

        async def on_error(interaction: discord.Interaction[Any], error: Exception) -> None:
            self.errors.append(error)
            await original(interaction, error)  # type: ignore[arg-type]

        bot.tree.on_error = on_error  # type: ignore[method-assign]

        async def on_event_error(event: str, *args: Any, **kwargs: Any) -> None:
            import sys

            err = sys.exc_info()[1]
            self.errors.append(err or RuntimeError(event))

        bot.on_error = on_event_error  # type: ignore[method-assign]
        self.fake.identified.clear()
        await bot.login("fake-token")
        self._task = asyncio.create_task(bot.connect(reconnect=False))
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        self.bot = bot

    async def stop_bot(self) -> None:
        if self.bot is not None:
            await self.settle()
            await self.bot.close()
            if self._task is not None:
                with contextlib.suppress(BaseException):
                    await asyncio.wait_for(self._task, 5)
            self.bot.service.close()
            self.bot = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def restart(self) -> None:
        await self.stop_bot()
        await self.start_bot()

    async def stop(self) -> None:
        await self.stop_bot()
        await self.fake.stop()
        FakeDiscord.restore(self._old)

    @property
    def service(self) -> Service:
        assert self.bot is not None
        return self.bot.service

    async def settle(self) -> None:
        """Wait until the bot's command and event handlers have finished."""
        for _ in range(100):
            tasks = [
                t
                for t in asyncio.all_tasks()
                if t is not asyncio.current_task()
                and not t.done()
                and (
                    t.get_name() == "CommandTree-invoker"
                    or t.get_name() == "discord.py: interaction"
                    or t.get_name() == "discord.py: on_interaction"
                )
            ]
            if not tasks:
                return
            await asyncio.wait(tasks, timeout=5)

    async def cmd(self, user: User, channel: int, name: str, **options: Any) -> Sent:
        sent = await self.fake.invoke(user, channel, name, **options)
        await self.settle()
        return self.fake.final(sent)

    async def log_types(self, game_id: int = 1) -> list[str]:
        return [r.action["type"] for r in await self.service.store.actions(game_id)]

    async def new_game(self, *players: User, title: str = "18MS") -> int:
        """Create a game by the first player, everyone joins, start in this seat order."""
        creator = players[0]
        await self.cmd(creator, self.fake.main_channel, "create", title=title)
        thread = max(c for c, d in self.fake.channels.items() if d["type"] == 11)
        for p in players[1:]:
            await self.cmd(p, thread, "join")
        seating = " ".join(f"<@{p.id}>" for p in players)
        sent = await self.cmd(creator, thread, "start", seating=seating)
        assert "starts" in sent.content, sent.content
        return thread


# -- a scripted 3-player 18MS opening (seats: Alice, Bob, Cy) ---------------------------------
# (who, command, options); "A"/"B"/"C" name Alice/Bob/Cy. The draft goes in reverse seat order.
DRAFT: list[tuple[str, str, dict[str, Any]]] = [
    ("C", "bid", {"company": "M&O", "price": "70"}),
    ("B", "bid", {"company": "MC", "price": "60"}),
    ("A", "bid", {"company": "AGS", "price": "30"}),
]
STOCK_ROUND: list[tuple[str, str, dict[str, Any]]] = [
    ("A", "par", {"corporation": "GMO", "price": "70"}),
    ("B", "par", {"corporation": "IC", "price": "70,1,2"}),
    ("C", "buy", {"corporation": "GMO"}),
    ("A", "buy", {"corporation": "GMO", "share": "GMO_2"}),
    ("B", "buy", {"corporation": "IC"}),
    ("C", "buy", {"corporation": "GMO"}),
    ("A", "buy", {"corporation": "GMO"}),  # GMO floats (60%)
    ("B", "pass", {}),
    ("C", "pass", {}),
    ("A", "pass", {}),
]
# then Operating Round 1: GMO (president Alice) may lay on H6: 57-0 rotations 1, 4; ...


def user_of(env: Env, who: str) -> User:
    return {"A": env.alice, "B": env.bob, "C": env.cy, "D": env.dee}[who]


async def play(env: Env, thread: int, script: list[tuple[str, str, dict[str, Any]]]) -> list[Sent]:
    """Play scripted moves; every one must be accepted (a public reply)."""
    out = []
    for who, name, options in script:
        sent = await env.cmd(user_of(env, who), thread, name, **options)
        assert not sent.ephemeral, f"{who} /{name} {options}: {sent.content}"
        out.append(sent)
    return out


def engine_game(*user_ids: int) -> Any:
    """An engine game seated like the bot's (engine ids are Discord user ids)."""
    from engine.game import Game

    return Game("18MS", players=[(str(u), f"P{u}") for u in user_ids], options=[])


@pytest.fixture
def engine_port() -> EnginePort:
    return RealEngine()


@pytest.fixture
def renderer() -> Renderer:
    return RealRenderer()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL server per test process (each xdist worker starts its own)."""
    why = why_unavailable()
    if why is not None:
        pytest.skip(f"PostgreSQL tests skipped: {why}")
    server = PgServer().start()
    try:
        yield server
    finally:
        server.stop()


# Modules whose PostgreSQL runs stay in the default run: those exercising the store beyond a
# move's append and read (undo and redo, import and export, restarts, clocks and reminders,
# shards, workers, copies). The other end-to-end modules run on PostgreSQL with `-m slow`.
PG_DEFAULT_MODULES = frozenset({
    "test_e2e_undo_io", "test_e2e_reminders", "test_e2e_clocks", "test_e2e_lifecycle",
    "test_store_and_main", "test_shared_db", "test_sharding", "test_workers", "test_store_copy",
    "test_batch", "test_move_transaction",
})


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A whole game played as slash commands (`@pytest.mark.whole_game`) runs on SQLite in the
    default run and on PostgreSQL only with `-m slow`; so do the end-to-end tests of modules
    not in PG_DEFAULT_MODULES: the store's own tests and the store-heavy end-to-end modules
    cover PostgreSQL in the default run, and the rest doubled its time."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None or callspec.params.get("database") != "postgres":
            continue
        module = item.module.__name__.rsplit(".", 1)[-1] if item.module else ""
        if item.get_closest_marker("whole_game") or module not in PG_DEFAULT_MODULES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str | Path]:
    """Where the store lives: a new SQLite file, or a new database on the PostgreSQL server."""
    if request.param == "sqlite":
        yield tmp_path / "bot.sqlite3"
        return
    server: PgServer = request.getfixturevalue("pg_server")
    url = server.create_database()
    try:
        yield url
    finally:
        server.drop_database(url.rsplit("/", 1)[1])


@pytest.fixture
async def env(tmp_path: Path, engine_port: EnginePort, renderer: Renderer,
              database: str | Path) -> AsyncIterator[Env]:
    e = Env(tmp_path, engine_port, renderer, database)
    await e.start()
    try:
        yield e
    finally:
        await e.stop()
    assert not e.fake.unknown, f"the bot called unknown Discord routes: {e.fake.unknown}"
    assert not e.errors, f"command handlers raised: {e.errors!r}"


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """A new database on the PostgreSQL server (the tests of processes sharing it)."""
    url = pg_server.create_database()
    try:
        yield url
    finally:
        pg_server.drop_database(url.rsplit("/", 1)[1])


@pytest.fixture
def env_factory(engine_port: EnginePort, renderer: Renderer) -> Any:  # (tmp, database) -> Env
    """Env(tmp, database) with the real engine and renderer, for tests that set it up first."""
    def make(tmp: Path, database: str | Path) -> Env:
        return Env(tmp, engine_port, renderer, database)

    return make
