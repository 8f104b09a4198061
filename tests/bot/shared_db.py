"""Bot processes sharing one database, driven through the command layer the Discord cogs call
(bot/commands.py): games of 18MS for Alice, Bob and Cy, and the scripted opening moves of
tests/bot/conftest.py. Used by tests/bot/test_shared_db.py (two services in one test) and
bench/shared_bench.py (two operating-system processes)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.commands import Commands, Ctx
from bot.replies import Reply
from bot.service import Service, Who
from bot.store import Store

ALICE = Who(1001, "Alice")
BOB = Who(1002, "Bob")
CY = Who(1003, "Cy")
SEATS = {"A": ALICE, "B": BOB, "C": CY}
GUILD = 500
_iid = itertools.count(1)


def _resolve(token: str) -> tuple[int, str] | None:
    m = re.fullmatch(r"<@!?(\d+)>", token)
    return (int(m.group(1)), token) if m else None


@dataclass
class Proc:
    """One bot process's parts: its own store (connections), service and command layer."""

    store: Store
    service: Service
    rail: Commands
    name: str

    @classmethod
    async def open(cls, database: str | Path, name: str) -> Proc:
        store = await Store.open(database)
        service = Service(store, render_images=False)
        return cls(store, service, Commands(service), name)

    async def run(self, who: Who, channel: int, command: str, *,
                  interaction_id: str | None = None, **args: Any) -> Reply:
        iid = interaction_id or f"{self.name}-{next(_iid)}"
        ctx = Ctx(who, GUILD, channel, iid, resolve_user=_resolve)
        return await self.rail.run(command, ctx, **args)

    async def new_game(self, channel: int) -> int:
        """An 18MS game in `channel` (no thread), Alice, Bob and Cy seated in that order."""
        reply = await self.run(ALICE, channel, "create", title="18MS")
        assert not reply.ephemeral, reply.text
        for who in (BOB, CY):
            reply = await self.run(who, channel, "join")
            assert not reply.ephemeral, reply.text
        reply = await self.run(ALICE, channel, "start",
                               seating=f"<@{ALICE.user_id}> <@{BOB.user_id}> <@{CY.user_id}>")
        assert "starts" in reply.text, reply.text
        record = await self.store.game_in_channel(channel)
        assert record is not None
        return record.id

    async def close(self) -> None:
        self.service.close()
        await self.store.close()
