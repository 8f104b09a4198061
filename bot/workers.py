"""Threads the engine's work runs on, answered on the event loop.

What `loop.run_in_executor` with a `ThreadPoolExecutor` does, with less on the way: a job is
queued with the loop's own future, and the thread that runs it sets that future through
`call_soon_threadsafe` (no `concurrent.futures.Future` in between, no chaining of two
futures). A move makes one or two such hops; this halves their cost on the loop
(bench/README.md, section 21).

Jobs start in the order they were queued, on up to `size` threads started as they are
needed. A job whose future was cancelled before it started is not run. `close` runs no more
jobs: the ones waiting are cancelled, the running ones finish (their answers dropped).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[], Any]]


class WorkThreads:
    def __init__(self, size: int, name: str) -> None:
        self.size = max(1, size)
        self.name = name
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._idle = 0  # threads waiting for a job
        self._closed = False

    def submit(self, fn: Callable[[], T]) -> asyncio.Future[T]:
        """Queue `fn` (called with no arguments on one of the threads); its answer or its
        exception comes in the returned future, on the running loop."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            if self._closed:
                raise RuntimeError(f"the {self.name} threads are closed")
            if self._idle > 0:
                self._idle -= 1  # that thread takes this job
            elif len(self._threads) < self.size:
                thread = threading.Thread(target=self._work, daemon=True,
                                          name=f"{self.name}_{len(self._threads)}")
                self._threads.append(thread)
                thread.start()
            self._jobs.put((loop, future, fn))
        return future

    def close(self) -> None:
        """No more jobs: those waiting are cancelled, the threads stop after their current
        one."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            threads = len(self._threads)
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None:
                _answer(job[0], job[1].cancel)
        for _ in range(threads):
            self._jobs.put(None)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            loop, future, fn = job
            if not future.cancelled():
                try:
                    result = fn()
                except BaseException as err:  # handed to the awaiting task
                    if isinstance(err, StopIteration):  # a future cannot hold one
                        err = RuntimeError(f"StopIteration from {fn!r}")
                    _answer(loop, _settle, future, None, err)
                else:
                    _answer(loop, _settle, future, result, None)
            with self._lock:
                if self._closed:
                    return
                self._idle += 1
            del job, future, fn  # nothing of a finished job kept while the thread waits


def _answer(loop: asyncio.AbstractEventLoop, callback: Callable[..., Any], *args: Any) -> None:
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits for the answer
        loop.call_soon_threadsafe(callback, *args)


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


def lower_priority(nice: int) -> None:
    """A worker process's start (render, import): its priority lowered by `nice`, so that the
    bot's replies come first when both want the cores (where the system lets it)."""
    if nice > 0 and hasattr(os, "nice"):
        try:
            os.nice(nice)
        except OSError:
            log.warning("could not lower a worker process's priority")


def stop_pool(pool: Executor | None) -> None:
    """Stop a pool's workers now, not only tell them to stop: a worker process still starting,
    or waiting for work its pool no longer sends once the bot is exiting, otherwise holds the
    exit up (multiprocessing joins its children at exit). Work in hand is dropped."""
    if pool is None:
        return
    workers = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
