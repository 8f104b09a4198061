"""The service's core: games loaded in memory (a cache of replayed games within a memory
budget, one lock per game), the workers the engine runs on (never the event loop), who may
act, and what a reply posts after a move (the ping, the images that changed)."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import ParamSpec, TypeVar

from bot import naming
from bot.images import ImageDesk, LazyView
from bot.lag import LagMonitor
from bot.mail.repo import is_mail_user
from bot.naming import Named
from bot.ports import EnginePort, RealEngine, RealRenderer, Renderer
from bot.quiet import Groundwork, Quiet
from bot.replies import Attachment, BotError, Reply
from bot.sizing import deep_size
from bot.store import ActionRecord, GameRecord, Store
from bot.store.asked import AskedRepo
from bot.store.batch import Step
from bot.store.locks import CREATE_KEY, GameLocks
from bot.workers import WorkThreads, lower_priority, stop_pool
from engine.game import Game
from engine.legal import Legal
from engine.view import GameView, ViewKey

T = TypeVar("T")
P = ParamSpec("P")

log = logging.getLogger(__name__)

NO_GAME_HERE = "There is no game in this channel: use this command in a game's thread."


@dataclass(slots=True)
class Live:
    """A game loaded in memory: its record, the engine object and the stored log."""

    record: GameRecord
    game: Game
    records: list[ActionRecord] = field(default_factory=list)
    size: int = 0  # bytes the replayed game holds (measured at load, grown per move)
    # the key of the game's view (its hexes, market, who acts, round) in the state whose
    # images were last worked out, or as loaded, and the log length it shows: what the next
    # images are compared with (which changed: bot/play.py `_lazy_view`)
    key: ViewKey | None = None
    key_at: int = -1
    # the legal answer, whose turn it is and the answer with names, worked out ahead (the
    # groundwork, an autocomplete, a move): good while the engine still keeps that legal
    # answer, i.e. while the state is unchanged (`ServiceCore._kept_ready`)
    ready: Ready | None = None


@dataclass(frozen=True, slots=True)
class Who:
    """The person issuing a command (Discord member or local player)."""

    user_id: int
    name: str
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class Turn:
    """Who must act after a move, worked out on an engine thread."""

    acting: tuple[str, ...]  # player ids who must act
    entity: str | None  # the entity they act for
    finished: bool = False
    result: tuple[tuple[str, int], ...] = ()  # final scores, best first, once finished


IMPORT_NICE = 10  # the import process's niceness over the bot's


class _ImportPool(ProcessPoolExecutor):
    """The import's process pool: once shut down, it starts no worker in place of one that
    ended after its task (`max_tasks_per_child`). The pool's manager thread replaces such a
    worker holding the pool's shutdown lock, under which shutdown marks the pool; without
    this check a replacement asked for while the bot closed read the pool's workers' table
    after shutdown had let go of it (a TypeError in that thread)."""

    def _adjust_process_count(self) -> None:
        if getattr(self, "_shutdown_thread", False):
            return
        super()._adjust_process_count()


def _import_worker_start(nice: int) -> None:
    """An import process's start: its priority lowered, then the modules an import's replay
    uses loaded (0.3 s of CPU), so that the import finds them loaded: the process is started
    ahead (`ServiceCore.warm_imports`, at the bot's start, and again after each import), not
    when an import comes with other games' moves."""
    lower_priority(nice)
    import bot.service  # noqa: F401  (replay_import, the engine)


def key_of(view: GameView) -> ViewKey:
    """The key of a full view (`Game.view_key` of the same state)."""
    return ViewKey(view.hexes, view.market, view.acting, view.round, view.last_hexes)


# (the legal answer, whose turn it is, the legal answer with names)
Ready = tuple[Legal, Turn, Named]


async def _done() -> None:
    """Nothing more to do (a turn change without bookkeeping)."""


@dataclass(slots=True)
class TurnChange:
    """A turn change's bookkeeping (bot/turns.py), worked out before it is stored: `steps`,
    written in one transaction with the move's action (or on their own after the start or an
    import), and `written`, run once they are stored (given the reply, if any)."""

    steps: Sequence[Step] = ()
    written: Callable[[Reply | None], Awaitable[None]] = field(default=lambda _reply: _done())


@dataclass(frozen=True, slots=True)
class Draw:
    """Images still to render for a reply (after the game's lock is released)."""

    view: GameView | LazyView | None
    kinds: tuple[str, ...]
    game_id: int = 0
    stamp: int = 0  # the stored log's length: names the state drawn


class ServiceCore:
    def __init__(
        self,
        store: Store,
        *,
        engine: EnginePort | None = None,
        renderer: Renderer | None = None,
        cache_bytes: int = 512 * 2**20,
        render_images: bool = True,
        import_seconds: float = 60.0,
        engine_threads: int = 8,
        render_processes: int | None = 0,
        render_nice: int = 0,
        render_maps_bytes: int | None = None,
        import_process: bool = False,
    ) -> None:
        self.store = store
        self.engine: EnginePort = engine or RealEngine()
        self.renderer: Renderer = renderer or RealRenderer(render_maps_bytes)
        self.render_images = render_images
        # commands in flight: what no first reply needs (images, the next move's
        # groundwork) waits until none is (bot/quiet.py)
        self.quiet = Quiet()
        self.images = ImageDesk(self.renderer, render_processes, nice=render_nice,
                                quiet=self.quiet)
        self.groundwork = Groundwork(self.quiet, self._groundwork)
        self._cache: OrderedDict[int, Live] = OrderedDict()
        self.cache_bytes = cache_bytes
        # at least the cache's bytes (its sum when last counted, plus the moves' growth
        # since): a move counts the whole cache again only when this passes the budget
        self._cache_bound = 0
        self.import_seconds = import_seconds
        # per game, across processes when several share a PostgreSQL database; a game another
        # process changed is dropped from the cache on entering its lock (bot/store/locks.py)
        self._locks = GameLocks(store, self.evict)
        self._create_lock = self._locks[CREATE_KEY]
        # the engine's work runs on these threads, never on the event loop: moves and answers
        # on one pool (one game holds at most one thread, under its lock), imports on their
        # own so that long replays cannot take the threads moves need
        self._engine_pool = WorkThreads(engine_threads, "engine")
        self._import_pool = WorkThreads(1, "import")
        # `import_process`: an import replays in a process of its own instead (one an import:
        # a long replay then takes none of this process's interpreter from the other games'
        # moves, and keeps no memory after it)
        self.import_process = import_process
        self._import_workers: ProcessPoolExecutor | None = None
        self.lag = LagMonitor()  # started with the bot (bot/app.py, bot/local.py)
        # told of every turn change (game, turn, log length), under the game's lock: they
        # must not block (the e-mail transport queues the game, bot/mail/transport.py)
        self.turn_listeners: list[Callable[[GameRecord, Turn, int], None]] = []
        # train sales and proposed runs waiting for a button (bot/consent.py)
        self.asked = AskedRepo(self.store)

    async def run_engine(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run engine work on the engine threads and wait for it."""
        return await self._engine_pool.submit(functools.partial(fn, *args, **kwargs))

    async def run_import(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """Run an import's replay on the import thread, or (`import_process`) in a process of
        its own (`fn` and its arguments then pickled: a module's function)."""
        if not self.import_process:
            return await self._import_pool.submit(functools.partial(fn, *args, **kwargs))
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._import_processes(),
                                              functools.partial(fn, *args, **kwargs))
        except BrokenProcessPool:
            self._stop_import_workers()  # a new one for the next import
            raise BotError("The import stopped unexpectedly; it was not imported. Try again, "
                           "or ask the bot's admin.") from None

    def _import_processes(self) -> ProcessPoolExecutor:
        if self._import_workers is None:
            # spawn: the bot's threads and event loop are not forked into it; at a lower
            # priority: when both want a core, the moves' replies come first; a process an
            # import (it keeps no memory after it), the next one started as this one ends
            self._import_workers = _ImportPool(
                1, mp_context=get_context("spawn"), max_tasks_per_child=1,
                initializer=_import_worker_start, initargs=(IMPORT_NICE,))
        return self._import_workers

    def warm_imports(self) -> Future[int] | None:
        """Start the import process ahead (with `import_process`), at the bot's start: a
        first task that does nothing (its answer: that process's id) ends it, and the process
        started in its place waits, its modules loaded, for the first import."""
        if not self.import_process:
            return None
        return self._import_processes().submit(os.getpid)

    def _stop_import_workers(self) -> None:
        pool, self._import_workers = self._import_workers, None
        stop_pool(pool)

    def close(self) -> None:
        """Stop the worker threads and processes (at shutdown)."""
        self.images.close()
        self._engine_pool.close()
        self._import_pool.close()
        self._stop_import_workers()

    async def game_record(self, game_id: int) -> GameRecord:
        record = await self.store.game(game_id)
        if record is None:
            raise BotError(f"There is no game #{game_id}.")
        return record

    async def game_here(self, channel_id: int) -> GameRecord:
        record = await self.store.game_in_channel(channel_id)
        if record is None:
            raise BotError(NO_GAME_HERE)
        return record

    async def game_id_here(self, channel_id: int) -> int:
        """The id of this channel's game (a move reads the game under its lock)."""
        game_id = await self.store.game_id_in_channel(channel_id)
        if game_id is None:
            raise BotError(NO_GAME_HERE)
        return game_id

    def _new_engine_game(self, record: GameRecord) -> Game:
        players = [(p.engine_id, p.name) for p in record.seated]
        return self.engine.new_game(record.title, players, record.options)

    async def _live(self, game_id: int) -> Live:
        """The game in memory, replaying its stored log through the engine on first use."""
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        record = await self.game_record(game_id)
        records = await self.store.actions(game_id)
        game, size, key = await self.run_engine(self._replay, record, records,
                                                self.render_images)
        live = Live(record, game, records, size, key, len(records))
        self._cache[game_id] = live
        self._fit_cache()
        return live

    def _replay(self, record: GameRecord, records: Sequence[ActionRecord], keyed: bool = False
                ) -> tuple[Game, int, ViewKey | None]:
        """On an engine thread: the game loaded, its size and (`keyed`: images are drawn) its
        view's key, which the next move's images are compared with."""
        game = self._new_engine_game(record)
        # one pass over what is in effect (undo/redo resolved); the stored moves were each
        # accepted by the engine when made (or by the import that stored them): not re-judged
        game.load_log([rec.action for rec in records], accepted=True)
        # the title's data is shared by all its games: not counted in each
        return game, deep_size(game, exclude=game.title.data), game.view_key() if keyed else None

    def _grew(self, live: Live) -> None:
        """A move was added: count its share of the game's size, then keep the budget."""
        moves = max(1, len(live.records) - 1)
        grown = live.size // moves
        live.size += grown
        self._cache_bound += grown
        if self._cache_bound > self.cache_bytes:
            self._fit_cache()

    def _fit_cache(self) -> None:
        """Drop the least recently used games while the cache is over its byte budget (the
        game just used stays)."""
        total = sum(live.size for live in self._cache.values())
        while total > self.cache_bytes and len(self._cache) > 1:
            _gid, live = self._cache.popitem(last=False)
            total -= live.size
        self._cache_bound = total

    @property
    def cached_bytes(self) -> int:
        return sum(live.size for live in self._cache.values())

    def evict(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    async def legal_for(self, channel_id: int, user_id: int) -> Named | None:
        """What the user may do now in this channel's game (None if not their turn)."""
        record = await self.store.game_in_channel(channel_id)
        if record is None or record.status != "active":
            return None
        player = record.player_by_user(user_id)
        if player is None:
            return None
        async with self._locks[record.id]:  # never load a game while a move is applied
            live = await self._live(record.id)
            ready = self._kept_ready(live)  # worked out ahead, the state unchanged since
            if ready is not None:
                return ready[2] if player.engine_id in ready[1].acting else None
            # can take a while: off the loop, in one hop; with the names of what it offers,
            # for labels and typed names (bot/naming.py)
            legal, turn, named = await self.run_engine(self._answer, live.game,
                                                       player.engine_id)
            if named is None:
                return None
            live.ready = (legal, turn, named)
        return named

    @staticmethod
    def _kept_ready(live: Live) -> Ready | None:
        """On the loop, under the game's lock: the legal answer, whose turn it is and the
        answer with names as worked out earlier (`Live.ready`) if the engine still keeps that
        legal answer (the game's state unchanged since: engine.Game.kept_legal), else None.
        Works nothing out."""
        ready = live.ready
        if ready is not None and live.game.kept_legal() is ready[0]:
            return ready
        return None

    async def _groundwork(self, game_id: int, stamp: int) -> None:
        """A cached game still at `stamp` stored moves: its next move's groundwork now (the
        snapshot and the legal answer, engine.Game.get_ready, and the answer with names:
        `Live.ready`), under the game's lock."""
        if (live := self._cache.get(game_id)) is None or len(live.records) != stamp:
            return
        async with self._locks[game_id]:
            live = self._cache.get(game_id)
            if live is not None and len(live.records) == stamp:
                ready = await self.run_engine(self._get_ready, live.game)
                if ready is not None:
                    live.ready = ready

    @classmethod
    def _get_ready(cls, game: Game) -> Ready | None:
        """On an engine thread: the next move's groundwork (engine.Game.get_ready), then what
        the move (or an autocomplete) works out first from it: whose turn it is and the legal
        answer with names (None for a game over, or if the names failed: the move then works
        them out itself, as it always may)."""
        game.get_ready()
        if game.finished:
            return None
        try:
            legal, turn, named = cls._answer(game, None)
        except Exception:
            log.exception("the legal answer's names failed")
            return None
        return None if named is None else (legal, turn, named)

    @classmethod
    def _answer(cls, game: Game, player: str | None) -> tuple[Legal, Turn, Named | None]:
        """On an engine thread: the legal answer, whose turn it is, and the answer with names
        if `player` acts now (None: whoever acts), else None."""
        legal, turn = cls._legal_turn(game)
        if player is not None and player not in turn.acting:
            return legal, turn, None
        return legal, turn, naming.named(game, legal)

    @classmethod
    def _legal_turn(cls, game: Game) -> tuple[Legal, Turn]:
        """On an engine thread: the legal answer (kept by the engine) and whose turn it is."""
        legal: Legal = game.legal()
        return legal, cls._turn(game, legal)

    @staticmethod
    def _turn(game: Game, legal: Legal | None = None) -> Turn:
        """On an engine thread: who acts now (the controller the legal answer names, else
        the game's acting players), or the scores once the game is over."""
        if game.finished:
            ranked = sorted(game.result().items(), key=lambda kv: -int(kv[1]))
            return Turn((), None, True, tuple((str(p), int(v)) for p, v in ranked))
        if legal is None:  # as the legal answer names them, without working it out
            entity, kind = game.current_entity()
            player = game.title.controller(game, entity, kind)
            return Turn((player,) if player is not None else tuple(game.acting_players()),
                        entity)
        acting = ((legal.player,) if legal.player is not None
                  else tuple(game.acting_players()))
        return Turn(acting, legal.entity)

    async def _seated_live(self, who: Who, game_id: int) -> tuple[Live, str]:
        """The game in memory and the user's seat in it."""
        record = await self.game_record(game_id)
        if record.status != "active":
            raise BotError(f"Game #{game_id} is {record.status}: no moves can be made.")
        player = record.player_by_user(who.user_id)
        if player is None:
            raise BotError("You are not a player in this game.")
        return await self._live(game_id), player.engine_id

    def _result_text(self, record: GameRecord, turn: Turn) -> str:
        return "Game over. " + ", ".join(
            f"{self._name(record, pid)} ${value}" for pid, value in turn.result
        )

    @staticmethod
    def _name(record: GameRecord, engine_id: str) -> str:
        p = record.player_by_engine_id(str(engine_id))
        return p.name if p else str(engine_id)

    def _add_ping(self, reply: Reply, record: GameRecord, turn: Turn) -> None:
        """Mention the players who must act now (and only them)."""
        users = []
        for eid in turn.acting:
            p = record.player_by_engine_id(eid)
            if p is not None and p.user_id > 0 and p.user_id not in users:  # not a vacant seat
                users.append(p.user_id)
        if users:
            entity = turn.entity
            for_what = (
                f" for {entity}"
                if entity is not None and str(entity) not in {p.engine_id for p in record.players}
                else ""
            )
            # an e-mail player has no Discord account: named (their turn mail is their ping)
            reply.text += "\n" + " ".join(
                f"**{self._user_name(record, u)}** (by e-mail)" if is_mail_user(u) else f"<@{u}>"
                for u in users) + f" to act{for_what}."
            reply.mention = tuple(u for u in users if not is_mail_user(u))

    async def _turn_change(self, record: GameRecord, turn: Turn, stamp: int,
                           round_name: str) -> TurnChange:
        """The long-game bookkeeping of a turn change after `stamp` stored actions (caller
        holds the game's lock; bot/turns.py overrides it)."""
        return TurnChange()

    async def _turn_changed(self, record: GameRecord, turn: Turn, stamp: int, round_name: str,
                            reply: Reply | None) -> None:
        """After the start or an import (caller holds the game's lock): the bookkeeping
        stored on its own (a move stores it with its action: bot/play.py)."""
        change = await self._turn_change(record, turn, stamp, round_name)
        if change.steps:
            await self.store.db.write_batch(change.steps)
        await change.written(reply)

    def _draw(self, reply: Reply, draw: Draw) -> None:
        """Give the reply its images to draw once it is sent (bot/images.py)."""
        # a move's state (LazyView) is always given a ticket: which of its images changed is
        # worked out when they are drawn; a state whose images are the same as the last
        # one's still takes over images of the game not drawn yet (the newest state is drawn:
        # a LazyView of an older state could not be built once the game has moved on)
        if draw.view is not None and self.render_images and (
                draw.kinds or isinstance(draw.view, LazyView) or self.images.waiting(draw.game_id)):
            reply.images = self.images.ticket(draw.game_id, draw.stamp, draw.view, draw.kinds,
                                              reply.clocks)

    async def _add_images(self, reply: Reply, game_id: int, stamp: int, view: GameView,
                          kinds: Sequence[str]) -> None:
        """Images the reply itself carries (drawn now; reused if that state was drawn)."""
        if self.render_images:
            reply.attachments.extend(await self.images.now(game_id, stamp, view, kinds))

    async def finish_images(self, reply: Reply) -> list[Attachment]:
        """Draw the images a sent reply still needs (none if a newer move will draw them)."""
        if reply.images is None:
            return []
        job, reply.images = reply.images, None
        return await self.images.draw(job)

    @staticmethod
    def _user_name(record: GameRecord, user_id: int) -> str:
        p = record.player_by_user(user_id)
        return p.name if p else str(user_id)

    @staticmethod
    def _author(record: GameRecord, rec: ActionRecord) -> int | None:
        if rec.user_id is not None:
            return rec.user_id
        if rec.action.get("entity_type") == "player":
            p = record.player_by_engine_id(str(rec.action.get("entity")))
            return p.user_id if p else None
        return None


def _clip(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
