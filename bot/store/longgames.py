"""SQL of long games (migration 002): whose turn since when, turn clocks, reminders, quiet
hours, nudges, followers, seat changes and seat votes. Times are the bot clock's seconds."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.clock import QuietHours
from bot.store.batch import Step
from bot.store.repo import Store

DEFAULT_REMIND_HOURS = 12.0
DEFAULT_DROP_DAYS = 7.0


@dataclass(frozen=True, slots=True)
class Timing:
    remind_hours: float = DEFAULT_REMIND_HOURS
    bank_hours: float | None = None
    drop_days: float = DEFAULT_DROP_DAYS


@dataclass(frozen=True, slots=True)
class TurnState:
    game_id: int
    acting: tuple[str, ...]  # engine ids
    round: str
    since: float
    last_move: float
    accounted_at: float
    stamp: int


@dataclass(frozen=True, slots=True)
class Reminder:
    id: int
    game_id: int
    user_id: int
    stamp: int
    n: int
    due_at: float
    sent_at: float | None


@dataclass(frozen=True, slots=True)
class SeatVote:
    id: int
    game_id: int
    kind: str  # substitute | drop | end
    engine_id: str | None
    new_user: int | None
    new_name: str | None
    proposer: int
    status: str
    ballots: tuple[tuple[int, bool], ...]  # (user id, yes)


class LongGameRepo:
    """The long-game tables, on the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # read on every move: kept in memory, written through (this repo is their only writer),
        # unless other processes share the database (PostgreSQL): then read every time
        self._turns: dict[int, TurnState | None] = {}
        self._timings: dict[int, Timing] = {}
        self._followers: dict[int, list[int]] = {}
        self._clocks: dict[int, dict[tuple[str, int], float]] = {}
        self._quiet: dict[int, QuietHours] = {}

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self.store.db.fetch(sql, params)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self.store._write(sql, params)
        return cur.rowcount

    def _cached(self) -> bool:
        """Keep these tables in memory: not when other processes write them too."""
        return not self.store.shared

    # -- timing -----------------------------------------------------------------------------

    async def timing(self, game_id: int) -> Timing:
        cached = self._timings.get(game_id)
        if cached is None:
            cached = await self._read_timing(game_id)
            if self._cached():
                self._timings[game_id] = cached
        return cached

    async def _read_timing(self, game_id: int) -> Timing:
        rows = await self._rows(
            "SELECT remind_hours, bank_hours, drop_days FROM game_timing WHERE game_id = ?",
            (game_id,))
        if not rows:
            return Timing()
        r = rows[0]
        return Timing(float(r[0]), None if r[1] is None else float(r[1]), float(r[2]))

    async def set_timing(self, game_id: int, timing: Timing) -> None:
        await self._write(
            "INSERT INTO game_timing (game_id, remind_hours, bank_hours, drop_days)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
            " remind_hours = excluded.remind_hours, bank_hours = excluded.bank_hours,"
            " drop_days = excluded.drop_days",
            (game_id, timing.remind_hours, timing.bank_hours, timing.drop_days))
        if self._cached():
            self._timings[game_id] = timing

    # -- whose turn, clocks -----------------------------------------------------------------

    async def turn_state(self, game_id: int) -> TurnState | None:
        if not self._cached():
            return await self._read_turn_state(game_id)
        if game_id not in self._turns:
            self._turns[game_id] = await self._read_turn_state(game_id)
        return self._turns[game_id]

    async def _read_turn_state(self, game_id: int) -> TurnState | None:
        rows = await self._rows(
            "SELECT acting, round, since, last_move, accounted_at, stamp FROM turn_state"
            " WHERE game_id = ?", (game_id,))
        if not rows:
            return None
        r = rows[0]
        return TurnState(game_id, tuple(json.loads(r[0])), str(r[1]), float(r[2]),
                         float(r[3]), float(r[4]), int(r[5]))

    async def turn_states(self, game_ids: Sequence[int]) -> dict[int, TurnState]:
        out = {}
        for gid in game_ids:
            state = await self.turn_state(gid)
            if state is not None:
                out[gid] = state
        return out

    async def record_turn(self, state: TurnState, charges: Sequence[tuple[str, int, float]],
                          reminders: Sequence[tuple[int, float]]) -> None:
        """In one transaction: charge the clocks ((engine id, user id, seconds)), store whose
        turn it is now, and replace the game's unsent reminders by `reminders` ((user id, due
        time), the first reminder of this wait)."""
        steps, kept = self.turn_steps(state, charges, reminders)
        await self.store.db.write_batch(steps)  # one batch: it may share a commit (batch.py)
        self.turn_stored(state, charges, kept)

    def turn_steps(self, state: TurnState, charges: Sequence[tuple[str, int, float]],
                   reminders: Sequence[tuple[int, float]]
                   ) -> tuple[list[Step], dict[tuple[str, int], float] | None]:
        """`record_turn`'s writes, for a transaction of the caller's (a move stores them with
        its action); then `turn_stored` once they are written, with the clocks returned here
        (the game's clocks as kept in memory before: read again if the writes fail)."""
        self._turns.pop(state.game_id, None)
        kept = self._clocks.pop(state.game_id, None)
        return [
            Step("INSERT INTO clocks (game_id, engine_id, user_id, seconds) VALUES (?, ?, ?, ?)"
                 " ON CONFLICT (game_id, engine_id, user_id) DO UPDATE SET"
                 " seconds = clocks.seconds + excluded.seconds",
                 [(state.game_id, e, u, sec) for e, u, sec in charges], many=True),
            Step("INSERT INTO turn_state (game_id, acting, round, since, last_move, accounted_at,"
                 " stamp) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
                 " acting = excluded.acting, round = excluded.round, since = excluded.since,"
                 " last_move = excluded.last_move, accounted_at = excluded.accounted_at,"
                 " stamp = excluded.stamp",
                 (state.game_id, json.dumps(list(state.acting)), state.round, state.since,
                  state.last_move, state.accounted_at, state.stamp)),
            Step("DELETE FROM reminders WHERE game_id = ? AND sent_at IS NULL",
                 (state.game_id,)),
            Step("INSERT INTO reminders (game_id, user_id, stamp, n, due_at)"
                 " VALUES (?, ?, ?, 1, ?) ON CONFLICT DO NOTHING",
                 [(state.game_id, user_id, state.stamp, due) for user_id, due in reminders],
                 many=True),
        ], kept

    def turn_stored(self, state: TurnState, charges: Sequence[tuple[str, int, float]],
                    kept: dict[tuple[str, int], float] | None) -> None:
        """`turn_steps`' writes are stored: keep the new state and clocks in memory."""
        # a read while the writes were on their way kept what the database had before them
        self._clocks.pop(state.game_id, None)
        if not self._cached():
            return
        self._turns[state.game_id] = state
        if kept is not None:  # the same sums as the database's
            for e, u, sec in charges:
                kept[(e, u)] = kept.get((e, u), 0.0) + sec
            self._clocks[state.game_id] = kept

    async def clocks(self, game_id: int) -> dict[tuple[str, int], float]:
        kept = self._clocks.get(game_id)
        if kept is not None:
            return dict(kept)
        rows = await self._rows(
            "SELECT engine_id, user_id, seconds FROM clocks WHERE game_id = ?", (game_id,))
        out = {(str(r[0]), int(r[1])): float(r[2]) for r in rows}
        if self._cached():
            self._clocks[game_id] = dict(out)
        return out

    # -- reminders --------------------------------------------------------------------------

    async def due_reminders(self, now: float) -> list[Reminder]:
        rows = await self._rows(
            "SELECT id, game_id, user_id, stamp, n, due_at, sent_at FROM reminders"
            " WHERE sent_at IS NULL AND due_at <= ? ORDER BY due_at, id", (now,))
        return [Reminder(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), float(r[5]),
                         None) for r in rows]

    async def next_due(self) -> float | None:
        rows = await self._rows("SELECT MIN(due_at) FROM reminders WHERE sent_at IS NULL")
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def postpone(self, reminder_id: int, due: float) -> None:
        await self._write("UPDATE reminders SET due_at = ? WHERE id = ? AND sent_at IS NULL",
                          (due, reminder_id))

    async def drop_reminder(self, reminder_id: int) -> None:
        await self._write("DELETE FROM reminders WHERE id = ? AND sent_at IS NULL",
                          (reminder_id,))

    async def claim(self, reminder: Reminder, now: float, next_due: float) -> bool:
        """Mark the reminder sent (once: False if it was already) and schedule the next one."""
        async with self.store._transaction() as db:
            cur = await db.execute(
                "UPDATE reminders SET sent_at = ? WHERE id = ? AND sent_at IS NULL",
                (now, reminder.id))
            if cur.rowcount != 1:
                return False
            await db.execute(
                "INSERT INTO reminders (game_id, user_id, stamp, n, due_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (reminder.game_id, reminder.user_id, reminder.stamp, reminder.n + 1, next_due))
        return True

    async def sent_reminders(self, game_id: int) -> list[Reminder]:
        rows = await self._rows(
            "SELECT id, game_id, user_id, stamp, n, due_at, sent_at FROM reminders"
            " WHERE game_id = ? AND sent_at IS NOT NULL ORDER BY sent_at, id", (game_id,))
        return [Reminder(int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), float(r[5]),
                         float(r[6])) for r in rows]

    # -- users' quiet hours -----------------------------------------------------------------

    async def quiet_hours(self, user_id: int) -> QuietHours:
        kept = self._quiet.get(user_id)
        if kept is not None:
            return kept
        rows = await self._rows(
            "SELECT timezone, quiet_start, quiet_end FROM user_settings WHERE user_id = ?",
            (user_id,))
        found = QuietHours(str(rows[0][0]), rows[0][1], rows[0][2]) if rows else QuietHours()
        if self._cached():
            self._quiet[user_id] = found
        return found

    async def set_quiet_hours(self, user_id: int, quiet: QuietHours) -> None:
        await self._write(
            "INSERT INTO user_settings (user_id, timezone, quiet_start, quiet_end)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET"
            " timezone = excluded.timezone, quiet_start = excluded.quiet_start,"
            " quiet_end = excluded.quiet_end",
            (user_id, quiet.zone, quiet.start, quiet.end))
        if self._cached():
            self._quiet[user_id] = quiet

    # -- nudges and followers ---------------------------------------------------------------

    async def last_nudge(self, game_id: int, target_user: int) -> float | None:
        rows = await self._rows(
            "SELECT MAX(at) FROM nudges WHERE game_id = ? AND target_user = ?",
            (game_id, target_user))
        return None if not rows or rows[0][0] is None else float(rows[0][0])

    async def add_nudge(self, game_id: int, by_user: int, target_user: int, at: float) -> None:
        await self._write(
            "INSERT INTO nudges (game_id, by_user, target_user, at) VALUES (?, ?, ?, ?)",
            (game_id, by_user, target_user, at))

    async def follow(self, game_id: int, user_id: int, at: float) -> bool:
        self._followers.pop(game_id, None)
        return await self._write(
            "INSERT INTO followers (game_id, user_id, since) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            (game_id, user_id, at)) > 0

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        self._followers.pop(game_id, None)
        return await self._write(
            "DELETE FROM followers WHERE game_id = ? AND user_id = ?", (game_id, user_id)) > 0

    async def followers(self, game_id: int) -> list[int]:
        if game_id not in self._followers:
            rows = await self._rows(
                "SELECT user_id FROM followers WHERE game_id = ? ORDER BY since, user_id",
                (game_id,))
            if not self._cached():
                return [int(r[0]) for r in rows]
            self._followers[game_id] = [int(r[0]) for r in rows]
        return list(self._followers[game_id])

    # -- seats ------------------------------------------------------------------------------

    async def change_seat(self, game_id: int, engine_id: str, new_user: int, new_name: str,
                          reason: str, at: float) -> tuple[int, str]:
        """Seat `new_user` in the seat `engine_id` (the engine's player id stays); returns
        the previous holder (user id, name)."""
        with self.store.changing(game_id):  # its players (and maybe its creator) change
            return await self._change_seat(game_id, engine_id, new_user, new_name, reason, at)

    async def _change_seat(self, game_id: int, engine_id: str, new_user: int, new_name: str,
                           reason: str, at: float) -> tuple[int, str]:
        async with self.store._transaction() as db:
            row = await db.fetchone(
                "SELECT user_id, name FROM players WHERE game_id = ? AND engine_id = ?",
                (game_id, engine_id))
            if row is None:
                raise KeyError(engine_id)
            old_user, old_name = int(row[0]), str(row[1])
            await db.execute(
                "UPDATE players SET user_id = ?, name = ? WHERE game_id = ? AND engine_id = ?",
                (new_user, new_name, game_id, engine_id))
            await db.execute(
                "INSERT INTO seat_changes (game_id, engine_id, old_user, old_name, new_user,"
                " reason, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, engine_id, old_user, old_name, new_user, reason, at))
            if new_user > 0:  # a creator handing over their seat hands over the game's care
                await db.execute(
                    "UPDATE games SET creator_id = ? WHERE id = ? AND creator_id = ?",
                    (new_user, game_id, old_user))
            # votes about this seat's previous holder no longer apply
            await db.execute(
                "UPDATE seat_votes SET status = 'stale' WHERE game_id = ? AND engine_id = ?"
                " AND status = 'open'", (game_id, engine_id))
            await db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?",
                             (game_id,))
        return old_user, old_name

    async def seat_history(self, game_id: int) -> list[tuple[str, int, str, int, str]]:
        """(engine id, old user, old name, new user, reason), oldest first."""
        rows = await self._rows(
            "SELECT engine_id, old_user, old_name, new_user, reason FROM seat_changes"
            " WHERE game_id = ? ORDER BY id", (game_id,))
        return [(str(r[0]), int(r[1]), str(r[2]), int(r[3]), str(r[4])) for r in rows]

    async def create_vote(self, game_id: int, kind: str, engine_id: str | None,
                          new_user: int | None, new_name: str | None, proposer: int,
                          at: float) -> int:
        async with self.store._transaction() as db:
            row = await db.fetchone(
                "INSERT INTO seat_votes (game_id, kind, engine_id, new_user, new_name, proposer,"
                " created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (game_id, kind, engine_id, new_user, new_name, proposer, at))
            vote_id = int(row[0])
            await db.execute("INSERT INTO seat_ballots (vote_id, user_id, yes) VALUES (?, ?, 1)",
                             (vote_id, proposer))
        return vote_id

    async def vote(self, vote_id: int) -> SeatVote | None:
        rows = await self._rows(
            "SELECT id, game_id, kind, engine_id, new_user, new_name, proposer, status"
            " FROM seat_votes WHERE id = ?", (vote_id,))
        if not rows:
            return None
        r = rows[0]
        ballots = await self._rows(
            "SELECT user_id, yes FROM seat_ballots WHERE vote_id = ? ORDER BY rowid", (vote_id,))
        return SeatVote(int(r[0]), int(r[1]), str(r[2]), r[3], r[4], r[5], int(r[6]), str(r[7]),
                        tuple((int(b[0]), bool(b[1])) for b in ballots))

    async def open_vote(self, game_id: int, kind: str, engine_id: str | None) -> SeatVote | None:
        rows = await self._rows(
            "SELECT id FROM seat_votes WHERE game_id = ? AND kind = ? AND engine_id IS ?"
            " AND status = 'open' ORDER BY id LIMIT 1", (game_id, kind, engine_id))
        return await self.vote(int(rows[0][0])) if rows else None

    async def cast(self, vote_id: int, user_id: int, yes: bool) -> None:
        await self._write(
            "INSERT INTO seat_ballots (vote_id, user_id, yes) VALUES (?, ?, ?)"
            " ON CONFLICT (vote_id, user_id) DO UPDATE SET yes = excluded.yes",
            (vote_id, user_id, int(yes)))

    async def close_vote(self, vote_id: int, status: str) -> bool:
        return await self._write(
            "UPDATE seat_votes SET status = ? WHERE id = ? AND status = 'open'",
            (status, vote_id)) > 0

    async def games_of_user(self, user_id: int) -> list[int]:
        rows = await self._rows(
            "SELECT p.game_id FROM players p JOIN games g ON g.id = p.game_id"
            " WHERE p.user_id = ? AND g.status = 'active' ORDER BY p.game_id", (user_id,))
        return [int(r[0]) for r in rows]
