"""Taking back and ending: undo / redo as log actions (taking back another player's move asks
for their consent) and ending a game early (the creator's decision, or all players' votes),
each applied through ServicePlay (bot/play.py)."""

from __future__ import annotations

from bot import history, ports, summary
from bot.core import Live, Who
from bot.play import ServicePlay
from bot.replies import BotError, Button, Reply
from bot.store import ActionRecord


class ServiceTakeBack(ServicePlay):
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
