"""The service's core: games loaded in memory (a cache of replayed games, one lock per game),
who may act, and what a reply posts after a move (the ping, the images that changed)."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.ports import EnginePort, RealEngine, RealRenderer, Renderer
from bot.replies import Attachment, BotError, Reply
from bot.store import ActionRecord, GameRecord, Store

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Live:
    """A game loaded in memory: its record, the engine object and the stored log."""

    record: GameRecord
    game: Any
    records: list[ActionRecord] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Who:
    """The person issuing a command (Discord member or local player)."""

    user_id: int
    name: str
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class Draw:
    """Images still to render for a reply (after the game's lock is released)."""

    view: Any
    kinds: tuple[str, ...]


class ServiceCore:
    def __init__(
        self,
        store: Store,
        *,
        engine: EnginePort | None = None,
        renderer: Renderer | None = None,
        cache_size: int = 200,
        render_images: bool = True,
        import_seconds: float = 60.0,
    ) -> None:
        self.store = store
        self.engine: EnginePort = engine or RealEngine()
        self.renderer: Renderer = renderer or RealRenderer()
        self.render_images = render_images
        self._cache: OrderedDict[int, Live] = OrderedDict()
        self._cache_size = cache_size
        self.import_seconds = import_seconds
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._create_lock = asyncio.Lock()

    async def game_record(self, game_id: int) -> GameRecord:
        record = await self.store.game(game_id)
        if record is None:
            raise BotError(f"There is no game #{game_id}.")
        return record

    async def game_here(self, channel_id: int) -> GameRecord:
        record = await self.store.game_in_channel(channel_id)
        if record is None:
            raise BotError("There is no game in this channel: use this command in a game's thread.")
        return record

    def _new_engine_game(self, record: GameRecord) -> Any:
        players = [(p.engine_id, p.name) for p in record.seated]
        return self.engine.new_game(record.title, players, record.options, record.seed)

    async def _live(self, game_id: int) -> Live:
        """The game in memory, replaying its stored log through the engine on first use."""
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        record = await self.game_record(game_id)
        records = await self.store.actions(game_id)
        game = await asyncio.to_thread(self._replay, record, records)
        live = Live(record, game, records)
        self._cache[game_id] = live
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return live

    def _replay(self, record: GameRecord, records: Sequence[ActionRecord]) -> Any:
        game = self._new_engine_game(record)
        if hasattr(game, "load_log"):  # one pass over what is in effect (undo/redo resolved)
            game.load_log([rec.action for rec in records])
        else:
            for rec in records:
                game.apply(rec.action)
        return game

    def evict(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    async def legal_for(self, channel_id: int, user_id: int) -> Any:
        """What the user may do now in this channel's game (None if not their turn)."""
        record = await self.store.game_in_channel(channel_id)
        if record is None or record.status != "active":
            return None
        player = record.player_by_user(user_id)
        if player is None:
            return None
        async with self._locks[record.id]:  # never load a game while a move is applied
            live = await self._live(record.id)
            legal = await asyncio.to_thread(live.game.legal)  # can take a while: off the loop
            if player.engine_id not in self._acting(live.game, legal):
                return None
        return legal

    @staticmethod
    def _acting(game: Any, legal: Any) -> tuple[str, ...]:
        acting = tuple(str(p) for p in game.acting_players())
        controller = getattr(legal, "player", None)
        return (str(controller),) if controller is not None else acting

    async def _seated_live(self, who: Who, game_id: int) -> tuple[Live, str]:
        record = await self.game_record(game_id)
        if record.status != "active":
            raise BotError(f"Game #{game_id} is {record.status}: no moves can be made.")
        player = record.player_by_user(who.user_id)
        if player is None:
            raise BotError("You are not a player in this game.")
        return await self._live(game_id), player.engine_id

    def _result_text(self, record: GameRecord, game: Any) -> str:
        result = game.result()
        ranked = sorted(result.items(), key=lambda kv: -int(kv[1]))
        return "Game over. " + ", ".join(
            f"{self._name(record, str(pid))} ${value}" for pid, value in ranked
        )

    @staticmethod
    def _name(record: GameRecord, engine_id: str) -> str:
        p = record.player_by_engine_id(str(engine_id))
        return p.name if p else str(engine_id)

    def _add_ping(self, reply: Reply, record: GameRecord, game: Any) -> None:
        """Mention the players who must act now (and only them)."""
        users = []
        legal = game.legal()
        for eid in self._acting(game, legal):
            p = record.player_by_engine_id(eid)
            if p is not None and p.user_id not in users:
                users.append(p.user_id)
        if users:
            entity = getattr(legal, "entity", None)
            for_what = (
                f" for {entity}"
                if entity is not None and str(entity) not in {p.engine_id for p in record.players}
                else ""
            )
            reply.text += "\n" + " ".join(f"<@{u}>" for u in users) + f" to act{for_what}."
            reply.mention = tuple(users)

    async def _draw(self, reply: Reply, draw: Draw) -> None:
        if draw.view is not None:
            await self._add_images(reply, draw.view, draw.kinds)

    async def _add_images(self, reply: Reply, view: Any, kinds: Sequence[str]) -> None:
        if not self.render_images:
            return
        for kind in kinds:
            png = await asyncio.to_thread(self.renderer.render, kind, view)
            if png:
                reply.attachments.append(Attachment(f"{kind}.png", png))

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
