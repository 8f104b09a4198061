"""Where a wave's moves spend their time in the bot's process (`load_bench.py --timeline`).

Marks (`time.perf_counter`, which the bench's process shares: the same monotonic clock) are
taken by wrapping, in the bot's process only, the points each move passes on its way to the
first reply: the gateway event parsed (gw), the command handler entered (run), the engine hop
asked for / started / done on its thread / back on the loop (eng, eng_run, eng_ran,
eng_back), the action's store write sent / committed (store, stored) and the first reply
sent / answered (reply, replied); the game's record asked for / got (read, readd). The
report gives, per mark, the median over the waves of its median and p95, in ms from the
wave's first send; then each wave's p95 of `replied`, and how many connections the bot's
HTTP client opened in each wave (a burst after a quiet spell opens them again). A wave well
over the run's usual one gets its own lines: its p95 by mark, the fake's send stamps, the
gateway's bytes as they reached the bot, the renders and groundwork begun in it (both wait
for a quiet bot), its SQLite transactions and the collector's passes.
"""

from __future__ import annotations

import contextvars
import gc
import statistics
import time
from typing import Any

MARKS = ("gw", "run", "read", "readd", "eng", "eng_run", "eng_ran", "eng_back", "store",
         "stored", "reply", "replied")
TRACE: dict[str, list[tuple[str, float]]] = {}  # interaction id -> (mark, time)


def install() -> None:
    """Wrap the points above (in the bot's process, before the bot starts)."""
    import discord.state

    import bot.cogs._base as base
    from bot.core import ServiceCore
    from bot.store.repo import Store

    current: contextvars.ContextVar[str] = contextvars.ContextVar("interaction", default="")
    now = time.perf_counter

    def mark(key: str, label: str) -> None:
        if key:
            TRACE.setdefault(key, []).append((label, now()))

    parse = discord.state.ConnectionState.parse_interaction_create

    def parsed(self: Any, data: Any) -> Any:
        mark(str(data["id"]), "gw")
        return parse(self, data)

    discord.state.ConnectionState.parse_interaction_create = parsed  # type: ignore[method-assign]
    run_and_reply = base.run_and_reply

    async def run(interaction: Any, work: Any) -> None:
        current.set(str(interaction.id))  # the work's task copies this context
        mark(str(interaction.id), "run")
        await run_and_reply(interaction, work)

    base.run_and_reply = run
    respond = base.respond

    async def reply(interaction: Any, answer: Any) -> None:
        mark(str(interaction.id), "reply")
        await respond(interaction, answer)
        mark(str(interaction.id), "replied")

    base.respond = reply
    run_engine = ServiceCore.run_engine

    async def engine(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        key = current.get()
        mark(key, "eng")

        def hop() -> Any:
            mark(key, "eng_run")
            try:
                return fn(*args, **kwargs)
            finally:
                mark(key, "eng_ran")

        out = await run_engine(self, hop)
        mark(key, "eng_back")
        return out

    ServiceCore.run_engine = engine  # type: ignore[method-assign]
    append = Store.append_action

    async def store(self: Any, *args: Any, **kwargs: Any) -> None:
        key = current.get()
        mark(key, "store")
        await append(self, *args, **kwargs)
        mark(key, "stored")

    Store.append_action = store  # type: ignore[method-assign]
    def reading(name: str) -> None:  # the move's first read: the game's record
        plain = getattr(Store, name)

        async def read(self: Any, *args: Any, **kwargs: Any) -> Any:
            key = current.get()
            mark(key, "read")
            out = await plain(self, *args, **kwargs)
            mark(key, "readd")
            return out

        setattr(Store, name, read)

    reading("game")
    if hasattr(Store, "seen_and_game"):  # older trees: read with the interaction's check
        reading("seen_and_game")
    import bot.store.db as db

    group = db.run_group

    def commit(*args: Any) -> Any:  # on the SQLite thread: a group's transaction
        t0 = now()
        try:
            return group(*args)
        finally:
            TRACE.setdefault("commit", []).append(("commit", t0))
            TRACE["commit"].append(("committed", now()))

    db.run_group = commit

    from bot.images import ImageDesk

    def background(cls: Any, name: str, label: str) -> None:  # work begun when quiet
        plain = getattr(cls, name)

        async def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
            TRACE.setdefault("bg", []).append((label, now()))
            return await plain(self, *args, **kwargs)

        setattr(cls, name, wrapped)

    background(ImageDesk, "_render", "render")
    background(ServiceCore, "_groundwork", "groundwork")

    def collected(phase: str, info: dict[str, int]) -> None:  # the cyclic collector's passes
        TRACE.setdefault("gc", []).append((f"{phase} gen{info['generation']}", now()))

    gc.callbacks.append(collected)
    import aiohttp
    import aiohttp.client_proto

    received = aiohttp.client_proto.ResponseHandler.data_received

    def wire(self: Any, data: bytes) -> None:  # the gateway's bytes as they reach the bot
        if self._payload_parser is not None:  # a websocket's (the gateway is the only one)
            TRACE.setdefault("wire", []).append((str(len(data)), now()))
        received(self, data)

    aiohttp.client_proto.ResponseHandler.data_received = wire  # type: ignore[method-assign]
    create = aiohttp.TCPConnector._create_connection

    async def connect(self: Any, *args: Any, **kwargs: Any) -> Any:
        mark("connect", "connect")
        return await create(self, *args, **kwargs)

    aiohttp.TCPConnector._create_connection = connect  # type: ignore[method-assign]


def report(trace: dict[str, list[tuple[str, float]]], waves: list[list[tuple[int, float]]]
           ) -> list[str]:
    """Per mark: the median over `waves` ((interaction id, sent at) of each wave's moves) of
    the mark's median and p95 in ms from the wave's first send (a move's first such mark)."""
    rows: dict[str, list[tuple[float, float]]] = {m: [] for m in MARKS}
    for wave in waves:
        t0 = min(at for _iid, at in wave)
        for m in MARKS:
            times = sorted((next(t for label, t in trace[str(iid)] if label == m) - t0) * 1000
                           for iid, _at in wave
                           if any(label == m for label, _t in trace.get(str(iid), ())))
            if times:
                rows[m].append((statistics.median(times), times[int(0.95 * (len(times) - 1))]))
    out = []
    for m in MARKS:
        if rows[m]:
            p50 = statistics.median(r[0] for r in rows[m])
            p95 = statistics.median(r[1] for r in rows[m])
            out.append(f"  {m:9} median {p50:5.0f} ms, p95 {p95:5.0f} ms")
    if "connect" in trace:
        starts = [min(at for _iid, at in wave) for wave in waves] + [float("inf")]
        opened = [sum(1 for _l, t in trace["connect"] if a <= t < b)
                  for a, b in zip(starts, starts[1:], strict=False)]
        out.append("  connections opened in each wave: " + " ".join(map(str, opened)))
    marks = trace.get("commit", [])
    took = sorted((b[1] - a[1]) * 1000 for a, b in zip(marks[::2], marks[1::2], strict=False))
    if took:  # a group's transaction on the SQLite thread (its GIL waits included)
        out.append(f"  SQLite transactions: {len(took)}, median {statistics.median(took):.1f} ms,"
                   f" max {took[-1]:.0f} ms")
    if rows["replied"]:
        out.append("  each wave's p95 replied: "
                   + " ".join(f"{p95:.0f}" for _p50, p95 in rows["replied"]))
        # a wave well over the run's usual one: its own marks, to see where it lost the time
        usual = statistics.median(p95 for _p50, p95 in rows["replied"])
        for n, (_p50, p95) in enumerate(rows["replied"]):
            if p95 > 1.3 * usual:
                out.append(f"  wave {n + 1} ({p95:.0f} ms against {usual:.0f}), p95 by mark: "
                           + " ".join(f"{m} {rows[m][n][1]:.0f}" for m in MARKS
                                      if len(rows[m]) == len(rows["replied"])))
                t0 = min(at for _iid, at in waves[n])
                sent = sorted((at - t0) * 1000 for _iid, at in waves[n])
                out.append("    sent (the fake's stamps) p50 / p95 / last: "
                           f"{sent[len(sent) // 2]:.0f} / {sent[int(0.95 * (len(sent) - 1))]:.0f}"
                           f" / {sent[-1]:.0f} ms")
                bg = [(label, (t - t0) * 1000) for label, t in trace.get("bg", ())
                      if 0 <= t - t0 < 1.0]
                got = [(int(size), (t - t0) * 1000) for size, t in trace.get("wire", ())
                       if 0 <= t - t0 < 1.0]
                out.append("    gateway bytes read (ms: bytes): "
                           + ", ".join(f"{t:.0f}: {size}" for size, t in got))
                for label in ("render", "groundwork"):  # begun once the bot was quiet
                    at = [t for lb, t in bg if lb == label]
                    out.append(f"    {label}: {len(at)}" + (f", first {at[0]:.0f} ms, last "
                                                            f"{at[-1]:.0f} ms" if at else ""))
                for what in ("commit", "gc"):  # each in ms from the wave's first send
                    seen = [f"{label} {(t - t0) * 1000:.0f}" for label, t in trace.get(what, ())
                            if 0 <= t - t0 < 1.0]
                    out.append(f"    {what}: " + (", ".join(seen) or "none"))
    return out
