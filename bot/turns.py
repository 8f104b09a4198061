"""Long games, the service's part: whose turn it is and since when, the time each player
spent on their turns (and an optional time bank), reminders after a per-game delay with
growing gaps outside the player's quiet hours, `/nudge`, followers, `/games` and `/mygames`.

Every move passes through `_turn_change` (called by play.py, the start and the import): it
charges the clocks of whoever was acting, stores who acts now (in the move's own transaction),
replaces the game's pending reminders, and keeps the reply's ping only for players who were
not already acting (a ping only when the turn really passes). Time comes from the injectable
clock (bot/clock.py); the reminder loop is in bot/reminders.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.clock import HOUR, Clock, QuietHours, RealClock, parse_quiet, parse_timezone, span
from bot.core import ServiceCore, Turn, TurnChange, Who, _clip
from bot.replies import BotError, Reply
from bot.store import GameRecord
from bot.store.longgames import LongGameRepo, Timing, TurnState
from engine.game import Game
from engine.view import GameView

log = logging.getLogger(__name__)

NUDGE_AFTER = 1 * HOUR  # a player may be nudged once they have been up this long
NUDGE_GAP = 4 * HOUR  # at most one nudge per waiting player and game in this time


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A message the bot sends on its own: in a game's thread, or to a user directly."""

    text: str
    channel_id: int | None = None
    user_id: int | None = None  # a direct message
    mention: tuple[int, ...] = ()


def stamp_text(when: float) -> str:
    """A Discord timestamp: every reader sees it in their own time zone, with "x hours ago"."""
    return f"<t:{int(when)}:f> (<t:{int(when)}:R>)"


class ServiceTurns(ServiceCore):
    def __init__(self, *args: Any, clock: Clock | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.clock: Clock = clock or RealClock()
        self.long = LongGameRepo(self.store)
        self.outbox: list[Outgoing] = []
        self._wake = asyncio.Event()
        self._passes = (0, 0)  # (started, done) passes of the reminder loop
        self._notices: asyncio.Task[None] | None = None
        # reminders of e-mail players go by mail (set by the e-mail transport, bot/mail)
        self.mail_reminder: Callable[[GameRecord, int, TurnState], Awaitable[None]] | None = None

    # -- the hook every move passes through -------------------------------------------------

    @staticmethod
    def _users(record: GameRecord, engine_ids: Sequence[str]) -> list[int]:
        out: list[int] = []
        for eid in engine_ids:
            p = record.player_by_engine_id(str(eid))
            if p is not None and p.user_id > 0 and p.user_id not in out:
                out.append(p.user_id)
        return out

    async def _turn_change(self, record: GameRecord, turn: Turn, stamp: int,
                           round_name: str) -> TurnChange:
        """A turn change (a move, the start, an import; caller holds the game's lock): the
        clocks charged, who acts now and their reminders, as writes for the move's own
        transaction; once stored, the reply pings only players newly up, shows the clocks
        line when the turn passed or the round changed, and the game's followers are told."""
        now = self.clock.now()
        state = await self.long.turn_state(record.id)
        timing = await self.long.timing(record.id)
        acting = () if turn.finished else tuple(turn.acting)
        charges = self._charges(record, state, now)
        passed = state is None or set(state.acting) != set(acting)
        since = now if passed or state is None else state.since
        new = TurnState(record.id, acting, round_name, since, now, now, stamp)
        users = self._users(record, acting)
        due = now + timing.remind_hours * HOUR
        before = set(self._users(record, state.acting)) if state is not None else set()
        # a player newly up inside their quiet hours is named but not pinged; their first
        # reminder, due when the quiet hours end, is the ping
        held: dict[int, float] = {}
        for u in users:
            if u not in before:
                quiet_end = (await self.long.quiet_hours(u)).until(now)
                if quiet_end is not None:
                    held[u] = quiet_end
        steps, kept = self.long.turn_steps(new, charges, [(u, held.get(u, due)) for u in users])

        async def written(reply: Reply | None) -> None:
            self.long.turn_stored(new, charges, kept)
            if reply is not None:
                reply.mention = tuple(u for u in reply.mention if u not in before and u not in held)
                for u, until in held.items():
                    reply.text += (f"\n({self._user_name(record, u)} is in quiet hours: pinged "
                                   f"when they end, {stamp_text(until)}.)")
                # the clocks go with the phone card: when the turn passes or the round changes
                card = passed or state is None or state.round != round_name
                reply.clocks = tuple(await self._engine_clocks(record, new, now))
                if card and not turn.finished:  # (the same clocks: not read again)
                    line = await self._clocks_line(record, new, timing, now, reply.clocks)
                    if line:
                        reply.text += "\n" + line
                    vacant = [p.name for p in record.players if p.engine_id in acting
                              and p.user_id <= 0]
                    if vacant:
                        reply.text += (f"\n{', '.join(vacant)} is vacant: the creator (or a vote) "
                                       "seats a substitute with /substitute.")
            if passed and (users or turn.finished):
                await self._tell_followers(record, new, turn)
            for listener in self.turn_listeners:
                listener(record, turn, stamp)

        return TurnChange(steps, written)

    def _charges(self, record: GameRecord, state: TurnState | None,
                 now: float) -> list[tuple[str, int, float]]:
        if state is None:
            return []
        elapsed = max(0.0, now - state.accounted_at)
        out = []
        for eid in state.acting:
            p = record.player_by_engine_id(eid)
            if p is not None and p.user_id > 0:
                out.append((eid, p.user_id, elapsed))
        return out

    async def _spent(self, record: GameRecord, state: TurnState | None, now: float,
                     clocks: Sequence[tuple[str, float]] | None = None
                     ) -> list[tuple[str, float]]:
        """(name, seconds spent on turns) per seated player, the running turn included
        (`clocks`: `_engine_clocks` of the same state and time, if already worked out)."""
        names = {p.engine_id: p.name for p in record.seated}
        if clocks is None:
            clocks = await self._engine_clocks(record, state, now)
        return [(names[eid], spent) for eid, spent in clocks]

    async def _engine_clocks(self, record: GameRecord, state: TurnState | None,
                             now: float) -> list[tuple[str, float]]:
        """(engine player id, seconds on turns) per seated player, the running turn included:
        what the card and the clocks line show."""
        clocks = await self.long.clocks(record.id)
        out = []
        for p in record.seated:
            if p.user_id <= 0:
                continue
            spent = clocks.get((p.engine_id, p.user_id), 0.0)
            if state is not None and p.engine_id in state.acting:
                spent += max(0.0, now - state.accounted_at)
            out.append((p.engine_id, spent))
        return out

    async def _clocks_line(self, record: GameRecord, state: TurnState | None, timing: Timing,
                           now: float, clocks: Sequence[tuple[str, float]] | None = None) -> str:
        parts = []
        for name, spent in await self._spent(record, state, now, clocks):
            text = f"{name} {span(spent)}"
            if timing.bank_hours is not None:
                left = timing.bank_hours * HOUR - spent
                text += f" ({span(left)} left)" if left >= 0 else f" (over by {span(-left)})"
            parts.append(text)
        return ("Clocks: " + " · ".join(parts)) if parts else ""

    async def _tell_followers(self, record: GameRecord, state: TurnState, turn: Turn) -> None:
        followers = await self.long.followers(record.id)
        if not followers:
            return
        where = f"<#{record.thread_id or record.channel_id}>"
        if turn.finished:
            text = f"{record.title} game #{record.id} ({where}) is over."
        else:
            names = ", ".join(self._name(record, e) for e in state.acting) or "nobody"
            text = f"{record.title} game #{record.id} ({where}): {names} to act — {state.round}."
        for uid in followers:
            self.outbox.append(Outgoing(text, user_id=uid))
        self._wake.set()

    async def _ensure_state(self, record: GameRecord) -> TurnState | None:
        """Whose turn it is in a running game (worked out once for a game stored before
        turns were recorded: its clock starts now)."""
        state = await self.long.turn_state(record.id)
        if state is not None or record.status != "active":
            return state
        async with self._locks[record.id]:
            live = await self._live(record.id)
            view, turn = await self.run_engine(self._view_turn, live.game)
            await self._turn_changed(live.record, turn, len(live.records),
                                     view.round, None)
        return await self.long.turn_state(record.id)

    @classmethod
    def _view_turn(cls, game: Game) -> tuple[GameView, Turn]:
        return game.view(), cls._turn(game)

    # -- commands ---------------------------------------------------------------------------

    async def nudge(self, who: Who, game_id: int) -> Reply:
        record = await self.game_record(game_id)
        if record.status != "active":
            raise BotError(f"Game #{game_id} is {record.status}: nobody is waited for.")
        if record.player_by_user(who.user_id) is None:
            raise BotError("Only the game's players may nudge.")
        state = await self._ensure_state(record)
        if state is None:
            raise BotError("Nobody is waited for.")
        now = self.clock.now()
        targets = [u for u in self._users(record, state.acting) if u != who.user_id]
        if not targets:
            raise BotError("It is your turn: there is nobody else to nudge.")
        if now - state.last_move < NUDGE_AFTER:
            raise BotError(f"The last move was {span(now - state.last_move)} ago: a nudge is "
                           f"possible once {span(NUDGE_AFTER)} have passed.")
        ready, notes = [], []
        for uid in targets:
            name = self._user_name(record, uid)
            last = await self.long.last_nudge(game_id, uid)
            quiet_end = (await self.long.quiet_hours(uid)).until(now)
            if last is not None and now - last < NUDGE_GAP:
                notes.append(f"{name} was nudged {span(now - last)} ago (at most one nudge "
                             f"every {span(NUDGE_GAP)})")
            elif quiet_end is not None:
                notes.append(f"{name} is in quiet hours until {stamp_text(quiet_end)}")
            else:
                ready.append(uid)
        if not ready:
            raise BotError("No nudge sent: " + "; ".join(notes) + ".")
        for uid in ready:
            await self.long.add_nudge(game_id, who.user_id, uid, now)
        text = (" ".join(f"<@{u}>" for u in ready) + f", **{who.name}** nudges you: game "
                f"#{game_id} waits for you since {stamp_text(state.last_move)}.")
        return Reply(text, mention=tuple(ready))

    async def follow(self, who: Who, game_id: int, on: bool) -> Reply:
        record = await self.game_record(game_id)
        if on:
            if record.status in ("finished", "abandoned"):
                raise BotError(f"Game #{game_id} is {record.status}: there is nothing to follow.")
            added = await self.long.follow(game_id, who.user_id, self.clock.now())
            text = (f"You follow game #{game_id}: I will write to you when the turn passes and "
                    "when it ends." if added else f"You already follow game #{game_id}.")
        else:
            removed = await self.long.unfollow(game_id, who.user_id)
            text = (f"You no longer follow game #{game_id}." if removed
                    else f"You do not follow game #{game_id}.")
        return Reply(text, ephemeral=True)

    async def settings(self, who: Who, timezone: str | None, quiet: str | None) -> Reply:
        current = await self.long.quiet_hours(who.user_id)
        if timezone is None and quiet is None:
            return Reply(f"Your settings: {current.describe()}.", ephemeral=True)
        zone = current.zone
        if timezone is not None:
            try:
                parse_timezone(timezone)
            except ValueError as err:
                raise BotError(str(err)) from None
            zone = timezone.strip()
        start, end = current.start, current.end
        if quiet is not None:
            try:
                hours = parse_quiet(quiet)
            except ValueError as err:
                raise BotError(str(err)) from None
            start, end = hours if hours is not None else (None, None)
        new = QuietHours(zone, start, end)
        await self.long.set_quiet_hours(who.user_id, new)
        return Reply(f"Saved: {new.describe()}. Reminders wait for the end of your quiet "
                     "hours.", ephemeral=True)

    async def timing(self, who: Who, game_id: int, reminder: str | None, bank: str | None,
                     drop: str | None) -> Reply:
        record = await self.game_record(game_id)
        current = await self.long.timing(game_id)
        if reminder is None and bank is None and drop is None:
            return Reply(self._timing_text(game_id, current), ephemeral=True)
        if who.user_id != record.creator_id and not who.is_admin:
            raise BotError("Only the game's creator or a server admin can change its timing.")

        def hours(text: str, what: str, low: float) -> float:
            try:
                value = float(text)
            except ValueError:
                raise BotError(f"{what} must be a number, not {text!r}.") from None
            if not low <= value <= 10_000:
                raise BotError(f"{what} must be between {low:g} and 10000.")
            return value

        bank_hours = current.bank_hours
        if bank is not None:
            bank_hours = (None if bank.strip().lower() in ("none", "off", "0")
                          else hours(bank, "The time bank (hours)", 1))
        new = Timing(
            hours(reminder, "The reminder delay (hours)", 1) if reminder else current.remind_hours,
            bank_hours,
            hours(drop, "The days before dropping an absent player", 1) if drop
            else current.drop_days,
        )
        await self.long.set_timing(game_id, new)
        return Reply(self._timing_text(game_id, new))

    @staticmethod
    def _timing_text(game_id: int, t: Timing) -> str:
        bank = f"a time bank of {t.bank_hours:g} h each" if t.bank_hours else "no time bank"
        return (f"Game #{game_id}: first reminder after {t.remind_hours:g} h (then after twice "
                f"as long each time), {bank}, an absent player may be dropped after "
                f"{t.drop_days:g} days.")

    async def list_games(self, guild_id: int | None) -> Reply:
        """This server's games: title, round, who is up and since when, the clocks."""
        games = await self.store.games_in_guild(guild_id)
        if not games:
            return Reply(
                "No games are open or running here. Create one with /create.", ephemeral=True
            )
        lines = [await self._game_line(g) for g in games]
        return Reply(_clip("\n".join(lines)), ephemeral=True)

    async def _game_line(self, g: GameRecord) -> str:
        where = f"<#{g.thread_id}>" if g.thread_id else f"<#{g.channel_id}>"
        if g.status != "active":
            names = ", ".join(p.name for p in g.seated)
            return f"#{g.id} {g.title} ({g.status}) in {where}: {names}"
        state = await self._ensure_state(g)
        if state is None:
            return f"#{g.id} {g.title} in {where}"
        now = self.clock.now()
        up = ", ".join(self._name(g, e) for e in state.acting) or "nobody"
        line = await self._clocks_line(g, state, await self.long.timing(g.id), now)
        return (f"#{g.id} {g.title} (active) in {where} — {state.round} — {up} up since "
                f"{stamp_text(state.since)}" + (f"\n  {line}" if line else ""))

    async def my_games(self, who: Who) -> Reply:
        """The games where it is the user's turn, longest waiting first."""
        waiting: list[tuple[float, GameRecord, TurnState]] = []
        for gid in await self.long.games_of_user(who.user_id):
            record = await self.game_record(gid)
            state = await self._ensure_state(record)
            me = record.player_by_user(who.user_id)
            if state is not None and me is not None and me.engine_id in state.acting:
                waiting.append((state.since, record, state))
        if not waiting:
            return Reply("No game waits for you.", ephemeral=True)
        lines = []
        for since, g, state in sorted(waiting, key=lambda w: w[0]):
            where = f"<#{g.thread_id}>" if g.thread_id else f"<#{g.channel_id}>"
            lines.append(f"#{g.id} {g.title} in {where} — {state.round} — your turn since "
                         f"{stamp_text(since)}")
        return Reply(_clip("\n".join(lines)), ephemeral=True)
