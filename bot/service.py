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
from bot.play import MoveBuilder, ServicePlay
from bot.ports import EnginePort, ImportStopped, RealEngine, RealRenderer, Renderer
from bot.replies import Attachment, BotError, Reply
from bot.seats import ServiceSeats
from bot.store import GameRecord, Store
from engine import EngineError, dump_action
from engine.game import Game
from engine.io.export18xx import check_export, export_game
from engine.view import GameView

__all__ = [
    "IMAGE_KINDS", "TITLES", "Draw", "EnginePort", "Live", "MoveBuilder", "RealEngine",
    "RealRenderer", "Renderer", "Service", "ServiceCore", "ServicePlay", "Who",
]

log = logging.getLogger(__name__)

TITLES = ("18MS", "1870", "18MEX")
IMAGE_KINDS = ("map", "market", "status", "card")




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
        for t in TITLES:
            if t.lower() == title.strip().lower():
                return t
        raise BotError(f"Unknown title {title!r}: choose one of {', '.join(TITLES)}.")

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
        data: dict[str, Any],
        users: dict[str, tuple[int, str]],
        interaction_id: str | None,
        make_thread: Callable[[str], Any] | None = None,
    ) -> tuple[GameRecord, Reply]:
        """Import an 18xx.games export; `users` maps the export's player ids (as text) or
        names to (Discord user id, display name)."""
        try:
            check_export(data)
        except EngineError as err:
            raise BotError(f"This file cannot be imported: {err}") from err
        if not isinstance(data, dict) or not isinstance(data.get("players"), list):
            raise BotError("This file is not an 18xx.games game export.")
        try:
            title = self._check_title(str(data.get("title", "")))
            exported = [
                (
                    str(p["id"] if p.get("id") is not None else p["name"]),
                    str(p.get("name", p["id"])),
                )
                for p in data["players"]
            ]
        except (KeyError, TypeError, AttributeError) as err:
            raise BotError("This file is not an 18xx.games game export.") from err
        seats: list[tuple[int, str, str, int | None]] = []
        for seat, (pid, pname) in enumerate(exported):
            user = users.get(pid) or users.get(pname)
            if user is None:
                raise BotError(f"Map the export's player {pname} (id {pid}) to a server member.")
            seats.append((user[0], user[1] or pname, pid, seat))
        if len({s[0] for s in seats}) != len(seats):
            raise BotError("Each export player must be mapped to a different member.")
        # (the monotonic clock is the machine's: an import process reads the same one)
        deadline = time.monotonic() + self.import_seconds
        try:
            finished, actions, view, turn = await self.run_import(replay_import, data, deadline)
        except ImportStopped:
            raise BotError(f"This game takes longer than {self.import_seconds:g} s to replay "
                           "here; it was not imported.") from None
        except EngineError as err:
            raise BotError(f"The engine cannot replay this game: {err}") from err
        settings = data.get("settings") or {}
        async with self._create_lock:
            if interaction_id and (done := await self.store.game_by_interaction(interaction_id)):
                return done, Reply(f"Game #{done.id} was already imported.", ephemeral=True)
            thread_id = int(await make_thread(f"{title} import")) if make_thread else None
            game_id = await self.store.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                title=title,
                options=list(settings.get("optional_rules") or []),
                seed=int(settings.get("seed") or 0),
                creator_id=who.user_id,
                creator_name=who.name,
                interaction_id=interaction_id,
                status="finished" if finished else "active",
                players=seats,
                actions=actions,
            )
        record = await self.game_record(game_id)
        self.evict(game_id)
        where = f" in <#{thread_id}>" if thread_id else ""
        reply = Reply(f"Imported {title} game #{game_id}{where} with {len(actions)} actions.")
        if not turn.finished:
            self._add_ping(reply, record, turn)
        async with self._locks[game_id]:
            await self._turn_changed(record, turn, len(actions), view.round, reply)
        self._draw(reply, Draw(view, ("status",), game_id, len(actions)))
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


def replay_import(data: dict[str, Any], deadline: float
                  ) -> tuple[bool, list[str], GameView, Turn]:
    """An import's replay (in the import process, or on the import thread: `run_import`),
    stopped once the monotonic clock passes `deadline`: whether the game is over, its log as
    stored (each action's JSON text, written here rather than on the event loop: 44 ms for
    the 20,000 actions of an import at the limit), its view and who acts next."""
    game = ports.import_game(data, lambda: time.monotonic() > deadline)
    actions = [json.dumps(dump_action(a)) for a in game.log]
    return game.finished, actions, game.view(), ServiceCore._turn(game)
