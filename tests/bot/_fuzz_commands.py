"""Fuzzing the command layer (issue 12): random command lines in the terminal mode and random
slash-option values through `Commands.run`. Every one is answered, none with a fault
("Something went wrong"), and a refused one leaves the stored log as it was."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.commands import Ctx
from bot.local import LocalSession
from bot.service import RealEngine, RealRenderer, Service, Who
from bot.specs import SPECS
from bot.store import Store

WORDS = ["GMO", "IC", "Fr", "WRA", "M&O", "AGS", "BS", "MC", "M&M", "2+-0", "2+-1", "58-0",
         "57-0", "B2", "E12", "H6", "Z99", "I1-0-0", "70", "70,1,2", "0", "5", "9", "-1", "x",
         "abc", "$", "$$$", "10%", "payout", "withhold", "half", "foo", "best", "Map", "Charter",
         "GMO_3", "IC_3", "GMO_0", "[]", "{}", '[{"train":"2+-0","connections":[],"revenue":99999}]',
         "[[[[[[[[[[1]]]]]]]]]]", '{"train": 5}', "99999999999999999999", "é", "\\", '"', "'",
         "=", "a=b", "hex=Z99", "rotation=x", "count=-5", "<@1>", "<#5>", "@alice", "1=alice"]
EXTRA = ["as", "use", "allow", "refuse", "help", "import", "history", "legal", "status", "map",
         "market", "undo", "redo", "games", "export", "nonsense", ""]
PLAYERS = ["alice", "bob", "cy"]


@dataclass
class CommandTally:
    lines: int = 0
    options: int = 0
    faults: list[str] = field(default_factory=list)
    torn: list[str] = field(default_factory=list)


def _line(rng: random.Random) -> str:
    name = rng.choice(sorted(SPECS) + EXTRA)
    words = [rng.choice(WORDS) for _ in range(rng.randrange(0, 5))]
    who = rng.choice(PLAYERS)
    return f"{who}: {name} {' '.join(words)}".rstrip()


def _value(rng: random.Random) -> Any:
    return rng.choice([*WORDS, None, "", 0, -1, 5, 10**12, " " * 3, "x" * 500])


async def fuzz_commands(tmp: Path, count: int, seed: int = 1) -> CommandTally:
    """Half command lines (terminal), half slash-option values (Commands.run)."""
    rng = random.Random(seed)
    store = await Store.open(tmp / "fuzz.sqlite3")
    service = Service(store, engine=RealEngine(), renderer=RealRenderer(), render_images=False)
    s = LocalSession(service, tmp / "img")
    tally = CommandTally()
    try:
        for line in ("alice: create 18MS", "bob: join", "cy: join", "alice: start alice bob cy",
                     "cy: bid M&O 70", "bob: bid MC 60", "alice: bid AGS 30"):
            await s.handle(line)
        for i in range(count):
            record = await store.game_in_channel(s.channel_id)
            before = [a.action for a in await store.actions(record.id)] if record else []
            if i % 2 == 0:
                line = _line(rng)
                who, _, rest = line.partition(": ")
                if rest.startswith(("import", "abandon", "leave", "create", "end")):
                    line = who + ": legal"
                tally.lines += 1
                out = await s.handle(line)
                shown = line
            else:
                name = rng.choice(sorted(SPECS))
                if name in ("abandon", "create", "leave", "end"):
                    name = "legal"
                spec = SPECS[name]
                args = {p.name: _value(rng) for p in spec.params if rng.random() < 0.8}
                who = rng.choice(PLAYERS)
                from bot.local import local_user_id

                ctx = Ctx(Who(local_user_id(who), who), None, s.channel_id)
                tally.options += 1
                reply = await s.commands.run(name, ctx, **args)
                out, shown = reply.text, f"/{name} {args} by {who}"
            if "Something went wrong" in out:
                tally.faults.append(f"{shown}: {out}"[:300])
            after = [a.action for a in await store.actions(record.id)] if record else []
            if out.startswith("(only you)") and after != before and "went wrong" in out:
                tally.torn.append(shown)
    finally:
        await store.close()
    return tally
