"""The bot's time: an injectable clock (`Clock`), the real one and a fake one for tests, and
players' quiet hours.

Everything in the bot that depends on time (reminders, turn clocks, nudges, how long a player
has been absent) asks its clock: `now()` (Unix seconds) and `sleep()`. Tests pass a
`FakeClock` and move it forward with `advance()`, so hours of a long game pass at once.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import re
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

HOUR = 3600.0
DAY = 24 * HOUR


class Clock(Protocol):
    def now(self) -> float:
        """Unix time in seconds."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class RealClock:
    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock that moves only when told: `advance()` wakes every sleeper whose time came."""

    def __init__(self, start: float = 1_780_000_000.0) -> None:  # 2026-05-28 20:26:40 UTC
        self._now = float(start)
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), fut))
        await fut

    def advance(self, seconds: float) -> None:
        self._now += float(seconds)
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _t, _n, fut = heapq.heappop(self._sleepers)
            if not fut.done():
                fut.set_result(None)

    def set(self, when: float) -> None:
        self.advance(max(0.0, when - self._now))


# -- quiet hours ----------------------------------------------------------------------------

_OFFSET = re.compile(r"^(?:UTC|GMT)?\s*([+-])(\d{1,2})(?::?(\d{2}))?$", re.IGNORECASE)


def parse_timezone(text: str) -> tzinfo:
    """An IANA zone name (Europe/Paris) or a fixed offset (UTC+2, -05:30); ValueError if
    neither."""
    name = text.strip()
    if name.upper() in ("UTC", "GMT", "Z"):
        return UTC
    m = _OFFSET.match(name)
    if m:
        sign, hours, minutes = m.group(1), int(m.group(2)), int(m.group(3) or 0)
        if hours > 14 or minutes >= 60:
            raise ValueError(f"{text!r} is not a time zone offset")
        delta = timedelta(hours=hours, minutes=minutes)
        return timezone(-delta if sign == "-" else delta)
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as err:
        raise ValueError(f"{text!r} is not a time zone (try Europe/Paris or UTC+2)") from err


def parse_quiet(text: str) -> tuple[int, int] | None:
    """Quiet hours as "22-8" (local hours, start-end); "none" or "off" for none."""
    t = text.strip().lower()
    if t in ("", "none", "off", "no"):
        return None
    m = re.fullmatch(r"(\d{1,2})(?::00)?\s*-\s*(\d{1,2})(?::00)?", t)
    if not m:
        raise ValueError(f"{text!r} is not a range of hours: write e.g. 22-8")
    start, end = int(m.group(1)), int(m.group(2))
    if not (0 <= start <= 23 and 0 <= end <= 24) or start == end % 24:
        raise ValueError(f"{text!r} is not a range of hours: write e.g. 22-8")
    return start, end % 24


@dataclass(frozen=True, slots=True)
class QuietHours:
    """A player's quiet hours (local `start` to `end`, wrapping past midnight) in a zone."""

    zone: str = "UTC"
    start: int | None = None
    end: int | None = None

    def until(self, when: float) -> float | None:
        """If `when` falls in the quiet hours, the time they end; else None."""
        if self.start is None or self.end is None:
            return None
        tz = parse_timezone(self.zone)
        local = datetime.fromtimestamp(when, tz)
        hour = local.hour + local.minute / 60 + local.second / 3600
        inside = (self.start <= hour < self.end if self.start < self.end
                  else hour >= self.start or hour < self.end)
        if not inside:
            return None
        end = local.replace(hour=self.end, minute=0, second=0, microsecond=0)
        if end <= local:
            end += timedelta(days=1)
        # a wall-clock hour in the zone (across a daylight-saving change, resolved by zoneinfo)
        return end.astimezone(UTC).timestamp()

    def describe(self) -> str:
        if self.start is None or self.end is None:
            return f"time zone {self.zone}, no quiet hours"
        return f"time zone {self.zone}, quiet {self.start:02d}:00-{self.end:02d}:00"


def span(seconds: float) -> str:
    """A duration as players read it: 3d 4h, 2h 5m, 12m, 40s."""
    s = int(max(0.0, seconds))
    d, rest = divmod(s, 86400)
    h, rest = divmod(rest, 3600)
    m, sec = divmod(rest, 60)
    if d:
        return f"{d}d {h}h"
    if h:
        return f"{h}h {m}m"
    if m:
        return f"{m}m"
    return f"{sec}s"
