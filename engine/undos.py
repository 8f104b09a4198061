"""Undo and redo over an action log: which moves are in effect (Undos, kept up to date as the
log grows) and the actions in effect of a whole log (effective_actions)."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any


class Undos:
    """Undo/redo resolution of a log, kept up to date as actions are appended.

    The moves in effect form a stack: a move is pushed, an undo takes a run of the latest off
    (the last one, or all after a named action) and keeps it for a redo, a redo puts the latest
    run taken back, a new move forgets the runs kept. Messages are never undone. Each step
    costs what it moves (an undo to a named action finds it by bisection), so resolving a log
    is linear in its length, however many undos it holds."""

    def __init__(self, index_of: dict[int, int] | None = None) -> None:
        self.live_idx: list[int] = []  # log positions of the moves in effect, in order
        self.live: list[Any] = []  # the moves in effect (no messages, undos or redos)
        self.undone: list[tuple[list[int], list[Any]]] = []  # runs a redo can restore, latest last
        # action id -> log position (a whole log's when given, as when a log is read at once;
        # an action appended later adds its own)
        self.index_of: dict[int, int] = {} if index_of is None else index_of
        self.size = 0  # actions read

    @classmethod
    def of(cls, log: Sequence[Any]) -> Undos:
        res = cls({a.id: i for i, a in enumerate(log) if a.id is not None})
        for a in log:
            res.push(a)
        return res

    def push(self, a: Any) -> tuple[Any, ...]:
        """Read the next action of the log; returns what `pop` needs to take it back."""
        i = self.size
        self.size += 1
        added = a.id is not None and a.id not in self.index_of
        if added:
            self.index_of[a.id] = i
        if a.type == "undo":
            if a.action_id is not None:
                start = 0 if a.action_id == 0 else self.index_of.get(a.action_id, -1) + 1
                k = bisect_left(self.live_idx, start)
            else:
                k = max(len(self.live) - 1, 0)
            self.undone.append((self.live_idx[k:], self.live[k:]))
            del self.live_idx[k:], self.live[k:]
            return ("undo", a, added)
        if a.type == "redo":
            run = self.undone.pop() if self.undone else None
            if run is not None:
                self.live_idx.extend(run[0])
                self.live.extend(run[1])
            return ("redo", a, added, run)
        if a.type == "message":
            return ("message", a, added)
        kept, self.undone = self.undone, []
        self.live_idx.append(i)
        self.live.append(a)
        return ("move", a, added, kept)

    def pop(self, token: tuple[Any, ...]) -> None:
        """Take back the last action read (`token`: what its `push` returned)."""
        kind, a = token[0], token[1]
        self.size -= 1
        if kind == "undo":
            idx, acts = self.undone.pop()
            self.live_idx.extend(idx)
            self.live.extend(acts)
        elif kind == "redo":
            run = token[3]
            if run is not None:
                del self.live_idx[len(self.live_idx) - len(run[0]):]
                del self.live[len(self.live) - len(run[1]):]
                self.undone.append(run)
        elif kind == "move":
            self.live_idx.pop()
            self.live.pop()
            self.undone = token[3]
        if token[2]:
            del self.index_of[a.id]

    def in_effect(self, action_id: int) -> bool:
        """Whether the action with this id is a move in effect."""
        i = self.index_of.get(action_id)
        if i is None:
            return False
        k = bisect_left(self.live_idx, i)
        return k < len(self.live_idx) and self.live_idx[k] == i


def effective_actions(log: Sequence[Any]) -> list[Any]:
    """Resolve undo/redo: the actions in effect, in order (undo/redo themselves excluded)."""
    live = set(Undos.of(log).live_idx)
    return [a for i, a in enumerate(log) if i in live or a.type == "message"]


def _resolve(log: Sequence[Any]) -> tuple[list[Any], int]:
    """(the actions in effect, how many undos a redo could still take back)."""
    return effective_actions(log), len(Undos.of(log).undone)
