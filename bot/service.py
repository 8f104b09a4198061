"""The bot's use cases: load, apply, persist, decide what to post. No Discord types here.

The bot calls the engine's public API (docs/ENGINE-API.md) with its real types; what tests
substitute (how a game is made, the renderer) are the typed ports of bot/ports.py. Flow of one move
(bot/play.py): take the game's lock → check the user may act for the acting entity → engine
applies (or raises with a reason) → store appends the action in one transaction → render what
changed (off the event loop) → return the Reply (summary, images, whom to ping). bot/core.py
holds loading and posting; this module adds the game's lifecycle (create, join, start, import,
export) and the information commands.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from bot import ports
from bot.config import Config
from bot.core import Draw, Live, ServiceCore, Turn, Who, key_of
from bot.importing import Imported, known_title, replay_import
from bot.play import MoveBuilder, ServicePlay
from bot.ports import EnginePort, ImportStopped, RealEngine, RealRenderer, Renderer
from bot.replies import Attachment, BotError, Reply
from bot.seats import ServiceSeats
from bot.store import GameRecord, Store
from engine import EngineError
from engine.game import Game
from engine.io.export18xx import export_game
from engine.titles import TITLES as ENGINE_TITLES
from engine.view import GameView

__all__ = [
    "IMAGE_KINDS", "TITLES", "Draw", "EnginePort", "Live", "MoveBuilder", "RealEngine",
    "RealRenderer", "Renderer", "Service", "ServiceCore", "ServicePlay", "Who",
]

log = logging.getLogger(__name__)

TITLES = ENGINE_TITLES  # the titles the bot plays
IMAGE_KINDS = ("map", "market", "status", "card")
IMPORT_HOLD = 1.0  # seconds an import waits at most for the other commands in flight




class Service(ServiceSeats):
    @classmethod
    def from_config(cls, store: Store, config: Config) -> Service:
        """The service as config.toml sets it up (bot/config.py)."""
        return cls(store, cache_bytes=config.cache_megabytes * 2**20,
                   render_images=config.render_images, import_seconds=config.import_seconds,
                   import_process=config.import_process,
                   engine_threads=config.engine_threads,
                   render_processes=config.render_processes, render_nice=config.render_nice,
                   render_maps_bytes=config.render_maps_megabytes * 2**20)

    async def create_game(
        self,
        who: Who,
        *,
        guild_id: int | None,
        channel_id: int,
        title: str,
        options: Sequence[str],
        interaction_id: str | None,
        make_thread: Callable[[str], Any] | None = None,
    ) -> tuple[GameRecord, Reply]:
        title = self._check_title(title)
        meta = ports.title_meta(title)
        known = {o["id"] for o in meta.get("optional_rules", [])}
        unknown = [o for o in options if o not in known]
        if unknown:
            raise BotError(
                f"Unknown option(s) for {title}: {', '.join(unknown)}. "
                f"Known: {', '.join(sorted(known)) or 'none'}."
            )
        async with self._create_lock:
            if interaction_id and (done := await self.store.game_by_interaction(interaction_id)):
                return done, Reply(f"Game #{done.id} was already created.", ephemeral=True)
            thread_id = None
            if make_thread is not None:
                thread_id = int(await make_thread(f"{title} game by {who.name}"))
            game_id = await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                title=title,
                options=options,
                seed=random.randrange(1, 2**31),
                creator_id=who.user_id,
                creator_name=who.name,
                interaction_id=interaction_id,
            )
        record = await self.game_record(game_id)
        players = meta.get("players", {})
        where = f" in <#{thread_id}>" if thread_id else ""
        text = (
            f"Created {title} game #{game_id}{where}"
            + (f" with {', '.join(options)}" if options else "")
            + f". {players.get('min', '?')}-{players.get('max', '?')} players: use /join, "
            "then the creator uses /start."
        )
        return record, Reply(text)

    def _check_title(self, title: str) -> str:
        return known_title(title)

    async def join(self, who: Who, game_id: int) -> Reply:
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            if record.status != "open":
                raise BotError("This game has already started; nobody can join any more.")
            limit = int(ports.title_meta(record.title).get("players", {}).get("max", 99))
            if record.player_by_user(who.user_id):
                raise BotError("You are already in this game.")
            if len(record.players) >= limit:
                raise BotError(f"{record.title} is for at most {limit} players; the game is full.")
            await self.store.add_player(game_id, who.user_id, who.name, str(who.user_id))
            record = await self.game_record(game_id)
        names = ", ".join(p.name for p in record.players)
        return Reply(f"**{who.name}** joins game #{game_id}. Players: {names}.")

    async def leave(self, who: Who, game_id: int) -> Reply:
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            if record.status != "open":
                raise BotError("The game has started: you cannot leave it now.")
            if who.user_id == record.creator_id:
                raise BotError("The creator cannot leave; use /abandon to cancel the game.")
            if not await self.store.remove_player(game_id, who.user_id):
                raise BotError("You are not in this game.")
        return Reply(f"**{who.name}** leaves game #{game_id}.")

    async def start(self, who: Who, game_id: int, seating: Sequence[int] | None = None) -> Reply:
        """Start with the given seat order (user ids) or, without one, a random order."""
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            if who.user_id != record.creator_id and not who.is_admin:
                raise BotError("Only the game's creator (or a server admin) can start it.")
            if record.status != "open":
                raise BotError("This game has already started.")
            limits = ports.title_meta(record.title).get("players", {})
            count = len(record.players)
            if count < int(limits.get("min", 1)):
                raise BotError(
                    f"{record.title} needs at least {limits.get('min')} players; {count} joined."
                )
            seated_ids = [p.user_id for p in record.players]
            if seating:
                if sorted(seating) != sorted(seated_ids):
                    raise BotError("The seating must list every player who joined, once each.")
                order = list(seating)
            else:
                order = seated_ids[:]
                random.Random(record.seed).shuffle(order)
            by_id = {p.user_id: p for p in record.players}
            players = [(by_id[u].engine_id, by_id[u].name) for u in order]
            try:
                game = self.engine.new_game(record.title, players, record.options)
            except EngineError as err:
                raise BotError(str(err)) from err
            await self.store.start_game(game_id, order)
            record = await self.game_record(game_id)
            self._cache[game_id] = live = Live(record, game, [])
            self.groundwork.add(game_id, 0)  # the first move's, when nothing waits
            view, turn = await self.run_engine(self._view_and_turn, game)
            # its images are drawn from this view: the first move's are compared with it
            live.key, live.key_at = key_of(view), 0
            reply = Reply(
                f"Game #{game_id} ({record.title}) starts. Seats: "
                + ", ".join(f"{i + 1}. {by_id[u].name}" for i, u in enumerate(order))
                + "."
            )
            self._add_ping(reply, record, turn)
            await self._turn_changed(record, turn, 0, view.round, reply)
        self._draw(reply, Draw(view, ("status", "card"), game_id, 0))
        return reply

    async def abandon(self, who: Who, game_id: int) -> Reply:
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            if who.user_id != record.creator_id and not who.is_admin:
                raise BotError("Only the game's creator or a server admin can abandon it.")
            if record.status in ("finished", "abandoned"):
                raise BotError(f"Game #{game_id} is already {record.status}.")
            await self.store.set_status(game_id, "abandoned")
            self.evict(game_id)
        return Reply(f"Game #{game_id} is abandoned.")

    async def export(self, game_id: int) -> Reply:
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            if record.status == "open":
                raise BotError("The game has not started: there is nothing to export.")
            live = await self._live(game_id)
            data = await self.run_engine(export_game, live.game, game_id=game_id)
        blob = json.dumps(data, indent=1).encode()
        return Reply(
            f"Game #{game_id} as an 18xx.games export.",
            attachments=[Attachment(f"{record.title}-game-{game_id}.json", blob)],
            ephemeral=True,
        )

    async def import_game(
        self,
        who: Who,
        *,
        guild_id: int | None,
        channel_id: int,
        raw: bytes,
        users: dict[str, tuple[int, str]],
        interaction_id: str | None,
        make_thread: Callable[[str], Any] | None = None,
    ) -> tuple[GameRecord, Reply]:
        """Import an 18xx.games export (the uploaded file's bytes); `users` maps the export's
        player ids (as text) or names to (Discord user id, display name). The file is read,
        checked, mapped and replayed off the event loop (bot/importing.py)."""
        # the other commands in flight first (a burst's first replies): the import's reply is
        # deferred already, and its process would take a core from them (bench/README.md,
        # section 23); held at most IMPORT_HOLD seconds, so that a bot never quiet still imports
        await self.quiet.wait_for_others(1, IMPORT_HOLD)
        # (the monotonic clock is the machine's: an import process reads the same one)
        deadline = time.monotonic() + self.import_seconds
        try:
            done: Imported = await self.run_import(replay_import, raw, users, deadline)
        except ImportStopped:
            raise BotError(f"This game takes longer than {self.import_seconds:g} s to replay "
                           "here; it was not imported.") from None
        title, actions, turn = done.title, done.actions, done.turn
        async with self._create_lock:
            if interaction_id and (had := await self.store.game_by_interaction(interaction_id)):
                return had, Reply(f"Game #{had.id} was already imported.", ephemeral=True)
            thread_id = int(await make_thread(f"{title} import")) if make_thread else None
            game_id = await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                title=title,
                options=done.options,
                seed=done.seed,
                creator_id=who.user_id,
                creator_name=who.name,
                interaction_id=interaction_id,
                status="finished" if done.finished else "active",
                players=done.seats,
                actions=actions,
            )
        record = await self.game_record(game_id)
        self.evict(game_id)
        where = f" in <#{thread_id}>" if thread_id else ""
        reply = Reply(f"Imported {title} game #{game_id}{where} with {len(actions)} actions.")
        if not turn.finished:
            self._add_ping(reply, record, turn)
        async with self._locks[game_id]:
            await self._turn_changed(record, turn, len(actions), done.view.round, reply)
        self._draw(reply, Draw(done.view, ("status",), game_id, len(actions)))
        return record, reply

    @classmethod
    def _view_and_turn(cls, game: Game) -> tuple[GameView, Turn]:
        """On an engine thread: the game's view and who acts."""
        return game.view(), cls._turn(game)


    async def picture(self, game_id: int, kind: str) -> Reply:
        # "region:A1-D8" and "area:E12" (bot.mapviews): a part of the map, legible on a phone
        if kind not in IMAGE_KINDS and kind.partition(":")[0] not in ("region", "area"):
            raise BotError(f"Choose one of {', '.join(IMAGE_KINDS)}.")
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            if record.status == "open":
                raise BotError("The game has not started yet.")
            live = await self._live(game_id)
            view: GameView = await self.run_engine(live.game.view)
            stamp = len(live.records)
        reply = Reply(f"Game #{game_id}: {view.round} — phase {view.phase}.")
        part, _, where = kind.partition(":")
        if where:
            reply.text += f" {'Region' if part == 'region' else 'The hexes around'} {where}."
        # /status: the phone card first, then the full sheet
        await self._add_images(reply, game_id, stamp, view,
                               ("card", "status") if kind == "status" else (kind,))
        if not reply.attachments:
            reply.text += " (images are not available on this bot)"
        return reply

    async def history(self, game_id: int, count: int = 10) -> Reply:
        """The last moves in effect with what followed from each, under round headers."""
        from bot.story import StoryService

        return await StoryService(self).history(game_id, count)

    async def catchup(self, who: Who, game_id: int) -> Reply:
        """What happened since the player's last move, then the current card."""
        from bot.story import StoryService

        return await StoryService(self).catchup(who.user_id, game_id)
