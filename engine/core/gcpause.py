"""The cyclic garbage collector paused while a log is replayed.

A replay allocates many short-lived objects (boards, graphs, answers) that reference counting
frees; the collector's passes over them cost a tenth to a fifth of a replay and find little.
`paused()` turns it off for the replay and back on when the last replay running in the process
ends (replays on several threads share one pause). A pause that lasts (threads replaying one
after another without a break) still sweeps the youngest objects every PAUSED_SWEEP
allocations, so memory stays bounded. Collection changes no result: the state is the same.

What a replay leaves alive is long-lived (the game, its log and checkpoints, the board caches):
the young and middle generations' passes right after the pause would only walk it to find it
alive (on the 1870 bank game 8-35 ms, a tenth of the replay). So when the pause ends, every
tracked object is moved into the oldest generation without a pass (`gc.freeze()` then
`gc.unfreeze()`; the process uses no frozen generation of its own). The objects so moved are
counted, and a full pass is made once FULL_AFTER pauses have ended and moved FULL_MOVED objects,
much as the collector's own rule for its full passes goes (ten middle passes, a quarter of the
old objects new; the number of all tracked objects is not asked: it is a walk over them all): a
dropped object that holds itself in a cycle (a game does not: engine/flow/base.py) is freed by
that pass, as it would have been by the collector's.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

PAUSED_SWEEP = 200_000  # net allocations after which a paused replay sweeps the youngest ones
FULL_AFTER = 10  # pauses ended before a full pass (and FULL_MOVED objects moved)
FULL_MOVED = 100_000  # about a quarter of what a bot process tracks with a few games loaded

_lock = threading.Lock()
_depth = 0
_restore = False  # whether the collector was on when the first replay paused it
_moved = 0  # objects moved to the oldest generation since the last full pass made here
_pauses = 0  # pauses ended since then


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
                    _promote_survivors()
                    gc.enable()
            elif gc.get_count()[0] > PAUSED_SWEEP:
                gc.collect(0)


def _promote_survivors() -> None:
    """Move every tracked object into the oldest generation, without a pass (see above); a
    full pass when the collector's rule for one says so."""
    global _moved, _pauses
    _moved += gc.get_count()[0]  # (the objects made since the last young pass, net)
    _pauses += 1
    gc.freeze()
    gc.unfreeze()
    if _pauses >= FULL_AFTER and _moved >= FULL_MOVED:
        gc.collect()
        _moved = _pauses = 0
