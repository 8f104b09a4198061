"""Moves: apply a player's move (check the user may act, the engine applies or refuses, the
store appends it in one transaction, then what to post), and undo / redo as log actions (taking
back another player's move asks for their consent)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot import consent, history, moves, naming, ports, story, summary
from bot.core import Draw, Live, ServiceCore, Turn, Who
from bot.naming import Named
from bot.replies import Attachment, BotError, Button, Reply
from bot.store import ActionRecord, DuplicateInteraction, SeqTaken
from engine import EngineError, dump_action, names
from engine.actions import Action
from engine.game import Game
from engine.legal import Legal
from engine.routes.byname import routes_by_name
from engine.view import GameView
from render.rotations import render_rotations
from render.routes import render_routes

log = logging.getLogger(__name__)

MoveBuilder = Callable[[Named], dict[str, Any]]


class ServicePlay(ServiceCore):
    async def act(
        self, who: Who, game_id: int, build: MoveBuilder, *, interaction_id: str | None
    ) -> Reply:
        """Apply one move built from the acting entity's legal options."""
        async with self._locks[game_id]:
            if interaction_id and await self.store.interaction_seen(interaction_id):
                return Reply("This command was already handled.", ephemeral=True)
            live, player_engine_id = await self._seated_live(who, game_id)
            # can take a while: off the loop
            legal, turn = await self.run_engine(self._legal_turn, live.game)
            acting = turn.acting
            if player_engine_id not in acting:
                names = ", ".join(self._name(live.record, a) for a in acting) or "nobody"
                raise BotError(f"It is not your turn: waiting for {names}.")
            # the legal answer with names: a player may type a place or a company's name
            try:
                action = build(await self.run_engine(naming.named, live.game, legal))
            except moves.NeedsRotation as need:  # the rotations that fit, numbered
                return await self._rotations(live, need)
            action.setdefault("entity", legal.entity)
            action.setdefault("entity_type", legal.entity_type)
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
    ) -> tuple[Reply, Draw]:
        """Engine first, then the store, then the reply. Caller holds the game's lock and
        draws the images (`_draw`) after releasing it. `agreed`: an end of the game decided
        by the game's creator (or an admin), not a move."""
        game = live.game
        try:
            # the engine works on its threads (the caller holds the game's lock): the event
            # loop keeps serving other games meanwhile
            stored, before = await self.run_engine(self._engine_apply, game, action, agreed)
        except EngineError as err:
            raise BotError(str(err)) from err
        dumped = dump_action(stored)
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
        except SeqTaken:  # another process stored a move first: this one was not stored
            self.evict(live.record.id)
            return Reply("Another move was stored at the same moment; yours was not. Look at "
                         "the game and try again.", ephemeral=True), Draw(None, ())
        except BaseException:
            self.evict(live.record.id)
            raise
        live.records.append(ActionRecord(seq, dumped, interaction_id, uid, ""))
        self._grew(live)
        actor = who.name if who else "Someone"
        entity = str(action.get("entity")) if action.get("entity_type") != "player" else None
        try:  # the move in words and what followed from it (bot/story.py)
            phrase, said = await self.run_engine(story.told, game, dumped,
                                                 story.player_names(live.record),
                                                 (live.record.id, len(live.records) - 1))
        except Exception:
            log.exception("game %s: the move's events could not be said", live.record.id)
            phrase, said = None, []
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
            after, kinds, turn = await self.run_engine(self._engine_after, game, before)
            if turn.finished:
                live.record = await self.game_record(live.record.id)
                reply.text += "\n" + self._result_text(live.record, turn)
                if self.render_images:  # the players' worth and the prices over the game
                    chart = await self.run_engine(story.final_chart, game,
                                                  story.player_names(live.record))
                    reply.attachments.append(Attachment("standings.png", chart))
                kinds = ("status", *[k for k in kinds if k != "status"])
            else:
                self._add_ping(reply, live.record, turn)
            await self._turn_changed(live.record, turn, len(live.records),
                                     after.round, reply)
        except Exception:
            log.exception("game %s: the move was stored but the follow-up failed", live.record.id)
            reply.text += "\n(The move was made, but the bot could not work out who acts next.)"
            return reply, Draw(None, ())
        return reply, Draw(after, kinds, live.record.id, len(live.records))

    @staticmethod
    def _engine_apply(game: Game, action: dict[str, Any], agreed: bool
                      ) -> tuple[Action, GameView]:
        """On an engine thread: the view before the move, then the move (or its refusal)."""
        before: GameView = game.view()
        stored: Action = game.apply(action, agreed=agreed)
        return stored, before

    def _engine_after(self, game: Game, before: GameView
                      ) -> tuple[GameView, tuple[str, ...], Turn]:
        """On an engine thread: the view after the move, which images changed, and who acts
        next (their legal answer is worked out now and kept for their first command)."""
        after: GameView = game.view()
        return after, self._changed(before, after), self._turn(game)

    @staticmethod
    def _changed(before: GameView, after: GameView) -> tuple[str, ...]:
        kinds = []
        if before.hexes != after.hexes:
            if after.last_hexes:
                kinds.append("closeup")
            kinds.append("map")
        if before.market != after.market:
            kinds.append("market")
        # the turn passed: the phone card (render.card)
        if (before.acting, before.round) != (after.acting, after.round):
            kinds.append("card")
        return tuple(kinds)

    async def end_game(self, who: Who, game_id: int, *, interaction_id: str | None) -> Reply:
        """End the game now, scored as it stands: a decision of the game's creator (or an
        admin), or of all its players - another player's /end is a vote on the game as it
        stands (a move makes the votes stale), and the last vote ends it. Never a move of the
        game. The first vote at a position pings the others; later ones do not."""
        async with self._locks[game_id]:
            if interaction_id and await self.store.interaction_seen(interaction_id):
                return Reply("This command was already handled.", ephemeral=True)
            record = await self.game_record(game_id)
            if record.status != "active":
                raise BotError(f"Game #{game_id} is {record.status}: there is nothing to end.")
            me = record.player_by_user(who.user_id)
            decides = who.user_id == record.creator_id or who.is_admin
            if not decides and me is None:
                raise BotError("Only the game's players (all of them agreeing), its creator or a "
                               "server admin can end it early.")
            live = await self._live(game_id)
            if not decides:
                vote = await self._end_vote(live, who)
                if vote is not None:
                    return vote
            entity = me.engine_id if me else record.seated[0].engine_id
            action = {"type": "end_game", "entity": entity, "entity_type": "player"}
            reply, draw = await self._apply(live, who, action, interaction_id, agreed=True)
        self._draw(reply, draw)
        head = f"**{who.name}** ends the game." if decides else "All players agree: the game ends."
        reply.text = head + "\n" + reply.text.split("\n", 1)[-1]
        return reply

    async def _end_vote(self, live: Live, who: Who) -> Reply | None:
        """Record a player's vote to end the game; None once every seated player has voted."""
        record = live.record
        new, votes = await self.store.vote_end(record.id, who.user_id, len(live.records))
        waiting = [p for p in record.seated if p.user_id not in votes]
        if not waiting:
            return None
        names = ", ".join(p.name for p in waiting)
        if not new:
            return Reply(f"You have already voted to end the game; waiting for {names}.",
                         ephemeral=True)
        first = len(votes) == 1
        voted = len(record.seated) - len(waiting)
        text = (f"**{who.name}** votes to end the game now, scored as it stands "
                f"({voted} of {len(record.seated)}). ")
        if first:
            pings = " ".join(f"<@{p.user_id}>" for p in waiting)
            text += f"{pings}: type /end to agree (any move cancels the vote)."
            return Reply(text, mention=tuple(p.user_id for p in waiting))
        return Reply(text + f"Waiting for {names}.", mention=())

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
            if author is None:  # an imported move of a corporation: its controller then
                author = await self.run_engine(self._controller_then, live, last)
            pending = None
            if author is not None and author != who.user_id:
                pending = await self.store.pending_undo_request(game_id, len(live.records))
            if pending is not None:  # asked already: no second ping
                asker = self._user_name(live.record, pending.requester_id)
                approver = self._user_name(live.record, pending.approver_id)
                return Reply(
                    f"An undo of this move is already waiting for {approver}'s answer "
                    f"(asked by {asker}, request {pending.id}).",
                    ephemeral=True,
                )
            if author is None or author == who.user_id:
                action = {"type": "undo", "entity": engine_id, "entity_type": "player"}
                reply, draw = await self._apply(live, who, action, interaction_id)
                request_id = None
            else:
                request_id = await self.store.create_undo_request(
                    game_id, who.user_id, author, len(live.records), interaction_id
                )
        if request_id is None:
            self._draw(reply, draw)
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

    def _controller_then(self, live: Live, rec: ActionRecord) -> int | None:
        """The user who controlled the move's entity when it was made (the president of the
        corporation then): replays the log before the move."""
        entity = rec.action.get("entity")
        etype = str(rec.action.get("entity_type") or "")
        if entity is None:
            return None
        index = next((i for i, r in enumerate(live.records) if r is rec), None)
        if index is None:
            return None
        record = live.record
        pid = ports.controller_at([r.action for r in live.records[:index]], record.title,
                   [(p.engine_id, p.name) for p in record.seated], record.options,
                   str(entity), etype)
        player = record.player_by_engine_id(str(pid)) if pid is not None else None
        return player.user_id if player else None

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
        self._draw(reply, draw)
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
        self._draw(reply, draw)
        tail = reply.text[reply.text.index("\n") :] if "\n" in reply.text else ""
        reply.text = f"**{who.name}** redoes: {summary.describe(undone[-1].action)}.{tail}"
        return reply


def _draw_rotations(game: Game, need: moves.NeedsRotation) -> bytes:
    """On an engine thread: the rotations picture."""
    return render_rotations(game.view(), need.hex_name, need.tile.rsplit("-", 1)[0],
                            need.rotations)


def _draw_run(game: Game, routes: list[dict[str, Any]]) -> bytes:
    """On an engine thread: the run on the map, each train labelled with its revenue."""
    labels = [names.train_name(game, str(r.get("train")))
              + (f" ${r['revenue']}" if r.get("revenue") is not None else "") for r in routes]
    return render_routes(game.view(), routes, labels)
