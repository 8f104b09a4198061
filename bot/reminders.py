"""Reminders, the service's part: the loop sending what the bot says on its own (reminders
in a game's thread, notices to followers), started with the Discord client.

Whoever must act is reminded after the game's delay (default 12 h after the last move), then
after twice that, and so on (the gap stops growing at MAX_REMINDER_GAP); a reminder due in the
player's quiet hours waits for their end. Each is claimed in the store (marked sent, the next
one scheduled, in one transaction) before it is sent: never twice, also across a restart. The
loop sleeps on the injectable clock, so a FakeClock's `advance()` runs it at once in tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.clock import DAY, HOUR
from bot.mail.repo import is_mail_user
from bot.store.longgames import Reminder
from bot.turns import Outgoing, ServiceTurns, stamp_text

log = logging.getLogger(__name__)

MAX_REMINDER_GAP = 4 * DAY  # the growing gap between reminders stops growing here
IDLE_WAIT = 60.0  # the reminder loop looks again at least this often
MIN_WAIT = 1.0  # and at most this often (unless woken by a notice or a test)


class ServiceReminders(ServiceTurns):
    async def notices_pass(self) -> list[Outgoing]:
        """The reminders due now (each claimed in the store first: never sent twice) and the
        queued notices."""
        now = self.clock.now()
        out = []
        for reminder in await self.long.due_reminders(now):
            msg = await self._reminder(reminder, now)
            if msg is not None:
                out.append(msg)
        out.extend(self.outbox)
        self.outbox.clear()
        return out

    async def _reminder(self, r: Reminder, now: float) -> Outgoing | None:
        record = await self.store.game(r.game_id)
        state = await self.long.turn_state(r.game_id)
        if (record is None or record.status != "active" or state is None
                or state.stamp != r.stamp or r.user_id not in self._users(record, state.acting)):
            await self.long.drop_reminder(r.id)  # the game moved on
            return None
        quiet_end = (await self.long.quiet_hours(r.user_id)).until(now)
        if quiet_end is not None:
            await self.long.postpone(r.id, quiet_end)
            return None
        timing = await self.long.timing(r.game_id)
        gap = min(MAX_REMINDER_GAP, timing.remind_hours * HOUR * 2 ** r.n)
        if not await self.long.claim(r, now, now + gap):
            return None
        where = record.thread_id or record.channel_id
        if is_mail_user(r.user_id):  # no Discord account: the reminder is a mail
            if self.mail_reminder is not None:
                try:
                    await self.mail_reminder(record, r.user_id, state)
                except Exception:
                    log.warning("game %s: the reminder mail to %s failed", record.id, r.user_id,
                                exc_info=True)
                return None
            text = (f"Reminder: {record.title} game #{record.id} waits for "
                    f"**{self._user_name(record, r.user_id)}** (by e-mail) since "
                    f"{stamp_text(state.last_move)} ({state.round}).")
            return Outgoing(text, channel_id=where)
        text = (f"<@{r.user_id}>, reminder: {record.title} game #{record.id} waits for you "
                f"since {stamp_text(state.last_move)} ({state.round}).")
        return Outgoing(text, channel_id=where, mention=(r.user_id,))

    def start_notices(self, send: Callable[[Outgoing], Awaitable[None]],
                      ready: Callable[[], Awaitable[Any]] | None = None) -> None:
        """Start the loop sending reminders and notices (once the client is ready)."""
        if self._notices is None or self._notices.done():
            self._notices = asyncio.create_task(self._run_notices(send, ready),
                                                name="rail: notices")

    async def _run_notices(self, send: Callable[[Outgoing], Awaitable[None]],
                           ready: Callable[[], Awaitable[Any]] | None) -> None:
        if ready is not None:
            await ready()
        await self._backfill()
        while True:
            started, done = self._passes
            self._passes = (started + 1, done)
            try:
                for msg in await self.notices_pass():
                    try:
                        await send(msg)
                    except Exception:
                        log.warning("could not send a notice to %s", msg.channel_id or msg.user_id,
                                    exc_info=True)
                next_due = await self.long.next_due()
            except Exception:
                log.exception("the reminder loop failed a pass")
                next_due = None
            self._passes = (self._passes[0], self._passes[1] + 1)
            wait = IDLE_WAIT if next_due is None else min(IDLE_WAIT, next_due - self.clock.now())
            if self._wake.is_set():
                self._wake.clear()
                continue
            # never a busy loop: a reminder that keeps failing is looked at again in a second
            sleeper = asyncio.ensure_future(self.clock.sleep(max(MIN_WAIT, wait)))
            waker = asyncio.ensure_future(self._wake.wait())
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
            for task in (sleeper, waker):
                task.cancel()
            self._wake.clear()

    async def _backfill(self) -> None:
        """Running games stored before turns were recorded (or whose record was lost): work out
        whose turn it is, so that their reminders start (their clocks start now)."""
        for gid in await self.store.active_game_ids():
            try:
                if await self.long.turn_state(gid) is None:
                    record = await self.store.game(gid)
                    if record is not None:
                        await self._ensure_state(record)
            except Exception:
                log.exception("game %s: could not work out whose turn it is", gid)

    async def notices_idle(self, timeout: float = 10.0) -> None:
        """Wait for a whole pass of the reminder loop begun after this call (tests)."""
        target = self._passes[0]
        self._wake.set()
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self._passes[1] <= target or self._passes[0] <= target:
            if loop.time() > end:
                raise TimeoutError("the reminder loop did not run")
            await asyncio.sleep(0.002)

    def close(self) -> None:
        if self._notices is not None:
            self._notices.cancel()
        super().close()

    async def stop_notices(self) -> None:
        if self._notices is not None:
            self._notices.cancel()
            with contextlib.suppress(BaseException):
                await self._notices
