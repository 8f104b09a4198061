"""Seats of a running game: substitute a player, resign, drop an absent player.

A seat is the engine's player id (`players.engine_id`, never changed: the log stays
replayable) held by one Discord user. A substitution only changes who holds it, and is kept
in `seat_changes`. A seat left without a holder (a resignation without a substitute, a
dropped player) is vacant: held by a negative user id until a substitute takes it, and the
remaining players are asked whether to end the game now (scored as it stands).

Who decides: the creator (or a server admin) substitutes at once; any other player proposes
and the other players vote (a majority of them). A player resigns alone (naming a substitute
or not). Dropping an absent player (up for at least the game's `drop_days`) needs the consent
of every other player. Ending a game with a vacant seat needs a majority of the players.
"""

from __future__ import annotations

from typing import Any

from bot.clock import DAY, HOUR, span
from bot.core import Who
from bot.reminders import ServiceReminders
from bot.replies import BotError, Button, Reply
from bot.store import ActionRecord, GameRecord, PlayerRecord
from bot.store.longgames import SeatVote, TurnState
from bot.takeback import ServiceTakeBack
from bot.turns import stamp_text

PREFIX = "seat:"


class ServiceSeats(ServiceReminders, ServiceTakeBack):
    # -- finding seats ----------------------------------------------------------------------

    async def _seat_of(self, record: GameRecord, user_id: int | None,
                       seat_no: int | None) -> PlayerRecord:
        """The seat named by its number (1-based), its holder, or the last holder of a vacant
        seat."""
        seated = record.seated
        if seat_no is not None:
            if not 1 <= seat_no <= len(seated):
                raise BotError(f"There is no seat {seat_no}: seats 1-{len(seated)}.")
            return seated[seat_no - 1]
        if user_id is not None:
            p = record.player_by_user(user_id)
            if p is not None:
                return p
            for engine_id, old_user, _name, new_user, _why in reversed(
                    await self.long.seat_history(record.id)):
                holder = record.player_by_engine_id(engine_id)
                if old_user == user_id and holder is not None and holder.user_id == new_user:
                    return holder
        raise BotError("That player holds no seat in this game: name a player or a seat number.")

    @staticmethod
    def _voters(record: GameRecord, kind: str, engine_id: str | None) -> list[int]:
        return [p.user_id for p in record.seated
                if p.user_id > 0 and (kind == "end" or p.engine_id != engine_id)]

    def _active(self, record: GameRecord) -> None:
        if record.status != "active":
            raise BotError(f"Game #{record.id} is {record.status}: its seats cannot change.")

    # -- changing a seat --------------------------------------------------------------------

    async def _reseat(self, record: GameRecord, seat: PlayerRecord, new_user: int, new_name: str,
                      reason: str) -> GameRecord:
        """Hand the seat to `new_user` (caller holds the game's lock): the clocks are charged
        up to now under the old holder, the reminders go to the new one."""
        if new_user > 0 and record.player_by_user(new_user) is not None:
            raise BotError(f"{new_name or new_user} already holds a seat in this game.")
        now = self.clock.now()
        state = await self.long.turn_state(record.id)
        charges = self._charges(record, state, now)
        await self.long.change_seat(record.id, seat.engine_id, new_user, new_name, reason, now)
        self.evict(record.id)  # the engine game is rebuilt with the seat's new name
        record = await self.game_record(record.id)
        if state is not None:
            timing = await self.long.timing(record.id)
            due = now + timing.remind_hours * HOUR
            moved = TurnState(record.id, state.acting, state.round, state.since, now, now,
                              state.stamp)
            await self.long.record_turn(moved, charges,
                                        [(u, due) for u in self._users(record, state.acting)])
        return record

    def _vacant_id(self, seat: PlayerRecord) -> int:
        return -1 - (seat.seat or 0)

    async def _seated_text(self, record: GameRecord, engine_id: str, new_user: int,
                           new_name: str, old_name: str) -> Reply:
        state = await self.long.turn_state(record.id)
        vacated = "(vacant, was "
        seat = (f"the seat {old_name[len(vacated):-1]} left" if old_name.startswith(vacated)
                else f"{old_name}'s seat")
        text = f"**{new_name}** takes {seat} in game #{record.id}."
        mention: tuple[int, ...] = ()
        if state is not None and engine_id in state.acting:
            text += f"\n<@{new_user}> to act."
            mention = (new_user,)
        return Reply(text, mention=mention)

    @staticmethod
    def _author(record: GameRecord, rec: ActionRecord) -> int | None:
        """Who answers for a stored move (undo consent, redo): its author while they hold a
        seat, else whoever holds the seat of the move's player now (a substitute answers for
        the seat's earlier moves); a corporation's move: its controller then (None here)."""
        if rec.user_id is not None and record.player_by_user(rec.user_id) is not None:
            return rec.user_id
        if rec.action.get("entity_type") == "player":
            p = record.player_by_engine_id(str(rec.action.get("entity")))
            return p.user_id if p is not None else rec.user_id
        return rec.user_id

    # -- commands ---------------------------------------------------------------------------

    async def substitute(self, who: Who, game_id: int, target: int | None, seat_no: int | None,
                         new: tuple[int, str]) -> Reply:
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            self._active(record)
            seat = await self._seat_of(record, target, seat_no)
            new_user, new_name = new
            if record.player_by_user(new_user) is not None:
                raise BotError(f"{new_name or new_user} already holds a seat in this game.")
            if who.user_id == record.creator_id or who.is_admin:
                old = seat.name
                record = await self._reseat(record, seat, new_user, new_name, "substituted")
                return await self._seated_text(record, seat.engine_id, new_user, new_name, old)
            me = record.player_by_user(who.user_id)
            if me is None:
                raise BotError("Only the game's players, its creator or an admin may propose a "
                               "substitute.")
            if me.engine_id == seat.engine_id:
                raise BotError("To hand over your own seat, use /resign with a substitute.")
            return await self._propose(record, who, "substitute", seat, new_user, new_name)

    async def resign(self, who: Who, game_id: int, new: tuple[int, str] | None) -> Reply:
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            self._active(record)
            seat = record.player_by_user(who.user_id)
            if seat is None:
                raise BotError("You hold no seat in this game.")
            if new is not None:
                record = await self._reseat(record, seat, new[0], new[1], "resigned")
                reply = await self._seated_text(record, seat.engine_id, new[0], new[1], seat.name)
                reply.text = f"**{who.name}** resigns.\n" + reply.text
                return reply
            record = await self._reseat(record, seat, self._vacant_id(seat),
                                        f"(vacant, was {seat.name})", "resigned")
            reply = await self._propose(record, who, "end", None, None, None, counted=False)
            reply.text = (f"**{who.name}** resigns: their seat is vacant until a substitute "
                          f"takes it (/substitute).\n" + reply.text)
            return reply

    async def drop(self, who: Who, game_id: int, target: int | None,
                   seat_no: int | None) -> Reply:
        async with self._locks[game_id]:
            record = await self.game_record(game_id)
            self._active(record)
            me = record.player_by_user(who.user_id)
            if me is None:
                raise BotError("Only the game's players may propose to drop a player.")
            seat = await self._seat_of(record, target, seat_no)
            if seat.user_id <= 0:
                raise BotError("That seat is already vacant: seat a substitute with /substitute.")
            if seat.engine_id == me.engine_id:
                raise BotError("Use /resign to leave the game yourself.")
            state = await self.long.turn_state(record.id)
            timing = await self.long.timing(record.id)
            now = self.clock.now()
            if state is None or seat.engine_id not in state.acting:
                raise BotError(f"{seat.name} is not the one the game waits for.")
            if now - state.last_move < timing.drop_days * DAY:
                raise BotError(
                    f"{seat.name} has been up for {span(now - state.last_move)}: a player can be "
                    f"dropped after {timing.drop_days:g} days without a move.")
            return await self._propose(record, who, "drop", seat, None, None)

    async def _propose(self, record: GameRecord, who: Who, kind: str,
                       seat: PlayerRecord | None, new_user: int | None, new_name: str | None,
                       *, counted: bool = True) -> Reply:
        engine_id = seat.engine_id if seat is not None else None
        if await self.long.open_vote(record.id, kind, engine_id) is not None:
            raise BotError("The same proposal is already waiting for the players' votes.")
        voters = self._voters(record, kind, engine_id)
        proposer = who.user_id if counted and who.user_id in voters else 0
        vote_id = await self.long.create_vote(record.id, kind, engine_id, new_user, new_name,
                                              proposer, self.clock.now())
        vote = await self.long.vote(vote_id)
        assert vote is not None
        done = await self._settle(record, vote)
        if done is not None:
            return done
        others = [u for u in voters if u != proposer]
        what = self._vote_text(record, vote)
        rule = "every other player must agree" if kind == "drop" else "a majority decides"
        return Reply(
            " ".join(f"<@{u}>" for u in others) + f": **{who.name}** proposes {what} ({rule}).",
            mention=tuple(others),
            buttons=[Button(f"{PREFIX}yes:{vote_id}", "Agree", "success"),
                     Button(f"{PREFIX}no:{vote_id}", "Refuse", "danger")],
        )

    def _vote_text(self, record: GameRecord, vote: SeatVote) -> str:
        holder = record.player_by_engine_id(vote.engine_id or "")
        name = holder.name if holder else "a player"
        if vote.kind == "substitute":
            return f"that **{vote.new_name}** takes {name}'s seat"
        if vote.kind == "drop":
            return f"to drop {name} (absent), leaving the seat vacant"
        return "to end the game now, scored as it stands"

    async def answer_vote(self, who: Who, vote_id: int, yes: bool, *,
                          interaction_id: str | None) -> Reply:
        vote = await self.long.vote(vote_id)
        if vote is None:
            raise BotError("This vote no longer exists.")
        async with self._locks[vote.game_id]:
            if interaction_id and await self.store.interaction_seen(interaction_id):
                return Reply("This command was already handled.", ephemeral=True)
            record = await self.game_record(vote.game_id)
            vote = await self.long.vote(vote_id)
            assert vote is not None
            if vote.status != "open" or record.status != "active":
                raise BotError(f"This vote is closed ({vote.status}).")
            if who.user_id not in self._voters(record, vote.kind, vote.engine_id):
                raise BotError("This vote is for the other players of the game.")
            await self.long.cast(vote_id, who.user_id, yes)
            vote = await self.long.vote(vote_id)
            assert vote is not None
            done = await self._settle(record, vote)
        if done is not None:
            return done
        answer = "agrees" if yes else "refuses"
        return Reply(f"**{who.name}** {answer} ({self._vote_text(record, vote)}).")

    async def _settle(self, record: GameRecord, vote: SeatVote) -> Reply | None:
        """Carry out a vote whose outcome is decided (caller holds the game's lock)."""
        voters = self._voters(record, vote.kind, vote.engine_id)
        ballots = {u: y for u, y in vote.ballots if u in voters}
        yes = sum(ballots.values())
        no = len(ballots) - yes
        if vote.kind == "drop":
            passed, failed = yes == len(voters), no > 0
        else:
            passed, failed = yes * 2 > len(voters), (len(voters) - no) * 2 <= len(voters)
        if failed and not passed:
            await self.long.close_vote(vote.id, "failed")
            return Reply(f"The players refuse {self._vote_text(record, vote)}.")
        if not passed:
            return None
        await self.long.close_vote(vote.id, "passed")
        seat = record.player_by_engine_id(vote.engine_id or "")
        if vote.kind == "substitute" and seat is not None and vote.new_user is not None:
            name = vote.new_name or str(vote.new_user)
            old = seat.name
            record = await self._reseat(record, seat, vote.new_user, name, "voted")
            reply = await self._seated_text(record, seat.engine_id, vote.new_user, name, old)
            reply.text = "The players agree. " + reply.text
            return reply
        if vote.kind == "drop" and seat is not None:
            record = await self._reseat(record, seat, self._vacant_id(seat),
                                        f"(vacant, was {seat.name})", "dropped")
            reply = await self._propose(record, Who(0, "The bot"), "end", None, None, None,
                                        counted=False)
            reply.text = (f"The players agree: {seat.name} is dropped and the seat is vacant "
                          "until a substitute takes it (/substitute).\n" + reply.text)
            return reply
        return await self._end_by_vote(record)

    async def _end_by_vote(self, record: GameRecord) -> Reply:
        live = await self._live(record.id)
        entity = next(p.engine_id for p in record.seated)
        action: dict[str, Any] = {"type": "end_game", "entity": entity, "entity_type": "player"}
        reply, draw = await self._apply(live, None, action, None, agreed=True)
        self._draw(reply, draw)
        reply.text = "The players agree to end the game.\n" + reply.text.split("\n", 1)[-1]
        return reply

    async def seats_text(self, game_id: int) -> Reply:
        record = await self.game_record(game_id)
        state = await self.long.turn_state(game_id)
        lines = []
        for i, p in enumerate(record.seated):
            up = " (up since " + stamp_text(state.since) + ")" if (
                state is not None and p.engine_id in state.acting) else ""
            lines.append(f"{i + 1}. {p.name}{up}")
        for engine_id, _old, old_name, _new, why in await self.long.seat_history(game_id):
            holder = record.player_by_engine_id(engine_id)
            lines.append(f"- {old_name} left ({why}); seat now {holder.name if holder else '?'}")
        return Reply("\n".join(lines), ephemeral=True)

