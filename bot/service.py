"""The bot's use cases: load, apply, persist, decide what to post. No Discord types here.

Every call into `engine/` and `render/` is in this module (`RealEngine`, `RealRenderer`), so
the rest of the bot never depends on their internals. Flow of one move: take the game's lock
→ check the user may act for the acting entity → engine applies (or raises with a reason) →
store appends the action in one transaction → render what changed (off the event loop) →
return the Reply (summary, images, whom to ping).
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import random
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot import history, summary
from bot.replies import Attachment, BotError, Button, Reply
from bot.store import ActionRecord, DuplicateInteraction, GameRecord, Store

log = logging.getLogger(__name__)

TITLES = ("18MS", "1870", "18MEX")
IMAGE_KINDS = ("map", "market", "status")


# -- ports: the only places that touch engine/ and render/ ------------------------------------


class EnginePort(Protocol):
    def new_game(
        self, title: str, players: Sequence[tuple[str, str]], options: Sequence[str], seed: int
    ) -> Any: ...
    def is_rejection(self, err: Exception) -> bool: ...
    def dump(self, action: Any) -> dict[str, Any]: ...
    def import_game(self, data: dict[str, Any]) -> Any: ...
    def export_game(self, game: Any, meta: dict[str, Any]) -> dict[str, Any]: ...
    def best_routes(self, game: Any) -> list[dict[str, Any]] | None: ...
    def title_meta(self, title: str) -> dict[str, Any]: ...


class RealEngine:
    """engine/ as documented in docs/ENGINE-API.md, imported lazily."""

    def new_game(
        self, title: str, players: Sequence[tuple[str, str]], options: Sequence[str], seed: int
    ) -> Any:
        from engine.game import Game

        kwargs: dict[str, Any] = {"players": list(players), "options": list(options)}
        if "seed" in inspect.signature(Game).parameters:
            kwargs["seed"] = seed
        return Game(title, **kwargs)

    def is_rejection(self, err: Exception) -> bool:
        from engine import EngineError

        return isinstance(err, EngineError)

    def dump(self, action: Any) -> dict[str, Any]:
        from engine import dump_action

        return dump_action(action) if not isinstance(action, dict) else dict(action)

    def import_game(self, data: dict[str, Any]) -> Any:
        from engine.io.export18xx import import_game

        return import_game(data)

    def export_game(self, game: Any, meta: dict[str, Any]) -> dict[str, Any]:
        from engine.io.export18xx import export_game

        params = inspect.signature(export_game).parameters
        kwargs = {k: v for k, v in meta.items() if k in params}
        return dict(export_game(game, **kwargs))

    def best_routes(self, game: Any) -> list[dict[str, Any]] | None:
        """The solver's best run for the operating corporation (None: no solver)."""
        try:
            from engine.routes.api import best_routes_for
        except ImportError:
            return None
        # a run the rules require in this position (1870 connection run: a route between home
        # and destination) is offered by the engine's legal answer: use it
        for choice in getattr(game.legal(), "choices", ()):
            if choice.get("type") == "run_routes":
                return list(choice.get("routes", []))
        solution = best_routes_for(game, time_limit_ms=2000)
        return [
            r if isinstance(r, dict) else r.model_dump(exclude_none=True) for r in solution.routes
        ]

    def title_meta(self, title: str) -> dict[str, Any]:
        from engine.core.data import load_title_data

        return dict(load_title_data(title).meta)


class Renderer(Protocol):
    def render(self, kind: str, view: Any) -> bytes | None: ...


class RealRenderer:
    """render/ (render_map / render_market / render_status: view -> PNG), if it is installed."""

    def __init__(self) -> None:
        self._missing: set[str] = set()

    def render(self, kind: str, view: Any) -> bytes | None:
        name = "render_map" if kind == "closeup" else f"render_{kind}"
        if name in self._missing:
            return None
        try:
            import render

            fn = getattr(render, name, None)
            if fn is None:
                module = __import__(f"render.{name[len('render_'):]}", fromlist=[name])
                fn = getattr(module, name)
        except (ImportError, AttributeError):
            log.warning("render.%s is not available: posting text only", name)
            self._missing.add(name)
            return None
        if kind == "closeup":  # the hexes of the last move, legible on a phone
            return bytes(fn(view, focus=tuple(getattr(view, "last_hexes", ()))))
        return bytes(fn(view))


# -- the service ------------------------------------------------------------------------------


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


MoveBuilder = Callable[[Any], dict[str, Any]]


class Service:
    def __init__(
        self,
        store: Store,
        *,
        engine: EnginePort | None = None,
        renderer: Renderer | None = None,
        cache_size: int = 200,
        render_images: bool = True,
    ) -> None:
        self.store = store
        self.engine: EnginePort = engine or RealEngine()
        self.renderer: Renderer = renderer or RealRenderer()
        self.render_images = render_images
        self._cache: OrderedDict[int, Live] = OrderedDict()
        self._cache_size = cache_size
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._create_lock = asyncio.Lock()

    # -- loading ----------------------------------------------------------------------------

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
            legal = live.game.legal()
            if player.engine_id not in self._acting(live.game, legal):
                return None
        return legal

    @staticmethod
    def _acting(game: Any, legal: Any) -> tuple[str, ...]:
        acting = tuple(str(p) for p in game.acting_players())
        controller = getattr(legal, "player", None)
        return (str(controller),) if controller is not None else acting

    # -- lifecycle --------------------------------------------------------------------------

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
        meta = self.engine.title_meta(title)
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
            limit = int(self.engine.title_meta(record.title).get("players", {}).get("max", 99))
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
            limits = self.engine.title_meta(record.title).get("players", {})
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
                game = self.engine.new_game(record.title, players, record.options, record.seed)
            except Exception as err:
                if self.engine.is_rejection(err):
                    raise BotError(str(err)) from err
                raise
            await self.store.start_game(game_id, order)
            record = await self.game_record(game_id)
            self._cache[game_id] = Live(record, game, [])
            view = game.view()
            reply = Reply(
                f"Game #{game_id} ({record.title}) starts. Seats: "
                + ", ".join(f"{i + 1}. {by_id[u].name}" for i, u in enumerate(order))
                + "."
            )
            self._add_ping(reply, record, game)
        await self._add_images(reply, view, ("status", "card"))
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

    async def list_games(self, guild_id: int | None) -> Reply:
        games = await self.store.games_in_guild(guild_id)
        if not games:
            return Reply(
                "No games are open or running here. Create one with /create.", ephemeral=True
            )
        lines = []
        for g in games:
            where = f"<#{g.thread_id}>" if g.thread_id else f"<#{g.channel_id}>"
            names = ", ".join(p.name for p in g.seated)
            lines.append(f"#{g.id} {g.title} ({g.status}) in {where}: {names}")
        return Reply(_clip("\n".join(lines)), ephemeral=True)

    async def export(self, game_id: int) -> Reply:
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            if record.status == "open":
                raise BotError("The game has not started: there is nothing to export.")
            live = await self._live(game_id)
            meta = {"game_id": game_id, "id": game_id, "title": record.title}
            data = self.engine.export_game(live.game, meta)
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
            title = self._check_title(str(data.get("title", "")))
            exported = [
                (
                    str(p["id"] if p.get("id") is not None else p["name"]),
                    str(p.get("name", p["id"])),
                )
                for p in data["players"]
            ]
        except (KeyError, TypeError) as err:
            raise BotError("This file is not an 18xx.games game export.") from err
        seats: list[tuple[int, str, str, int | None]] = []
        for seat, (pid, pname) in enumerate(exported):
            user = users.get(pid) or users.get(pname)
            if user is None:
                raise BotError(f"Map the export's player {pname} (id {pid}) to a server member.")
            seats.append((user[0], user[1] or pname, pid, seat))
        if len({s[0] for s in seats}) != len(seats):
            raise BotError("Each export player must be mapped to a different member.")
        try:
            game = await asyncio.to_thread(self.engine.import_game, data)
        except Exception as err:
            if self.engine.is_rejection(err):
                raise BotError(f"The engine cannot replay this game: {err}") from err
            raise
        actions = [self.engine.dump(a) for a in game.log]
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
                status="finished" if game.finished else "active",
                players=seats,
                actions=actions,
            )
        record = await self.game_record(game_id)
        self.evict(game_id)
        where = f" in <#{thread_id}>" if thread_id else ""
        reply = Reply(f"Imported {title} game #{game_id}{where} with {len(actions)} actions.")
        if not game.finished:
            self._add_ping(reply, record, game)
        await self._add_images(reply, game.view(), ("status",))
        return record, reply

    # -- moves ------------------------------------------------------------------------------

    async def act(
        self, who: Who, game_id: int, build: MoveBuilder, *, interaction_id: str | None
    ) -> Reply:
        """Apply one move built from the acting entity's legal options."""
        async with self._locks[game_id]:
            if interaction_id and await self.store.interaction_seen(interaction_id):
                return Reply("This command was already handled.", ephemeral=True)
            live, player_engine_id = await self._seated_live(who, game_id)
            legal = live.game.legal()
            acting = self._acting(live.game, legal)
            if player_engine_id not in acting:
                names = ", ".join(self._name(live.record, a) for a in acting) or "nobody"
                raise BotError(f"It is not your turn: waiting for {names}.")
            action = build(legal)
            entity = getattr(legal, "entity", None)
            if entity is not None:
                action.setdefault("entity", entity)
                action.setdefault("entity_type", getattr(legal, "entity_type", "player"))
            else:
                action.setdefault("entity", player_engine_id)
                action.setdefault("entity_type", "player")
            if action.get("type") == "run_routes" and action.get("routes") == "best":
                try:
                    best = await asyncio.to_thread(self.engine.best_routes, live.game)
                except Exception as err:
                    if self.engine.is_rejection(err):
                        raise BotError(str(err)) from err
                    raise
                if best is None:
                    raise BotError(
                        "The engine cannot compute best routes yet: give your routes as JSON, "
                        'e.g. [{"train": "2+-0", "connections": [["E12", "F13"]]}].'
                    )
                action["routes"] = best
            reply, draw = await self._apply(live, who, action, interaction_id)
        await self._draw(reply, draw)
        return reply

    async def _seated_live(self, who: Who, game_id: int) -> tuple[Live, str]:
        record = await self.game_record(game_id)
        if record.status != "active":
            raise BotError(f"Game #{game_id} is {record.status}: no moves can be made.")
        player = record.player_by_user(who.user_id)
        if player is None:
            raise BotError("You are not a player in this game.")
        return await self._live(game_id), player.engine_id

    async def _apply(
        self,
        live: Live,
        who: Who | None,
        action: dict[str, Any],
        interaction_id: str | None,
        *,
        user_id: int | None = None,
    ) -> tuple[Reply, Draw]:
        """Engine first, then the store, then the reply. Caller holds the game's lock and
        draws the images (`_draw`) after releasing it."""
        game = live.game
        before = game.view()
        try:
            stored = game.apply(action)
        except Exception as err:
            if self.engine.is_rejection(err):
                raise BotError(str(err)) from err
            raise
        dumped = self.engine.dump(stored) if stored is not None else action
        seq = len(live.records) + 1
        uid = user_id if user_id is not None else (who.user_id if who else None)
        try:
            await self.store.append_action(
                live.record.id,
                seq,
                dumped,
                interaction_id=interaction_id,
                user_id=uid,
                finished=bool(game.finished),
            )
        except DuplicateInteraction:
            self.evict(live.record.id)  # the engine moved but the store did not: reload
            return Reply("This command was already handled.", ephemeral=True), Draw(None, ())
        except BaseException:
            self.evict(live.record.id)
            raise
        live.records.append(ActionRecord(seq, dumped, interaction_id, uid, ""))
        actor = who.name if who else "Someone"
        entity = str(action.get("entity")) if action.get("entity_type") != "player" else None
        reply = Reply(summary.line(actor, entity, dumped))
        # the move is stored: from here on, a failure must not hide that it was made
        try:
            after = game.view()
            kinds = self._changed(before, after)
            if game.finished:
                live.record = await self.game_record(live.record.id)
                reply.text += "\n" + self._result_text(live.record, game)
                kinds = ("status", *[k for k in kinds if k != "status"])
            else:
                self._add_ping(reply, live.record, game)
        except Exception:
            log.exception("game %s: the move was stored but the follow-up failed", live.record.id)
            reply.text += "\n(The move was made, but the bot could not work out who acts next.)"
            return reply, Draw(None, ())
        return reply, Draw(after, kinds)

    @staticmethod
    def _changed(before: Any, after: Any) -> tuple[str, ...]:
        kinds = []
        if getattr(before, "hexes", None) != getattr(after, "hexes", None):
            if getattr(after, "last_hexes", ()):
                kinds.append("closeup")
            kinds.append("map")
        if getattr(before, "market", None) != getattr(after, "market", None):
            kinds.append("market")
        turn = ("acting", "round")  # the turn passed: the phone card (render.card)
        if any(getattr(before, k, None) != getattr(after, k, None) for k in turn):
            kinds.append("card")
        return tuple(kinds)

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

    # -- undo / redo ------------------------------------------------------------------------

    async def undo(self, who: Who, game_id: int, *, interaction_id: str | None) -> Reply:
        """Undo the latest move: freely if it was yours, else with its author's consent."""
        async with self._locks[game_id]:
            if interaction_id and await self.store.interaction_seen(interaction_id):
                return Reply("This command was already handled.", ephemeral=True)
            live, engine_id = await self._seated_live(who, game_id)
            stack, _undone = history.effective(live.records)
            if not stack:
                raise BotError("There is nothing to undo.")
            last = stack[-1]
            author = self._author(live.record, last)
            if author is None or author == who.user_id:
                action = {"type": "undo", "entity": engine_id, "entity_type": "player"}
                reply, draw = await self._apply(live, who, action, interaction_id)
                request_id = None
            else:
                request_id = await self.store.create_undo_request(
                    game_id, who.user_id, author, len(live.records), interaction_id
                )
        if request_id is None:
            await self._draw(reply, draw)
            tail = reply.text[reply.text.index("\n") :] if "\n" in reply.text else ""
            reply.text = f"**{who.name}** takes back: {summary.describe(last.action)}.{tail}"
            return reply
        assert author is not None  # a consent request always has an author
        author_name = self._user_name(live.record, author)
        return Reply(
            f"<@{author}>, **{who.name}** asks to undo your move: "
            f"{summary.describe(last.action)}. {author_name}, do you agree?",
            mention=(author,),
            buttons=[
                Button(f"undo:yes:{request_id}", "Allow undo", "success"),
                Button(f"undo:no:{request_id}", "Refuse", "danger"),
            ],
        )

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

    async def answer_undo(
        self, who: Who, request_id: int, accept: bool, *, interaction_id: str | None
    ) -> Reply:
        request = await self.store.undo_request(request_id)
        if request is None:
            raise BotError("This undo request no longer exists.")
        if who.user_id != request.approver_id:
            raise BotError("Only the player whose move would be undone can answer.")
        async with self._locks[request.game_id]:
            if interaction_id and await self.store.interaction_seen(interaction_id):
                return Reply("This command was already handled.", ephemeral=True)
            live = await self._live(request.game_id)
            if request.status != "pending":
                raise BotError(f"This request was already {request.status}.")
            if len(live.records) != request.log_length or live.record.status != "active":
                await self.store.close_undo_request(request_id, "stale")
                raise BotError("The game has moved on since this request; ask again.")
            if not accept:
                await self.store.close_undo_request(request_id, "declined")
                return Reply(
                    f"**{who.name}** refuses the undo asked by <@{request.requester_id}>.",
                    mention=(),
                )
            if not await self.store.close_undo_request(request_id, "accepted"):
                raise BotError("This request was already answered.")
            requester = live.record.player_by_user(request.requester_id)
            stack, _ = history.effective(live.records)
            undone = summary.describe(stack[-1].action) if stack else "the last move"
            action = {
                "type": "undo",
                "entity": requester.engine_id if requester else str(request.requester_id),
                "entity_type": "player",
            }
            reply, draw = await self._apply(
                live, None, action, interaction_id, user_id=request.requester_id
            )
        await self._draw(reply, draw)
        name = requester.name if requester else "Someone"
        tail = reply.text[reply.text.index("\n") :] if "\n" in reply.text else ""
        reply.text = f"**{who.name}** agrees: **{name}** takes back {undone}.{tail}"
        return reply

    async def redo(self, who: Who, game_id: int, *, interaction_id: str | None) -> Reply:
        async with self._locks[game_id]:
            if interaction_id and await self.store.interaction_seen(interaction_id):
                return Reply("This command was already handled.", ephemeral=True)
            live, engine_id = await self._seated_live(who, game_id)
            _stack, undone = history.effective(live.records)
            if not undone:
                raise BotError("There is nothing to redo (a new move clears what was undone).")
            author = self._author(live.record, undone[-1])
            undoer = live.records[-1].user_id if live.records else None
            if author not in (None, who.user_id) and undoer != who.user_id:
                raise BotError("Only the player who made that move, or who undid it, may redo it.")
            action = {"type": "redo", "entity": engine_id, "entity_type": "player"}
            reply, draw = await self._apply(live, who, action, interaction_id)
        await self._draw(reply, draw)
        tail = reply.text[reply.text.index("\n") :] if "\n" in reply.text else ""
        reply.text = f"**{who.name}** redoes: {summary.describe(undone[-1].action)}.{tail}"
        return reply

    # -- information ------------------------------------------------------------------------

    async def picture(self, game_id: int, kind: str) -> Reply:
        if kind not in IMAGE_KINDS:
            raise BotError(f"Choose one of {', '.join(IMAGE_KINDS)}.")
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            if record.status == "open":
                raise BotError("The game has not started yet.")
            live = await self._live(game_id)
            view = live.game.view()
        reply = Reply(
            f"Game #{game_id}: {getattr(view, 'round', '')} — phase {getattr(view, 'phase', '?')}."
        )
        await self._add_images(reply, view, (kind,))
        if not reply.attachments:
            reply.text += " (images are not available on this bot)"
        return reply

    async def history(self, game_id: int, count: int = 10) -> Reply:
        async with self._locks[game_id]:
            live = await self._live(game_id)
        stack, _ = history.effective(live.records)
        count = max(1, min(count, 50))
        lines = []
        for rec in stack[-count:]:
            entity = rec.action.get("entity")
            actor = (
                self._user_name(live.record, rec.user_id)
                if rec.user_id is not None
                else self._name(live.record, str(entity))
            )
            ent = str(entity) if rec.action.get("entity_type") != "player" else None
            lines.append(f"{rec.seq}. {summary.line(actor, ent, rec.action)}")
        return Reply(_clip("\n".join(lines) or "No moves yet."), ephemeral=True)


def _clip(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
