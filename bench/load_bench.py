"""Many busy games at once, through the real discord.py client and a fake Discord in another
process.

    python bench/load_bench.py --games 200 --moves 30                # waves: all games at once
    python bench/load_bench.py --games 200 --moves 30 --settle       # each wave on a settled bot
    python bench/load_bench.py --games 200 --moves 30 --rate 40      # paced: 40 moves/s in all
    python bench/load_bench.py ... [--import-undos 9000] [--render-processes N] [--profile F]

Two processes, as in production where Discord is someone else's machine:
- this one is Discord's side: the fake Discord (REST + gateway, tests/bot/fake_discord.py)
  and the players. It stamps the time each interaction is sent and each answer received
  (`time.perf_counter`, on its own loop): the bot's loop and GIL cannot delay the stamps;
  its own cyclic collector is off while the moves are measured (collected between settled
  waves), so that no pause of Discord's side is counted as the bot's;
- the bot's process (spawned): the real RailBot as in production, its engine threads, its
  images drawn in worker processes (one per core unless `--render-processes`), a real SQLite
  file. The two talk only over the loopback network (discord.py's HTTP and websocket), plus a
  control pipe the bench uses between phases (are the images done, the bot's counters).

Every game re-plays the moves in effect of the 18MS game ../shared/fixtures/18MS/14375.json
(through its first operating rounds) as slash commands by the right users.
- Waves (default): one move in every game is sent at the same instant, wave after wave (the
  next wave when every game has its first reply, while images may still be drawn: back to
  back, the bot never idle, about 600 moves/s on two cores).
- `--settle`: the same waves, each sent once the bot has settled from the one before (every
  image drawn and edited in): 200 games moving at the same instant, measured one burst at a
  time, as the players of 200 games would each answer a move they have seen.
- `--rate R`: the games' moves are spread evenly at R moves/s in all (game g sends its k-th
  move at (k * games + g) / R s); a game whose previous move is not answered yet sends its
  next one when it is (the delay is reported: the bot did not keep up).

`--tls`: the fake speaks https and wss, as Discord does (a self-signed certificate made by the
`openssl` tool); `--gap S` (with `--settle`): S seconds of quiet after each settled wave.
`--timeline`: each move's way to its first reply, marked in the bot's process (timeline.py);
a slow wave's own marks too, and `BENCH_TRACE=FILE` writes the raw marks (JSON).
Experiments (environment): `BENCH_PLAIN_GATEWAY=1` (the gateway's frames uncompressed, as the
fake sent them before: not as Discord does), `BENCH_RCVBUF=BYTES` (the bot's gateway socket's
receive buffer), `BENCH_API_DELAY=S` (the fake holds each REST answer S seconds after taking
it: a real server's latency), `BENCH_HTTP_LIMIT=N` (the bot's connections to Discord at most),
`BENCH_SWITCH`, `BENCH_GC`, `BENCH_NICE`, `BENCH_KEEPALIVE`, `BENCH_LOOP`.
`--import-undos N`: during the moves, one player imports a game of N undo/redo pairs.
`--profile FILE`: py-spy samples the bot's process (threads and GIL) into FILE (speedscope
for .json, collapsed stacks for .txt, else a flamegraph) while the moves run.

Reported: first reply (the answer a player reads, with the ping) p50/p95/max; missed
deadlines (no callback of any kind within Discord's 3 s); images (edited into the reply)
p50/p95/max and how many replies were left to a newer move of the same game; the bot's
worst event-loop lag; CPU seconds of the bot's process, its render workers and the fake's
process over the moves; the load average before and after, and the CPU time the host took
from this machine meanwhile (/proc/stat's steal, on a virtual machine).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import json
import multiprocessing as mp
import os
import resource
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import timeline  # noqa: E402
from tests.bot.conftest import FIXTURES  # noqa: E402
from tests.bot.fake_discord import FakeDiscord, Pending, User  # noqa: E402

FIXTURE = FIXTURES / "18MS" / "14375.json"


# -- the bot's process ----------------------------------------------------------------------


def _cpu_of(pid: int, tid: int | None = None) -> float:
    """User + system CPU seconds of a live process, or of one of its threads (Linux /proc)."""
    where = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    try:
        fields = Path(where).read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _memory_of(pid: int) -> tuple[float, float]:
    """(resident, peak resident) megabytes of a live process (Linux /proc)."""
    got = {"VmRSS": 0.0, "VmHWM": 0.0}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            name, _, rest = line.partition(":")
            if name in got:
                got[name] = int(rest.split()[0]) / 1024  # kB
    except OSError:
        pass
    return got["VmRSS"], got["VmHWM"]


def _render_workers(images: Any) -> list[int]:
    """The render workers' process ids (one pool of several, or a pool a worker)."""
    if hasattr(images, "worker_pids"):
        return list(images.worker_pids())
    return list(getattr(getattr(images, "_pool", None), "_processes", None) or {})


def _thread_kind(name: str) -> str:
    """The bot's threads, grouped: the event loop (main), the engine's, the import's, SQLite's
    (aiosqlite's connection thread), the render queue's feeder, the rest (the render pool's
    manager thread, the bench's control pipe)."""
    if name == "MainThread":
        return "loop"
    for prefix, kind in (("engine", "engine"), ("import", "import"),
                         ("QueueFeederThread", "feeder")):
        if name.startswith(prefix):
            return kind
    return "sqlite" if "connection_worker" in name else "other"


def _thread_ids() -> dict[int, str]:
    """This process's threads' native ids, by `_thread_kind` (the bench reads their CPU from
    /proc)."""
    import threading

    return {t.native_id: _thread_kind(t.name) for t in threading.enumerate()
            if t.native_id is not None}


def _tasks_cpu(pid: int) -> dict[int, float]:
    """CPU seconds so far of each of a live process's threads (Linux /proc), by native id."""
    try:
        tids = [int(t) for t in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return {}
    return {tid: _cpu_of(pid, tid) for tid in tids}


def _by_kind(cpu: dict[int, float], tids: dict[int, str]) -> dict[str, float]:
    """Threads' CPU seconds summed by kind (`_thread_ids`; a thread not named there: "gone")."""
    out: dict[str, float] = {}
    for tid, sec in cpu.items():
        kind = tids.get(tid, "gone")
        out[kind] = out.get(kind, 0.0) + sec
    return out


def _threads_cpu() -> dict[str, float]:
    """CPU seconds of this process's threads so far, by `_thread_kind` (threads that ended are
    not counted)."""
    ids = _thread_ids()
    return _by_kind({tid: _cpu_of(os.getpid(), tid) for tid in ids}, ids)


def bot_process(port: int, database: str, processes: int | None, threads: int,
                conn: Connection, images: bool = True) -> None:
    """The bot alone in its process: RailBot on the fake Discord at `port`; answers the
    bench's control messages on `conn`."""
    main = _bot_main(port, database, processes, threads, conn, images)
    if os.environ.get("BENCH_LOOP") == "asyncio":  # an experiment: asyncio's own loop
        asyncio.run(main)
        return
    from bot.app import run_loop

    run_loop(main)  # as python -m bot


class GcWatch:
    """The cyclic collector's passes in the bot's process: time per generation, longest."""

    def __init__(self) -> None:
        self.total = [0.0, 0.0, 0.0]
        self.count = [0, 0, 0]
        self.worst = 0.0
        self._t0 = 0.0
        gc.callbacks.append(self._cb)

    def _cb(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._t0 = time.perf_counter()
            return
        took = time.perf_counter() - self._t0
        gen = info["generation"]
        self.total[gen] += took
        self.count[gen] += 1
        self.worst = max(self.worst, took)

    def reset(self) -> None:
        self.total, self.count, self.worst = [0.0, 0.0, 0.0], [0, 0, 0], 0.0


def _counters(service: Any, store: Any, collector: Any, gcw: GcWatch) -> dict[str, Any]:
    """The counters of the process running `service` (the bot's, or the game process's)."""
    workers = _render_workers(service.images)
    return {
        "lag_worst_ms": service.lag.worst * 1000,
        "lag_warnings": service.lag.warnings,
        "superseded": service.images.superseded,
        "drawn": service.images.drawn,
        "render_cpu": sum(_cpu_of(p) for p in workers),
        "render_mb": [_memory_of(p) for p in workers],
        "gc": (list(gcw.count), list(gcw.total), gcw.worst),
        "commits": getattr(getattr(store.db, "group", None), "commits", 0),
        "quiet_passes": collector.passes,
        # (getattr: the bench also runs on trees before bot/quiet.py, load_ab.sh)
        "groundwork": getattr(getattr(service, "groundwork", None), "done", 0),
        "calms": getattr(service.quiet, "calms", 0),
        "threads_cpu": _threads_cpu(),
        "tids": _thread_ids(),
    }


async def _bot_main(port: int, database: str, processes: int | None, threads: int,
                    conn: Connection, images: bool) -> None:
    from bot.app import RailBot, tune_collector
    from bot.config import Config
    from bot.service import Service
    from bot.store import Store

    FakeDiscord.point_at(port, bool(os.environ.get("BENCH_TLS")))  # --tls: https and wss
    gcw = GcWatch()
    if os.environ.get("BENCH_TIMELINE"):  # --timeline: marks on each move's way (timeline.py)
        timeline.install()
    tune_collector()  # as bot.app.run_discord does
    if os.environ.get("BENCH_HTTP_LIMIT"):  # an experiment: connections to Discord at most
        import aiohttp

        most = int(os.environ["BENCH_HTTP_LIMIT"])
        plain_connector = aiohttp.TCPConnector

        class Limited(plain_connector):  # type: ignore[valid-type,misc]
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                super().__init__(*args, **{**kwargs, "limit": most})

        aiohttp.TCPConnector = Limited  # type: ignore[misc]
    if os.environ.get("BENCH_SWITCH"):  # an experiment: the GIL's switch interval
        sys.setswitchinterval(float(os.environ["BENCH_SWITCH"]))
    if os.environ.get("BENCH_GC"):  # an experiment: gen0,gen1,gen2 thresholds
        gc.set_threshold(*(int(x) for x in os.environ["BENCH_GC"].split(",")))
    config = Config(database=Path(database), guild_ready_timeout=0.05,
                    render_processes=processes, engine_threads=threads, render_images=images)
    if os.environ.get("BENCH_KEEPALIVE"):  # idle connections to Discord kept (config)
        config = dataclasses.replace(config, http_keepalive=float(os.environ["BENCH_KEEPALIVE"]))
    if os.environ.get("BENCH_NICE"):  # the render workers' niceness (default: the config's)
        config = dataclasses.replace(config, render_nice=int(os.environ["BENCH_NICE"]))
    store = await Store.open(config.database)
    service = Service.from_config(store, config)
    bot = RailBot(config, service)
    if os.environ.get("BENCH_QUIET_GC"):  # an experiment: the quiet passes' young count (0: off)
        bot.collector.young = int(os.environ["BENCH_QUIET_GC"])
    await bot.login("fake-token")
    task = asyncio.create_task(bot.connect(reconnect=False))
    await asyncio.wait_for(bot.wait_until_ready(), 60)
    loop = asyncio.get_running_loop()
    if os.environ.get("BENCH_RCVBUF"):  # an experiment: the gateway socket's receive buffer
        import socket as socket_mod
        sock = bot.ws.socket._writer.transport.get_extra_info("socket")  # type: ignore[union-attr]
        sock.setsockopt(socket_mod.SOL_SOCKET, socket_mod.SO_RCVBUF,
                        int(os.environ["BENCH_RCVBUF"]))
    lag = service.lag
    conn.send("ready")
    try:
        while True:
            msg = await loop.run_in_executor(None, conn.recv)
            if msg == "idle":  # every image asked for so far is drawn
                await asyncio.sleep(0.3)
                await service.images.idle()
                conn.send(None)
            elif msg == "reset":  # counters from now on
                lag.worst, lag.warnings = 0.0, 0
                gcw.reset()
                conn.send(None)
            elif msg == "timeline":
                conn.send(timeline.TRACE)
            elif msg == "stats":
                self_cpu = resource.getrusage(resource.RUSAGE_SELF)
                out = _counters(service, store, bot.collector, gcw)
                out["bot_cpu"] = self_cpu.ru_utime + self_cpu.ru_stime
                conn.send(out)
            else:
                break
    finally:
        await lag.stop()
        await bot.close()
        task.cancel()
        service.close()
        await store.close()
        conn.send("stopped")


class BotProcess:
    def __init__(self, port: int, database: Path, processes: int | None, threads: int,
                 images: bool = True) -> None:
        ctx = mp.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=bot_process,
                                args=(port, str(database), processes, threads, child, images),
                                name="bot")
        self.proc.start()
        self.in_waves: list[tuple[float, float]] = []  # (wall, CPU) s: `waves`
        self.tasks_in_waves: list[dict[int, float]] = []  # CPU s by thread id: `waves`

    async def ask(self, msg: str, timeout: float = 600) -> Any:
        loop = asyncio.get_running_loop()

        def call() -> Any:
            self.conn.send(msg)
            if not self.conn.poll(timeout):
                raise TimeoutError(f"the bot did not answer {msg!r}")
            return self.conn.recv()

        return await loop.run_in_executor(None, call)

    async def ready(self) -> None:
        loop = asyncio.get_running_loop()
        got = await loop.run_in_executor(None, lambda: self.conn.poll(120) and self.conn.recv())
        if got != "ready":
            raise RuntimeError("the bot's process did not start")

    async def stop(self) -> None:
        try:
            await self.ask("stop", timeout=30)
        finally:
            self.proc.join(10)
            if self.proc.is_alive():
                self.proc.terminate()


# -- Discord's side -------------------------------------------------------------------------


def script(moves: int) -> tuple[list[str], list[tuple[str, str, dict[str, Any]]]]:
    """(export player ids, [(acting export player id, command, options)]) for the first
    `moves` moves in effect of the fixture."""
    from engine.game import Game
    from tests.bot.replay import command_for, effective_log

    data = json.loads(FIXTURE.read_text())
    log = effective_log(data)[:moves]
    players = [str(p["id"]) for p in data["players"]]
    ref = Game(data["title"], [(p, p) for p in players], [])
    steps = []
    for action in log:
        name, options = command_for(action)
        who = (str(action["entity"]) if action.get("entity_type") == "player"
               else ref.acting_players()[0])
        steps.append((who, name, options))
        ref.apply(action)
    return players, steps


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def new_game(fake: FakeDiscord, users: list[User], create: asyncio.Lock) -> int:
    async with create:  # the new thread is told apart from the others' by its arrival
        before = {c for c, d in fake.channels.items() if d["type"] == 11}
        await fake.invoke(users[0], fake.main_channel, "create", title="18MS", timeout=120)
        (thread,) = {c for c, d in fake.channels.items() if d["type"] == 11} - before
    for u in users[1:]:
        await fake.invoke(u, thread, "join", timeout=120)
    seating = " ".join(f"<@{u.id}>" for u in users)
    sent = await fake.invoke(users[0], thread, "start", seating=seating, timeout=120)
    assert "starts" in sent.content, sent.content
    return thread


def undo_file(pairs: int) -> dict[str, Any]:
    """The fixture's first moves, then `pairs` undo/redo pairs."""
    data = json.loads(FIXTURE.read_text())
    head = [a for a in data["actions"] if a["type"] != "message"][:10]
    actions = list(head)
    entity = head[-1]["entity"]
    for i in range(pairs):
        for kind in ("undo", "redo"):
            actions.append({"type": kind, "entity": entity, "entity_type": "player",
                            "id": len(actions) + 1, "created_at": 1_600_000_000 + i})
    for i, a in enumerate(actions):
        a["id"] = i + 1
    return {**data, "actions": actions, "result": {}}


Table = tuple[int, dict[str, User]]
Step = tuple[str, str, dict[str, Any]]


async def send(fake: FakeDiscord, table: Table, step: Step) -> int:
    thread, seat = table
    who, name, options = step
    sent = await fake.invoke(seat[who], thread, name, timeout=300, **options)
    if sent.ephemeral:
        raise RuntimeError(f"/{name} {options} refused: {sent.content}")
    assert sent.interaction_id is not None
    return sent.interaction_id


async def waves(fake: FakeDiscord, tables: list[Table], steps: list[Step],
                bot: BotProcess | None = None, gap: float = 0.0) -> list[int]:
    """A move in every game at the same instant, wave after wave; with `bot`, each wave once
    the bot has settled from the one before, and `gap` seconds more (a quiet spell)."""
    iids: list[int] = []
    for step in steps:
        if bot is not None:  # the bot's CPU (in all, by thread) from send to last reply
            pid = bot.proc.pid or 0
            at, cpu_at, tasks_at = time.perf_counter(), _cpu_of(pid), _tasks_cpu(pid)
        iids.extend(await asyncio.gather(*(send(fake, t, step) for t in tables)))
        if bot is not None:
            bot.in_waves.append((time.perf_counter() - at, _cpu_of(pid) - cpu_at))
            bot.tasks_in_waves.append({t: v - tasks_at.get(t, 0.0)
                                       for t, v in _tasks_cpu(pid).items()})
            await settle(fake, bot)
            await asyncio.sleep(gap)
    return iids


async def paced(fake: FakeDiscord, tables: list[Table], steps: list[Step], rate: float,
                late: list[float]) -> list[int]:
    """Game g sends move k at t0 + (k * games + g) / rate, or when its previous move is
    answered if that is later (how much later goes to `late`)."""
    loop = asyncio.get_running_loop()
    t0 = loop.time() + 0.1
    n = len(tables)

    async def game(g: int, table: Table) -> list[int]:
        out = []
        for k, step in enumerate(steps):
            due = t0 + (k * n + g) / rate
            now = loop.time()
            if now < due:
                await asyncio.sleep(due - now)
            else:
                late.append(now - due)
            out.append(await send(fake, table, step))
        return out

    per_game = await asyncio.gather(*(game(g, t) for g, t in enumerate(tables)))
    return [iid for ids in per_game for iid in ids]


async def settle(fake: FakeDiscord, bot: BotProcess) -> None:
    """Every image drawn and edited into its reply (nothing more reaches the fake)."""
    while True:
        seen = len(fake.sent) + len(fake.calls)
        await bot.ask("idle")
        await asyncio.sleep(0.5)
        if len(fake.sent) + len(fake.calls) == seen:
            gc.collect()  # the fake's garbage, while nothing is measured (`bench`)
            return


def _tls_context() -> ssl.SSLContext:
    """The fake's TLS (--tls): a self-signed P-256 certificate for 127.0.0.1 made by the
    `openssl` tool, which the bot's process trusts (SSL_CERT_FILE, read by Python's default
    context, which aiohttp and so discord.py use)."""
    where = Path(tempfile.mkdtemp(prefix="fake-tls-"))
    key, cert = where / "key.pem", where / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-keyout", str(key), "-out", str(cert),
                    "-days", "1", "-nodes", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    os.environ["SSL_CERT_FILE"] = str(cert)  # the bot's process is spawned with it
    os.environ["BENCH_TLS"] = "1"
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def loadavg() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def stolen() -> float:
    """Seconds of CPU the host took from this machine's CPUs since boot (/proc/stat's steal:
    a virtual machine's neighbours), 0 where unknown."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    players, steps = script(args.moves)
    fake = FakeDiscord()
    if os.environ.get("BENCH_PLAIN_GATEWAY"):  # an experiment: the gateway's frames as text,
        fake.zlib_stream = False  # uncompressed (the fake before session 18)
    if os.environ.get("BENCH_API_DELAY"):  # an experiment: Discord's answers S seconds late
        fake.rest_delay = float(os.environ["BENCH_API_DELAY"])
    await fake.start(_tls_context() if args.tls else None)
    out: dict[str, Any] = {"steps": len(steps)}
    with tempfile.TemporaryDirectory() as tmp:
        bot = BotProcess(fake.port, Path(tmp) / "bot.sqlite3", args.render_processes,
                         args.engine_threads, not args.no_images)
        spy: subprocess.Popen[bytes] | None = None
        try:
            await bot.ready()
            t0 = time.perf_counter()
            create = asyncio.Lock()
            slots = asyncio.Semaphore(8)

            async def setup(g: int) -> Table:
                users = [User(100000 + g * 10 + i, f"G{g}P{i}") for i in range(len(players))]
                async with slots:
                    thread = await new_game(fake, users, create)
                return thread, dict(zip(players, users, strict=True))

            tables = list(await asyncio.gather(*(setup(g) for g in range(args.games))))
            await settle(fake, bot)
            out["setup_s"] = time.perf_counter() - t0
            await bot.ask("reset")
            before = await bot.ask("stats")
            fake_before = resource.getrusage(resource.RUSAGE_SELF)
            out["load_before"] = loadavg()
            stolen_before = stolen()
            if args.profile:
                spy = subprocess.Popen(
                    ["py-spy", "record", "--pid", str(bot.proc.pid), "--threads", "--gil",
                     "--rate", os.environ.get("BENCH_SPY_RATE", "100"), "--nonblocking", "-o", args.profile,
                     *(["--format", "speedscope"] if args.profile.endswith(".json") else
                       ["--format", "raw"] if args.profile.endswith(".txt") else [])],
                    stdout=subprocess.DEVNULL)
            importer = None
            if args.import_undos:
                blob = json.dumps(undo_file(args.import_undos)).encode()
                mapping = " ".join(f"{p}=<@{200 + i}>" for i, p in enumerate(players))
                importer = asyncio.ensure_future(fake.invoke(
                    User(200, "Importer"), fake.main_channel, "import", players=mapping,
                    attachment=("undos.json", blob), timeout=600))
            late: list[float] = []
            # Discord's side pauses for no collector of ours: this process's (the fake's and
            # the players') collector is off while the moves are measured (garbage is
            # collected between settled waves, `settle`); a pass of it inside a burst (up to
            # ~85 ms once its heap holds the moves' replies) stalled the fake's stamps
            gc.collect()
            gc.freeze()
            gc.disable()
            t0 = time.perf_counter()
            if args.rate:
                iids = await paced(fake, tables, steps, args.rate, late)
            else:
                iids = await waves(fake, tables, steps, bot if args.settle else None, args.gap)
            out["wall_s"] = time.perf_counter() - t0
            out["in_waves"] = bot.in_waves
            out["late"] = late
            if importer is not None:
                sent = await importer
                took = sent.at - fake.pending[sent.interaction_id or 0].dispatched
                out["import"] = (sent.content[:120], took)
            await settle(fake, bot)
            out["images_s"] = time.perf_counter() - t0
            gc.enable()
            gc.unfreeze()
            if spy is not None:
                spy.send_signal(2)  # SIGINT: py-spy writes its file
                spy.wait(60)
            after = await bot.ask("stats")
            fake_after = resource.getrusage(resource.RUSAGE_SELF)
            out["load_after"] = loadavg()
            out["stolen"] = stolen() - stolen_before
            out.update(measure(fake.pending, iids))
            if args.timeline and not args.rate:
                trace = await bot.ask("timeline")
                sent = [(iid, fake.pending[iid].dispatched) for iid in iids]
                out["timeline"] = timeline.report(
                    trace, [sent[i:i + args.games] for i in range(0, len(sent), args.games)])
                if os.environ.get("BENCH_TRACE"):  # the raw marks, for a closer look
                    Path(os.environ["BENCH_TRACE"]).write_text(
                        json.dumps({"trace": trace, "sent": sent, "written": [
                            fake.pending[iid].written for iid in iids]}))
            out.update({k: after[k] for k in ("lag_worst_ms", "lag_warnings", "gc")})
            out["kinds_in_waves"] = [  # each wave's CPU by kind of thread (ended: "gone")
                _by_kind(w, after["tids"]) for w in bot.tasks_in_waves]
            out["commits"] = after["commits"] - before["commits"]
            out["render_mb"] = after["render_mb"]
            out["quiet_passes"] = after["quiet_passes"] - before["quiet_passes"]
            out["groundwork"] = after["groundwork"] - before["groundwork"]
            out["calms"] = after["calms"] - before["calms"]
            for k in ("superseded", "drawn", "bot_cpu", "render_cpu"):
                out[k] = after[k] - before[k]
            out["threads_cpu"] = {k: v - before["threads_cpu"].get(k, 0.0)
                                  for k, v in after["threads_cpu"].items()}
            out["fake_cpu"] = (fake_after.ru_utime + fake_after.ru_stime
                               - fake_before.ru_utime - fake_before.ru_stime)
            out["unknown"] = list(fake.unknown)
        finally:
            if spy is not None and spy.poll() is None:
                spy.kill()
            await bot.stop()
            await fake.stop()
    return out


def measure(pending: dict[int, Pending], iids: list[int]) -> dict[str, Any]:
    first: list[float] = []
    images: list[float] = []
    missed = 0
    for iid in iids:
        p = pending[iid]
        any_answer = min(r.at for r in p.replies if r.kind in ("callback", "followup"))
        missed += any_answer - p.dispatched > 3.0
        answer = next(r for r in p.replies if r.kind != "edit" and r.callback_type != 5)
        first.append(answer.at - p.dispatched)
        edits = [r.at for r in p.replies if r.kind == "edit" and r.files]
        if edits:
            images.append(edits[-1] - p.dispatched)
    return {"first": first, "images": images, "missed": missed}


def report(args: argparse.Namespace, r: dict[str, Any]) -> None:
    ms = 1000
    first, images = r["first"], r["images"]
    mode = (f"paced at {args.rate:g} moves/s" if args.rate else
            f"{r['steps']} waves" + (", each on a settled bot" if args.settle else ""))
    print(f"{args.games} games, {mode}: {len(first)} moves in {r['wall_s']:.1f} s "
          f"({len(first) / r['wall_s']:.1f} moves/s); cores {os.cpu_count()}; render "
          f"processes {args.render_processes if args.render_processes is not None else os.cpu_count()}; "
          f"setup {r['setup_s']:.0f} s")
    print(f"load average: before {r['load_before']}, after {r['load_after']}; CPU stolen by "
          f"the host over the moves: {r['stolen']:.2f} s")
    print(f"first reply: median {statistics.median(first) * ms:.0f} ms, p95 "
          f"{pct(first, 0.95) * ms:.0f} ms, max {max(first) * ms:.0f} ms; "
          f"missed 3 s deadlines: {r['missed']}")
    if args.rate:
        late = r["late"]
        print(f"moves sent late (the game's previous move not answered by its time): "
              f"{len(late)}" + (f", max {max(late) * ms:.0f} ms" if late else ""))
    if images:
        print(f"images: {len(images)} replies got images ({r['drawn']} drawn), "
              f"{r['superseded']} left to a newer move of their game; median "
              f"{statistics.median(images) * ms:.0f} ms, p95 {pct(images, 0.95) * ms:.0f} ms, "
              f"max {max(images) * ms:.0f} ms; all drawn {r['images_s']:.1f} s after the start")
    n = len(first)
    print(f"CPU over the moves: bot process {r['bot_cpu']:.1f} s ({r['bot_cpu'] / n * ms:.1f} ms "
          f"a move), render workers {r['render_cpu']:.1f} s, fake Discord {r['fake_cpu']:.1f} s "
          f"({r['fake_cpu'] / n * ms:.1f} ms a move)")
    if r.get("render_mb"):
        print("render workers' memory (resident / peak, MB): " + ", ".join(
            f"{rss:.0f} / {peak:.0f}" for rss, peak in r["render_mb"]))
    threads = sorted(r["threads_cpu"].items(), key=lambda kv: -kv[1])
    print("bot's threads: " + ", ".join(f"{k} {v:.1f} s ({v / n * ms:.2f} ms a move)"
                                        for k, v in threads))
    if r.get("in_waves"):  # settled waves: what the bot did between send and last reply
        wall, cpu = (statistics.median(v) * ms for v in zip(*r["in_waves"], strict=True))
        loop = statistics.median(w.get("loop", 0.0) for w in r["kinds_in_waves"]) * ms
        print(f"in each wave (its send to its last first reply, medians): {wall:.0f} ms; bot "
              f"CPU {cpu:.0f} ms ({cpu / args.games:.2f} ms a move), its loop {loop:.0f} ms "
              f"({loop / args.games:.2f} ms a move)")
        kinds = sorted({k for w in r["kinds_in_waves"] for k in w})
        print("  by thread, ms a move (medians over the waves): " + ", ".join(
            f"{k} {statistics.median(w.get(k, 0.0) for w in r['kinds_in_waves']) * ms / args.games:.2f}"
            for k in kinds))
    print(f"bot's event loop: worst lag {r['lag_worst_ms']:.0f} ms, {r['lag_warnings']} warnings")
    counts, totals, worst = r["gc"]
    print("bot's cyclic collector: " + ", ".join(
        f"gen{g} {counts[g]}x {totals[g] * ms:.0f} ms" for g in range(3))
        + f"; longest pass {worst * ms:.0f} ms ({r['quiet_passes']} asked for when quiet); "
        f"SQLite commits {r['commits']}")
    print(f"groundwork done when no command was in flight: {r['groundwork']} games; "
          f"the bot went quiet (no command in flight) {r['calms']} times")
    if r.get("timeline"):
        print("each move's way, from its wave's first send (medians over the waves):")
        print("\n".join(r["timeline"]))
    if "import" in r:
        text, took = r["import"]
        print(f"import of {args.import_undos} undo/redo pairs: {took:.1f} s: {text}")
    if r["unknown"]:
        print(f"unknown Discord routes called: {r['unknown']}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--rate", type=float, default=0.0,
                        help="moves per second in all, spread evenly over the games "
                             "(default: waves, every game at once)")
    parser.add_argument("--render-processes", type=int, default=None,
                        help="worker processes drawing images (default: one per core)")
    parser.add_argument("--engine-threads", type=int, default=8,
                        help="the bot's engine threads (config engine_threads; default 8)")
    parser.add_argument("--settle", action="store_true",
                        help="send each wave once the bot has settled from the one before "
                             "(every image drawn)")
    parser.add_argument("--gap", type=float, default=0.0,
                        help="with --settle: seconds of quiet between a settled wave and the next")
    parser.add_argument("--tls", action="store_true",
                        help="the fake speaks https and wss, as Discord does (needs openssl)")
    parser.add_argument("--no-images", action="store_true",
                        help="the bot draws no images (config render_images = false)")
    parser.add_argument("--import-undos", type=int, default=0)
    parser.add_argument("--profile", default="",
                        help="py-spy the bot's process into this file while the moves run")
    parser.add_argument("--timeline", action="store_true",
                        help="mark each move's way to its first reply (bench/timeline.py)")
    args = parser.parse_args()
    if args.timeline:
        os.environ["BENCH_TIMELINE"] = "1"  # the bot's process is spawned with this environment
    if args.tls and shutil.which("openssl") is None:
        print("--tls makes the fake's certificate with the openssl tool, which is absent",
              file=sys.stderr)
        return 2
    if not FIXTURE.exists():
        print(f"{FIXTURE} is absent: the bench re-plays that recorded game", file=sys.stderr)
        return 2
    report(args, asyncio.run(bench(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
