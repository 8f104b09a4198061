"""The bot's clock and quiet hours (bot/clock.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bot.clock import FakeClock, QuietHours, parse_quiet, parse_timezone, span


def _ts(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


def test_time_zones_and_quiet_hours_are_read() -> None:
    assert parse_timezone("UTC+2").utcoffset(None) == timedelta(hours=2)
    assert parse_timezone("-05:30").utcoffset(None) == -timedelta(hours=5, minutes=30)
    assert str(parse_timezone("America/Chicago")) == "America/Chicago"
    for bad in ("UTC+15", "Mars/Base", "noon"):
        with pytest.raises(ValueError):
            parse_timezone(bad)
    assert parse_quiet("22-8") == (22, 8) and parse_quiet("23:00-24") == (23, 0)
    assert parse_quiet("none") is None
    for bad in ("8", "8-8", "25-3", "evening"):
        with pytest.raises(ValueError):
            parse_quiet(bad)


def test_quiet_hours_wrap_midnight_and_follow_summer_time() -> None:
    night = QuietHours("Europe/Paris", 22, 8)
    # 21:30 UTC in January is 22:30 in Paris (UTC+1): quiet until 08:00 Paris = 07:00 UTC
    assert night.until(_ts(2026, 1, 10, 21, 30)) == _ts(2026, 1, 11, 7, 0)
    # in July Paris is UTC+2: 05:59 UTC is 07:59, quiet until 06:00 UTC; 06:00 UTC is not
    assert night.until(_ts(2026, 7, 10, 5, 59)) == _ts(2026, 7, 10, 6, 0)
    assert night.until(_ts(2026, 7, 10, 6, 0)) is None
    day = QuietHours("UTC", 9, 17)
    assert day.until(_ts(2026, 3, 1, 8, 59)) is None
    assert day.until(_ts(2026, 3, 1, 9, 0)) == _ts(2026, 3, 1, 17, 0)
    assert QuietHours("UTC").until(_ts(2026, 3, 1, 3, 0)) is None


def test_span_reads_like_a_clock() -> None:
    assert [span(s) for s in (40, 600, 3600 * 2 + 300, 86400 * 3 + 3600 * 4)] == [
        "40s", "10m", "2h 5m", "3d 4h"]


async def test_fake_clock_wakes_sleepers_in_order() -> None:
    clock = FakeClock(1000.0)
    woke: list[str] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append(name)

    tasks = [asyncio.create_task(sleeper("late", 20)), asyncio.create_task(sleeper("soon", 5))]
    await asyncio.sleep(0)
    clock.advance(4)
    await asyncio.sleep(0)
    assert woke == [] and clock.now() == 1004.0
    clock.advance(1)
    await asyncio.sleep(0)
    assert woke == ["soon"]
    clock.advance(100)
    await asyncio.gather(*tasks)
    assert woke == ["soon", "late"]
