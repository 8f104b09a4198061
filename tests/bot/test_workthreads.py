"""bot/workers.py: the engine's threads, answered on the loop."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.workers import WorkThreads


async def test_answers_and_errors_come_back_on_the_loop() -> None:
    pool = WorkThreads(2, "t")
    try:
        seen: list[str] = []

        def job() -> int:
            seen.append(threading.current_thread().name)
            return 7

        assert await pool.submit(job) == 7
        assert seen and seen[0].startswith("t_") and seen[0] != threading.current_thread().name

        def bad() -> None:
            raise ValueError("refused")

        with pytest.raises(ValueError, match="refused"):
            await pool.submit(bad)

        def stop() -> None:
            raise StopIteration

        with pytest.raises(RuntimeError, match="StopIteration"):
            await pool.submit(stop)
    finally:
        pool.close()


async def test_at_most_size_threads_and_jobs_start_in_order() -> None:
    pool = WorkThreads(3, "t")
    gate = threading.Event()
    started: list[int] = []
    lock = threading.Lock()
    try:
        def job(k: int) -> int:
            with lock:
                started.append(k)
            gate.wait(5)
            return threading.get_ident()

        futures = [pool.submit(lambda k=k: job(k)) for k in range(10)]
        await asyncio.sleep(0.05)
        assert len(started) == 3  # three threads, each holding a job
        gate.set()
        idents = await asyncio.gather(*futures)
        assert len(set(idents)) == 3
        assert sorted(started[:3]) == [0, 1, 2] and started[3:] == list(range(3, 10))
        # idle threads are reused: no more threads for a second round
        assert len(set(await asyncio.gather(*(pool.submit(threading.get_ident)
                                              for _ in range(6))))) <= 3
        assert len(pool._threads) == 3
    finally:
        pool.close()


async def test_a_job_cancelled_before_it_starts_is_not_run() -> None:
    pool = WorkThreads(1, "t")
    gate = threading.Event()
    ran: list[str] = []
    try:
        first = pool.submit(lambda: gate.wait(5))
        second = pool.submit(lambda: ran.append("second"))
        third = pool.submit(lambda: ran.append("third") or 3)
        second.cancel()
        gate.set()
        assert await first is True
        assert await third == 3
        assert ran == ["third"]
    finally:
        pool.close()


async def test_close_cancels_what_waits_and_refuses_more() -> None:
    pool = WorkThreads(1, "t")
    gate = threading.Event()
    running = pool.submit(lambda: gate.wait(5))
    waiting = pool.submit(lambda: 1)
    await asyncio.sleep(0.02)
    pool.close()
    gate.set()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert not running.done() or running.result() is True
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit(lambda: 1)
    for thread in pool._threads:
        thread.join(5)
        assert not thread.is_alive()
