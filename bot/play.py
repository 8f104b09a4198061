"""Moves: apply a player's move (check the user may act, the engine applies or refuses, the
store appends it in one transaction, then what to post). Undo / redo and ending a game early
are in bot/takeback.py."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot import consent, moves, ports, story, summary
from bot.core import Draw, Live, ServiceCore, Turn, TurnChange, Who, key_of
from bot.images import Found, LazyView
from bot.naming import Named
from bot.replies import Attachment, BotError, Reply
from bot.store import ActionRecord, DuplicateInteraction, SeqTaken
from engine import EngineError, dump_action, names
from engine.actions import Action
from engine.game import Game
from engine.legal import Legal
from engine.routes.byname import routes_by_name
from engine.view import GameView, ViewKey
from engine.viewbuild import round_name
from render.rotations import render_rotations
from render.routes import render_routes

log = logging.getLogger(__name__)

MoveBuilder = Callable[[Named], dict[str, Any]]


class ServicePlay(ServiceCore):
    async def act(
        self, who: Who, game_id: int, build: MoveBuilder, *, interaction_id: str | None,
        at_position: int | None = None,
    ) -> Reply:
        """Apply one move built from the acting entity's legal options; with `at_position`
        only if the stored log still has that length (a mail answers one position: checked
        under the game's lock, so another player's move cannot slip in between).

        An interaction already handled (Discord delivering it again, a mail sent twice) is
        answered so: when the engine accepts the move again, the store refuses its id
        (`DuplicateInteraction`); when the move is refused, the store is asked whether the
        interaction was handled before the refusal is sent. A move reads nothing else first
        (the game's record is kept in memory: `Store.game`)."""
        try:
            return await self._act(who, game_id, build, interaction_id, at_position)
        except BotError:
            if interaction_id and await self.store.interaction_seen(interaction_id):
                return Reply("This command was already handled.", ephemeral=True)
            raise

    async def _act(self, who: Who, game_id: int, build: MoveBuilder, interaction_id: str | None,
                   at_position: int | None) -> Reply:
        async with self._locks[game_id]:
            live, player_engine_id = await self._seated_live(who, game_id)
            if at_position is not None and len(live.records) != at_position:
                raise BotError(f"This answers the position after move {at_position}; the game "
                               f"has moved on (move {len(live.records)}): answer the latest "
                               "mail.")
            # the legal answer with names (a player may type a place or a company's name): as
            # the groundwork (or an autocomplete) left it when the state is unchanged since;
            # else worked out now (can take a while: off the loop) in one hop with the move
            # built from it and, when it needs nothing more from here, applied (`_early`)
            early: _Early | None = None
            ready = self._kept_ready(live)
            if ready is not None:
                legal, turn, prepared = ready
                named = prepared if player_engine_id in turn.acting else None
            else:
                early = await self.run_engine(
                    self._early, live.game, player_engine_id, build,
                    story.player_names(live.record), (live.record.id, len(live.records)))
                legal, turn, named = early.legal, early.turn, early.named
                if named is not None and early.done is None and early.refused is None:
                    live.ready = (legal, turn, named)
            acting = turn.acting
            if named is None:
                names = ", ".join(self._name(live.record, a) for a in acting) or "nobody"
                raise BotError(f"It is not your turn: waiting for {names}.")
            try:
                if early is None:
                    action = build(named)
                elif early.action is None:  # the builder's refusal, raised here as before
                    raise early.unbuilt or RuntimeError("no move built")
                else:
                    action = early.action
            except moves.NeedsRotation as need:  # the rotations that fit, numbered
                return await self._rotations(live, need)
            if early is None:
                action.setdefault("entity", legal.entity)
                action.setdefault("entity_type", legal.entity_type)
            elif early.refused is not None:  # the move, applied in that hop, was refused
                raise BotError(str(early.refused)) from early.refused
            elif early.done is not None:  # applied in that hop: stored, then the reply
                reply, draw = await self._apply(live, who, action, interaction_id,
                                                done=early.done)
                self._draw(reply, draw)
                return reply
            if action.get("type") == "buy_train":  # from another player's corporation: ask
                asked = await self._ask_seller(live, who, legal, action, player_engine_id)
                if asked is not None:
                    return asked
            if action.get("type") == "run_routes" and action.get("routes") == "named":
                action["routes"] = await self._named_routes(live.game, str(action.pop("typed")))
            propose = action.get("type") == "run_routes" and action.get("routes") == "propose"
            if propose:
                action["routes"] = "best"
            if action.get("type") == "run_routes" and action.get("routes") == "best":
                try:
                    action["routes"] = await self.run_engine(ports.best_routes, live.game)
                except EngineError as err:
                    raise BotError(str(err)) from err
                if propose:  # shown to the president, run when confirmed (bot/consent.py)
                    return await consent.propose(self, who, game_id, len(live.records), action,
                                                 live.game)
            reply, draw = await self._apply(live, who, action, interaction_id)
        self._draw(reply, draw)
        return reply

    def _early(self, game: Game, player: str, build: MoveBuilder, shown: dict[str, str],
               story_key: tuple[int, int]) -> _Early:
        """On an engine thread, a move's one hop when its legal answer was not worked out
        ahead: the legal answer and whose turn it is; if `player` acts now, the answer with
        names and the move built from it (the builder's refusal kept, raised on the loop);
        then, unless the move needs the loop first (a train: its seller may be asked; a run:
        its routes), the move applied as `_apply` would (`_engine_move`, `agreed` False)."""
        legal, turn, named = self._answer(game, player)
        if named is None:
            return _Early(legal, turn)
        out = _Early(legal, turn, named)
        try:
            action = build(named)
        except Exception as err:
            out.unbuilt = err
            return out
        action.setdefault("entity", legal.entity)
        action.setdefault("entity_type", legal.entity_type)
        out.action = action
        if action.get("type") in ("buy_train", "run_routes"):
            return out
        try:
            out.done = self._engine_move(game, action, False, shown, story_key)
        except EngineError as err:
            out.refused = err
        return out

    async def _rotations(self, live: Live, need: moves.NeedsRotation) -> Reply:
        """The tile on the hex in each rotation that fits, numbered, to the player alone."""
        reply = Reply(f"{need} Each is numbered on the picture: "
                      f"/lay hex:{need.hex_name} tile:{need.tile} rotation:N", ephemeral=True)
        if self.render_images:
            png = await self.run_engine(_draw_rotations, live.game, need)
            reply.attachments.append(Attachment("rotations.png", png))
        return reply

    async def _ask_seller(self, live: Live, who: Who, legal: Legal, action: dict[str, Any],
                          buyer: str) -> Reply | None:
        """A train offered by a corporation another player presides: the request to its
        president (bot/consent.py), or None to buy at once."""
        found = await self.run_engine(consent.seller_to_ask, live.game, action, buyer)
        if found is None:
            return None
        corp, president = found
        seller = live.record.player_by_engine_id(president)
        try:
            price = int(action.get("price", -1))
        except (TypeError, ValueError):
            return None
        offered = any(t[0] == action.get("train") and t[2] <= price <= t[3]
                      for t in legal.trains)
        if seller is None or seller.user_id == who.user_id or not offered:
            return None  # the engine judges it (and refuses what is not offered)
        return await consent.ask(self, who, live.record.id, len(live.records), action, corp,
                                 seller.user_id, seller.name)

    async def _named_routes(self, game: Game, typed: str) -> list[dict[str, Any]]:
        """Routes typed as stops per train, matched to legal routes on an engine thread."""
        try:
            return await self.run_engine(routes_by_name, game, typed)
        except EngineError as err:
            raise BotError(str(err)) from err

    async def _apply(
        self,
        live: Live,
        who: Who | None,
        action: dict[str, Any],
        interaction_id: str | None,
        *,
        user_id: int | None = None,
        agreed: bool = False,
        done: _Moved | None = None,
    ) -> tuple[Reply, Draw]:
        """Engine first, then the store, then the reply. Caller holds the game's lock and
        draws the images (`_draw`) after releasing it. `agreed`: an end of the game decided
        by the game's creator (or an admin), not a move. `done`: the engine's part, done
        already (`_early`)."""
        game = live.game
        if done is None:
            try:
                # the engine works on its threads (the caller holds the game's lock): the
                # event loop keeps serving other games meanwhile
                # one hop: the move, what it said and what follows (stored below; a move the
                # store refuses drops the game from the cache, so nothing worked out here is
                # kept)
                done = await self.run_engine(self._engine_move, game, action, agreed,
                                             story.player_names(live.record),
                                             (live.record.id, len(live.records)))
            except EngineError as err:
                raise BotError(str(err)) from err
        dumped = done.dumped
        seq = len(live.records) + 1
        uid = user_id if user_id is not None else (who.user_id if who else None)
        # whose turn it is now, stored with the action in one transaction (one commit a move)
        change: TurnChange | None = None
        if done.after is not None:
            try:
                change = await self._turn_change(live.record, done.after[0], seq, done.after[1])
            except Exception:
                log.exception("game %s: the turn change could not be worked out", live.record.id)
        try:
            await self.store.append_action(
                live.record.id,
                seq,
                dumped,
                interaction_id=interaction_id,
                user_id=uid,
                finished=bool(game.finished),
                also=change.steps if change is not None else (),
            )
        except DuplicateInteraction:
            story.forget(live.record.id, seq, game)
            self.evict(live.record.id)  # the engine moved but the store did not: reload
            return Reply("This command was already handled.", ephemeral=True), Draw(None, ())
        except SeqTaken:  # another process stored a move first: this one was not stored
            story.forget(live.record.id, seq, game)
            self.evict(live.record.id)
            return Reply("Another move was stored at the same moment; yours was not. Look at "
                         "the game and try again.", ephemeral=True), Draw(None, ())
        except BaseException:
            story.forget(live.record.id, seq, game)
            self.evict(live.record.id)
            raise
        live.records.append(ActionRecord(seq, dumped, interaction_id, uid, ""))
        self._grew(live)
        actor = who.name if who else "Someone"
        entity = str(action.get("entity")) if action.get("entity_type") != "player" else None
        phrase, said = done.told if done.told is not None else (None, [])
        reply = Reply(story.reply_text(summary.line(actor, entity, dumped, phrase), said))
        if dumped.get("type") == "run_routes" and dumped.get("routes") and self.render_images:
            try:  # the run drawn: each train's route in its colour (render/routes.py)
                png = await self.run_engine(_draw_run, game, list(dumped["routes"]))
            except Exception:
                log.exception("game %s: the run could not be drawn", live.record.id)
                png = None
            if png is not None:
                reply.attachments.append(Attachment("routes.png", png))
        # the move is stored: from here on, a failure must not hide that it was made
        try:
            if done.after is None:
                raise done.failed or RuntimeError("no view after the move")
            turn = done.after[0]
            kinds: tuple[str, ...] = ()  # which images changed: worked out when drawn
            if turn.finished:
                live.record = await self.game_record(live.record.id)
                reply.text += "\n" + self._result_text(live.record, turn)
                if self.render_images:  # the players' worth and the prices over the game
                    chart = await self.run_engine(story.final_chart, game,
                                                  story.player_names(live.record))
                    reply.attachments.append(Attachment("standings.png", chart))
                kinds = ("status",)
            else:
                self._add_ping(reply, live.record, turn)
            if change is None:
                raise RuntimeError("no turn change worked out")
            await change.written(reply)
        except Exception:
            log.exception("game %s: the move was stored but the follow-up failed", live.record.id)
            reply.text += "\n(The move was made, but the bot could not work out who acts next.)"
            return reply, Draw(None, ())
        stamp = len(live.records)
        self.groundwork.add(live.record.id, stamp)  # the next move's, when nothing waits
        return reply, Draw(self._lazy_view(live.record.id, stamp), kinds,
                           live.record.id, stamp)

    def _lazy_view(self, game_id: int, stamp: int) -> LazyView:
        """The images of the game's state after `stamp` stored moves, worked out when their
        turn to be drawn comes (bot/images.py), under the game's lock, if the game is still
        at that state (else None: a newer state's images are drawn instead): which changed
        since the state last looked at (`Live.key`), and the view, built if any did or
        `wanted`. A game the cache dropped meanwhile is loaded again for it."""

        async def build(wanted: bool) -> Found | None:
            async with self._locks[game_id]:
                # the game as the move left it, or loaded again from its stored log when the
                # cache has dropped it since (its images are not lost with it)
                try:
                    live = await self._live(game_id)
                except Exception:
                    log.exception("game %s: could not load the game to draw its images", game_id)
                    return None
                if len(live.records) != stamp:
                    return None
                # a key of this very state: the game was loaded at it (what the move changed
                # is unknown: every image is drawn)
                before = live.key if live.key_at < stamp else None
                key, changed, view = await self.run_engine(_looked_at, live.game, before, wanted)
                live.key, live.key_at = key, stamp
                return changed, view

        return LazyView(build)

    def _engine_move(self, game: Game, action: dict[str, Any], agreed: bool,
                     shown: dict[str, str], story_key: tuple[int, int]) -> _Moved:
        """On an engine thread, one hop for a move: the move (or its refusal: EngineError),
        then the move in words and what followed from it (bot/story.py), then who acts next
        (their legal answer is worked out later: bot/quiet.py's Groundwork, or their first
        command) and the round's name. Which images changed is worked out when they are drawn
        (`_lazy_view`). A failure after the move is kept in the answer (the move stands: the
        caller stores it, then reports the failure as before)."""
        stored: Action = game.apply(action, agreed=agreed)
        dumped = dump_action(stored)
        out = _Moved(dumped)
        try:  # story_key: the game and the log's length before this move
            out.told = story.told(game, dumped, shown, story_key)
        except Exception:
            log.exception("game %s: the move's events could not be said", story_key[0])
        try:
            out.after = (self._turn(game), round_name(game))
        except Exception as err:
            out.failed = err
        return out


def changed_images(before: ViewKey | GameView | None, after: ViewKey | GameView
                   ) -> tuple[str, ...]:
    """The kinds of image that differ between two states (every one when `before` is
    unknown)."""
    kinds = []
    if before is None or before.hexes != after.hexes:
        if after.last_hexes:
            kinds.append("closeup")
        kinds.append("map")
    if before is None or before.market != after.market:
        kinds.append("market")
    # the turn passed: the phone card (render.card)
    if before is None or (before.acting, before.round) != (after.acting, after.round):
        kinds.append("card")
    return tuple(kinds)


@dataclass(slots=True)
class _Moved:
    """What `_engine_move` worked out on the engine thread."""

    dumped: dict[str, Any]
    told: tuple[str | None, list[str]] | None = None
    after: tuple[Turn, str] | None = None  # who acts next, the round's name
    failed: Exception | None = None


@dataclass(slots=True)
class _Early:
    """What `_early` worked out on the engine thread."""

    legal: Legal
    turn: Turn
    named: Named | None = None  # None: not the player's turn
    action: dict[str, Any] | None = None  # the move built (None: not built)
    unbuilt: Exception | None = None  # the builder's refusal
    done: _Moved | None = None  # the move applied
    refused: EngineError | None = None  # the move the engine refused


def _looked_at(game: Game, before: ViewKey | None, wanted: bool
               ) -> tuple[ViewKey, tuple[str, ...], GameView | None]:
    """On an engine thread: the key of the game's view now, the kinds of image changed since
    `before` (every one when None), and the full view if any changed or `wanted` (the key is
    then read off that view: its hexes are worked out once)."""
    if wanted:
        view = game.view()
        key = key_of(view)
        return key, changed_images(before, key), view
    key = game.view_key()
    changed = changed_images(before, key)
    return key, changed, game.view() if changed else None


def _draw_rotations(game: Game, need: moves.NeedsRotation) -> bytes:
    """On an engine thread: the rotations picture."""
    return render_rotations(game.view(), need.hex_name, need.tile.rsplit("-", 1)[0],
                            need.rotations)


def _draw_run(game: Game, routes: list[dict[str, Any]]) -> bytes:
    """On an engine thread: the run on the map, each train labelled with its revenue."""
    labels = [names.train_name(game, str(r.get("train")))
              + (f" ${r['revenue']}" if r.get("revenue") is not None else "") for r in routes]
    return render_routes(game.view(), routes, labels)
