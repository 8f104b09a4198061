"""The games in a process of their own (bot/gameproc.py, config game_process): the real
discord.py client on the fake Discord, the game process spawned by it with a real SQLite file,
end to end: moves, refusals, autocomplete, images edited in, a game's thread created from
the game process, followers' DMs sent for it, the count of commands in flight seen there, and
a game process killed and started again with nothing lost."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import RailBot
from bot.commands import Commands, Ctx
from bot.config import Config
from bot.gameproc import (
    GameProcess,
    GameProcessGone,
    GameSide,
    Outbox,
    WireCtx,
    _read,
    game_main,
    wire_ctx,
)
from bot.service import Who
from tests.bot.conftest import DRAFT, STOCK_ROUND
from tests.bot.fake_discord import FakeDiscord, Sent, User


def _probes(service: Any, _commands: Commands) -> dict[str, Any]:
    """Calls a test may make in the game process."""

    async def in_flight() -> int:
        return int(service.quiet.in_flight)

    async def log_types(game_id: int) -> list[str]:
        return [r.action["type"] for r in await service.store.actions(game_id)]

    async def nap(seconds: float) -> None:
        await asyncio.sleep(seconds)

    return {"in_flight": in_flight, "log_types": log_types, "nap": nap}


def probed_game_main(config: Config, path: str) -> None:
    game_main(config, path, _probes)


class Split:
    """The fake Discord, the Discord client, the game process."""

    def __init__(self, tmp: Path) -> None:
        self.fake = FakeDiscord()
        self.config = Config(database=tmp / "bot.sqlite3", guild_ready_timeout=0.05,
                             game_process=True, render_processes=0)
        self.games = GameProcess(self.config, target=probed_game_main)
        self.bot: RailBot | None = None
        self.alice, self.bob, self.cy = User(1001, "Alice"), User(1002, "Bob"), User(1003, "Cy")
        self.dee = User(1004, "Dee")
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.fake.start()
        self._old = self.fake.patch()
        await self.games.start()
        self.bot = RailBot(self.config, None, rail=self.games.rail, quiet=self.games.quiet)
        await self.bot.login("fake-token")
        self._task = asyncio.create_task(self.bot.connect(reconnect=False))
        await asyncio.wait_for(self.bot.wait_until_ready(), 10)

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._task, 5)
        await self.games.close()
        await self.fake.stop()
        FakeDiscord.restore(self._old)

    async def cmd(self, user: User, channel: int, name: str, **options: Any) -> Sent:
        sent = await self.fake.invoke(user, channel, name, timeout=30, **options)
        return self.fake.final(sent)

    async def new_game(self) -> int:
        await self.cmd(self.alice, self.fake.main_channel, "create", title="18MS")
        thread = max(c for c, d in self.fake.channels.items() if d["type"] == 11)
        for p in (self.bob, self.cy):
            await self.cmd(p, thread, "join")
        seating = " ".join(f"<@{p.id}>" for p in (self.alice, self.bob, self.cy))
        sent = await self.cmd(self.alice, thread, "start", seating=seating)
        assert "starts" in sent.content, sent.content
        return thread

    async def play(self, thread: int, script: list[tuple[str, str, dict[str, Any]]]
                   ) -> list[Sent]:
        users = {"A": self.alice, "B": self.bob, "C": self.cy}
        out = []
        for who, name, options in script:
            sent = await self.cmd(users[who], thread, name, **options)
            assert not sent.ephemeral, f"{who} /{name} {options}: {sent.content}"
            out.append(sent)
        return out


@pytest.fixture
async def split(tmp_path: Path) -> AsyncIterator[Split]:
    env = Split(tmp_path)
    await env.start()
    try:
        yield env
    finally:
        await env.stop()


async def _edits(fake: FakeDiscord, iid: int, timeout: float = 30.0) -> list[Sent]:
    """The edits of an interaction's reply that carry files, once there is one."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        got = [r for r in fake.pending[iid].replies if r.kind == "edit" and r.files]
        if got:
            return got
        await asyncio.sleep(0.05)
    return []


async def test_a_game_played_through_the_game_process(split: Split) -> None:
    thread = await split.new_game()  # the thread made by the client for the game process
    assert split.fake.channels[thread]["type"] == 11
    sent = await split.play(thread, DRAFT + STOCK_ROUND)
    # the first reply names and pings who acts next (Cy passes: Alice is pinged; her own
    # pass that ends the round pings nobody); its images are edited in after it
    assert f"<@{split.alice.id}> to act" in sent[-2].content
    assert [int(u) for u in sent[-2].mentions["users"]] == [split.alice.id]
    assert sent[-1].mentions["users"] == []
    assert sent[-1].interaction_id is not None
    edits = await _edits(split.fake, sent[-1].interaction_id)
    assert edits and all(name.endswith(".png") for name, _ in edits[-1].files)
    # a refusal names the rule, privately; nothing is stored for it
    refused = await split.cmd(split.bob, thread, "lay", hex="H6", tile="57-0", rotation="1")
    assert refused.ephemeral and "turn" in refused.content.lower(), refused.content
    # autocomplete comes from the game process's legal answer
    choices = await split.fake.autocomplete(split.alice, thread, "lay", "hex")
    assert any(c["value"] == "H6" for c in choices), choices
    types = await split.games.call("log_types", 1)
    assert types.count("bid") == len(DRAFT) and types[-1] == "pass"


async def test_commands_in_flight_are_counted_in_the_game_process(split: Split) -> None:
    assert await split.games.call("in_flight") == 0
    with split.games.quiet.busy():
        assert await split.games.call("in_flight") == 1
        with split.games.quiet.busy():
            assert await split.games.call("in_flight") == 2
    assert await split.games.call("in_flight") == 0


async def test_followers_get_their_messages_through_the_client(split: Split) -> None:
    thread = await split.new_game()
    sent = await split.cmd(split.dee, thread, "follow")
    assert sent.ephemeral and "You follow game #1" in sent.content
    await split.play(thread, DRAFT[:1])
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    dms: list[str] = []
    while loop.time() < end and not dms:
        channel = split.fake.dms.get(split.dee.id)
        dms = [m.content for m in split.fake.sent if m.kind == "channel"
               and channel is not None and m.channel_id == channel]
        await asyncio.sleep(0.05)
    assert dms == [f"18MS game #1 (<#{thread}>): Bob to act — Private Company Draft."]


async def test_a_killed_game_process_is_started_again_with_nothing_lost(split: Split) -> None:
    thread = await split.new_game()
    await split.play(thread, DRAFT[:2])
    # a call in flight when the game process stops fails (a command gets an apology)...
    napping = asyncio.ensure_future(split.games.call("nap", 30.0))
    await asyncio.sleep(0.2)
    split.games.kill()
    with pytest.raises(GameProcessGone):
        await asyncio.wait_for(napping, 10)
    # ...and the client starts another, which replays the game from the store
    sent = await split.play(thread, DRAFT[2:3])
    assert "**Alice**" in sent[0].content, sent[0].content
    assert split.games.starts == 2
    assert (await split.games.call("log_types", 1)).count("bid") == 3


def test_a_context_crosses_with_its_mentions_resolved() -> None:
    known = {"<@5>": (5, "Eve"), "<@!6>": (6, "Finn")}
    ctx = Ctx(who=Who(1, "Al"), guild_id=9, channel_id=7, interaction_id="42",
              resolve_user=lambda text: known.get(text))
    wire = wire_ctx(ctx, ["<@5> then <@!6>", {"x": ["<@8>"]}, 3], thread=None)
    assert wire == WireCtx(Who(1, "Al"), 9, 7, "42", {5: "Eve", 6: "Finn"}, None)
    side = GameSide.__new__(GameSide)
    back = GameSide._ctx(side, wire)
    assert back.resolve_user("<@5>") == (5, "Eve")
    assert back.resolve_user("<@!6>") == (6, "Finn")
    assert back.resolve_user("<@8>") == (8, "")  # a mention the client's cache did not know
    assert back.resolve_user("Eve") is None and back.make_thread is None
    assert (back.who, back.guild_id, back.channel_id, back.interaction_id) == (
        Who(1, "Al"), 9, 7, "42")


async def test_messages_of_one_moment_share_a_write() -> None:
    got: list[Any] = []
    done = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, _writer: asyncio.StreamWriter) -> None:
        while len(got) < 7:
            got.append(await _read(reader))
        done.set()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    out = Outbox(writer)
    out.send(("one", 1))  # the first goes out at the loop's next turn
    await asyncio.sleep(0)
    assert out.writes == 1
    for i in range(5):  # within GAP of that write: they wait, and share one
        out.send(("many", i))
    await asyncio.sleep(0)
    assert out.writes == 1
    await asyncio.sleep(out.GAP * 2)
    assert out.writes == 2
    await asyncio.sleep(out.GAP * 2)
    out.send(("late", 0))  # GAP after the last write: at once
    await asyncio.sleep(0)
    assert out.writes == 3
    await asyncio.wait_for(done.wait(), 5)
    assert got == [("one", 1), *[("many", i) for i in range(5)], ("late", 0)]
    out.close()
    server.close()


async def test_python_m_bot_runs_the_client_and_its_game_process(tmp_path: Path) -> None:
    """bot.app.run_discord with game_process = true, as `python -m bot` runs it."""
    from bot.app import run_discord

    fake = FakeDiscord()
    await fake.start()
    old = fake.patch()
    config = Config(database=tmp_path / "bot.sqlite3", guild_ready_timeout=0.05,
                    game_process=True, render_images=False)
    task = asyncio.create_task(run_discord(config, "fake-token"))
    try:
        await asyncio.wait_for(fake.identified.wait(), 60)
        loop = asyncio.get_running_loop()
        end = loop.time() + 30
        while "create" not in fake.commands and loop.time() < end:
            await asyncio.sleep(0.05)
        alice = User(1001, "Alice")
        sent = fake.final(await fake.invoke(alice, fake.main_channel, "create", title="18MS",
                                            timeout=30))
        assert "Created 18MS game #1" in sent.content, sent.content
        assert (tmp_path / "bot.sqlite3").exists()
    finally:
        task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(task, 30)
        await fake.stop()
        FakeDiscord.restore(old)
    assert task.done()
    # the game process stopped with the client
    import multiprocessing

    assert not [p for p in multiprocessing.active_children() if p.name == "rail-games"]
