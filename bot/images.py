"""Images after a move: drawn after the first reply is sent, off the event loop, newest first.

A move's reply goes out as soon as the move is stored; its images follow (the Discord layer
edits them into the reply). `ImageDesk` draws them:
- in worker processes, one per core by default (`render_processes`; 0 draws in threads,
  which the tests use to keep start-up light); every image of a game goes to the same worker
  (chosen by a stable hash of the game's id), which keeps the game's last full map and draws
  the next by patching it (render.mapkeep); each worker is a pool of one process, whose jobs
  it draws in the order given, with `SLOTS_A_WORKER` jobs given at a time (the next job's
  view is built and sent while the worker draws the one before);
- per game, only the newest state: when a newer move of the same game asked for images before
  an older one's turn came, the older one draws nothing and its kinds pass to the newer one;
- an image already drawn for the same stored state is not drawn again (`/picture` after a
  move, several images of one state);
- a move's images start once no command is in flight (bot/quiet.py), or after `IMAGE_HOLD`
  seconds: under a burst of moves the first replies come first (building a state's view and
  the workers' drawing take the cores the replies need).
"""

from __future__ import annotations

import asyncio
import logging
import os
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context

from bot import imagewire
from bot.ports import Renderer
from bot.quiet import Quiet
from bot.replies import Attachment, ImageJob
from bot.workers import lower_priority, stop_pool
from engine.view import GameView

log = logging.getLogger(__name__)

SLOTS_A_WORKER = 1  # jobs handed to a worker process at a time (threads: one in all)
IMAGE_HOLD = 0.5  # seconds a move's images wait at most for no command in flight


def image_filename(kind: str) -> str:
    """The attachment's name: "map.png", "region-A1-D8.png" for kind "region:A1-D8"."""
    return kind.replace(":", "-") + ".png"


def _draw(renderer: Renderer, kind: str, view: GameView,
          clocks: Mapping[str, float] | None, game: object = None) -> bytes | None:
    """One image of `game` (runs in a thread); the card shows the players' clocks."""
    with imagewire.keeping(renderer, game):
        if kind == "card" and clocks:
            return renderer.render(kind, view, clocks=clocks)
        return renderer.render(kind, view)


def _warm(renderer: Renderer, nice: int = 0) -> None:
    """A render worker's start: its priority lowered by `nice` (the bot's replies come first
    when both want the cores), then the renderer's warm-up, if it has one (RealRenderer: each
    title's start board drawn once, so that the first image a player waits for does not pay
    for the process's fonts, memory and plugins; bench/README.md, "Rendering")."""
    lower_priority(nice)
    warm = getattr(renderer, "warm", None)
    if callable(warm):
        warm()


def _nothing() -> None:
    """A job that only makes the pool start a worker (which warms up first)."""


# what a LazyView's builder finds: the kinds of image that changed since the state whose
# images were last worked out, and the view (None when nothing is to be drawn)
Found = tuple[tuple[str, ...], GameView | None]


class LazyView:
    """A move's stored state, whose images are worked out only when their turn to be drawn
    comes: under load most states of a busy game are superseded by a newer move before then,
    and a full view costs more of the bot's CPU than the move. `build(wanted)` gives the kinds
    of image that changed (since the state last looked at this way) and the view of that
    state, built if any changed or `wanted` (other kinds are to be drawn), or None when the
    game has left that state (a newer move or an undo made since); it runs once (kept)."""

    __slots__ = ("_build", "_found")

    def __init__(self, build: Callable[[bool], Awaitable[Found | None]]) -> None:
        self._build = build
        self._found: Found | None = None

    async def get(self, wanted: bool = True) -> Found | None:
        if self._found is None:
            self._found = await self._build(wanted)
        return self._found


@dataclass(slots=True)
class _GameImages:
    latest: int = 0  # the newest ticket given for this game
    pending: dict[str, None] = field(default_factory=dict)  # kinds still to draw, in order
    drawn: dict[str, tuple[int, bytes]] = field(default_factory=dict)  # kind -> (stamp, png)


class ImageDesk:
    def __init__(self, renderer: Renderer, workers: int | None = None,
                 games_kept: int = 500, nice: int = 0, quiet: Quiet | None = None) -> None:
        self.renderer = renderer
        self.quiet = quiet if quiet is not None else Quiet()
        self.nice = nice  # the worker processes' niceness (os.nice) over the bot's
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        # slots and one pool of one process a worker (threads: one slot, a pool of two)
        slots = SLOTS_A_WORKER if self.workers > 0 else 1
        self._slots = [asyncio.Semaphore(slots) for _ in range(max(1, self.workers))]
        self._pools: list[Executor | None] = [None] * len(self._slots)
        self._packer = imagewire.Packer()
        self._games: OrderedDict[int, _GameImages] = OrderedDict()
        self._games_kept = games_kept
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.drawn = 0  # images drawn (for tests and benches)
        self.superseded = 0  # jobs left to a newer move of the same game

    def _game(self, game_id: int) -> _GameImages:
        state = self._games.get(game_id)
        if state is None:
            state = self._games[game_id] = _GameImages()
            while len(self._games) > self._games_kept:
                self._games.popitem(last=False)
        self._games.move_to_end(game_id)
        return state

    def waiting(self, game_id: int) -> bool:
        """Whether images of this game were asked for and their drawing has not started."""
        state = self._games.get(game_id)
        return state is not None and bool(state.pending)

    def ticket(self, game_id: int, stamp: int, view: GameView | LazyView, kinds: Sequence[str],
               clocks: Sequence[tuple[str, float]] = ()) -> ImageJob:
        """Register a move's images (called in the move's order, under the game's lock)."""
        state = self._game(game_id)
        state.latest += 1
        state.pending.update(dict.fromkeys(kinds))
        return ImageJob(game_id, state.latest, stamp, view, tuple(kinds), tuple(clocks))

    def worker_of(self, game_id: int) -> int:
        """The worker that draws every image of this game (the same in every run)."""
        return zlib.crc32(str(game_id).encode()) % len(self._slots)

    def _executor(self, worker: int) -> Executor:
        pool = self._pools[worker]
        if pool is None:
            if self.workers > 0:
                # spawn: the bot's threads and event loop are not forked into the workers
                pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"),
                                           initializer=_warm, initargs=(self.renderer, self.nice))
            else:
                pool = ThreadPoolExecutor(2, thread_name_prefix="render")
            self._pools[worker] = pool
        return pool

    def start(self) -> None:
        """Start the worker processes now (each warms up) rather than at the first image."""
        if self.workers > 0:
            for worker in range(len(self._pools)):
                self._executor(worker).submit(_nothing)

    def worker_pids(self) -> list[int]:
        """The worker processes started (benches: their memory)."""
        return [pid for pool in self._pools if isinstance(pool, ProcessPoolExecutor)
                for pid in (pool._processes or {})]

    async def draw(self, job: ImageJob) -> list[Attachment]:
        """The job's images, or none when a newer move of the game will draw them."""
        self._busy += 1
        self._idle.clear()
        try:
            view = job.view
            worker = self.worker_of(job.game_id)
            await self.quiet.wait(IMAGE_HOLD)  # the first replies of a burst first
            while True:
                async with self._slots[worker]:
                    state = self._game(job.game_id)
                    if job.ticket < state.latest:
                        self.superseded += 1
                        return []
                    if not isinstance(view, LazyView):
                        kinds = tuple(state.pending) or job.kinds
                        state.pending.clear()
                        return await self._render(job.game_id, state, job.stamp, view,
                                                  kinds, dict(job.clocks))
                # its turn came: what changed is worked out and the view built now, out of the
                # slot (its builder waits for the game's lock, whose holder may be waiting for
                # a slot: `now`), then the job is looked at again (a newer move may have come
                # meanwhile: these kinds then pass to it)
                found = await view.get(bool(state.pending or job.kinds))
                if found is None:  # the game has left that state: its kinds stay pending,
                    self.superseded += 1  # for the newer state's ticket
                    return []
                changed, built = found
                state.pending.update(dict.fromkeys(changed))
                if built is None:  # none of its images changed
                    return []
                view = built
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    async def now(self, game_id: int, stamp: int, view: GameView,
                  kinds: Sequence[str]) -> list[Attachment]:
        """Images a command answers with (e.g. /picture): drawn now, reused if already drawn."""
        async with self._slots[self.worker_of(game_id)]:
            return await self._render(game_id, self._game(game_id), stamp, view, tuple(kinds))

    async def _render(self, game_id: int, state: _GameImages, stamp: int, view: GameView,
                      kinds: Sequence[str],
                      clocks: Mapping[str, float] | None = None) -> list[Attachment]:
        out: list[Attachment] = []
        todo = [k for k in kinds if state.drawn.get(k, (None,))[0] != stamp]
        futures = {k: asyncio.ensure_future(self._one(game_id, k, view, clocks)) for k in todo}
        for kind in kinds:
            if kind in futures:
                try:
                    png = await futures[kind]
                except Exception:
                    log.exception("drawing the %s image failed", kind)
                    continue
                if not png:
                    continue
                state.drawn[kind] = (stamp, png)
                self.drawn += 1
            else:
                png = state.drawn[kind][1]
            out.append(Attachment(image_filename(kind), png))
        return out

    async def _one(self, game_id: int, kind: str, view: GameView,
                   clocks: Mapping[str, float] | None) -> bytes | None:
        """One image: in a thread with the view as it is; in the game's worker process with
        the view stripped of its title data, which the worker keeps (bot/imagewire.py)."""
        loop = asyncio.get_running_loop()
        pool = self._executor(self.worker_of(game_id))
        if self.workers <= 0 or not isinstance(view, GameView):
            return await loop.run_in_executor(pool, _draw, self.renderer, kind, view, clocks,
                                              game_id)
        packed = self._packer.pack(view.data)
        bare = imagewire.strip(view)
        png = await loop.run_in_executor(pool, imagewire.draw_remote, self.renderer, kind, bare,
                                         packed.key, None, clocks, game_id)
        if png == imagewire.MISSING:  # that worker's first image of this title (variant)
            png = await loop.run_in_executor(pool, imagewire.draw_remote, self.renderer, kind,
                                             bare, packed.key, packed.blob, clocks, game_id)
        return png

    async def idle(self) -> None:
        """Wait until no job is drawing (tests, shutdown)."""
        await self._idle.wait()

    def close(self) -> None:
        """Stop the workers now (a drawing is dropped: images are made again from the log).
        Stopped, not only told to stop: a worker still starting, or waiting for work its pool
        no longer sends once the process is exiting, otherwise held the process's exit up
        (multiprocessing joins its children at exit)."""
        for i, pool in enumerate(self._pools):
            stop_pool(pool)
            self._pools[i] = None
