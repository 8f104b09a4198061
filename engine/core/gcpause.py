"""The cyclic garbage collector paused while a log is replayed.

A replay allocates many short-lived objects (boards, graphs, answers) that reference counting
frees; the collector's passes over them cost a tenth to a fifth of a replay and find little.
`paused()` turns it off for the replay and back on when the last replay running in the process
ends (replays on several threads share one pause). A pause that lasts (threads replaying one
after another without a break) still sweeps the youngest objects every PAUSED_SWEEP
allocations, so memory stays bounded. Collection changes no result: the state is the same.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

PAUSED_SWEEP = 200_000  # net allocations after which a paused replay sweeps the youngest ones

_lock = threading.Lock()
_depth = 0
_restore = False  # whether the collector was on when the first replay paused it


@contextmanager
def paused() -> Iterator[None]:
    global _depth, _restore
    with _lock:
        if _depth == 0:
            _restore = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                if _restore:
                    gc.enable()
            elif gc.get_count()[0] > PAUSED_SWEEP:
                gc.collect(0)
