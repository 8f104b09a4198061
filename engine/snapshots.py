"""Snapshots of a game's state (Game's cache of checkpoints): the state, the round and the
title's own state kept as a pickle that names the game and the title's fixed facts instead of
copying them (a deep copy when something cannot be pickled), and restored from it."""

from __future__ import annotations

import copy
import io
import pickle
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.flow.base import Round
    from engine.state import State
    from engine.title import Title

CHECKPOINT_EVERY = 16  # snapshots at every 16th move in effect (the latest few kept)
CHECKPOINTS_KEPT = 4  # how many of those
RECENT_KEPT = 8  # and the snapshots of the latest moves of the live path
# a live move is checked on the live state; the state before it is kept unless a snapshot at
# most LIVE_EVERY - 1 moves older holds: a refused move (or an undo) then replays at most that
# many moves from it, instead of every live move paying for a pickle of the state
LIVE_EVERY = 4
_STATIC = ("data", "market", "options", "phase_names", "train_specs")  # a title's fixed facts


def _shared_ref(key: str) -> Any:  # named in snapshots; resolved by _SnapUnpickler
    raise RuntimeError("a snapshot is read by Game._load_snapshot only")


class _SnapPickler(pickle.Pickler):
    """Writes a snapshot: the game and its title are named, never copied."""

    def __init__(self, buf: io.BytesIO, shared: dict[int, str]) -> None:
        super().__init__(buf, protocol=pickle.HIGHEST_PROTOCOL)
        self._shared = shared

    def reducer_override(self, obj: Any) -> Any:
        key = self._shared.get(id(obj))
        if key is None:
            return NotImplemented
        return (_shared_ref, (key,))


class _SnapUnpickler(pickle.Unpickler):
    def __init__(self, buf: io.BytesIO, objects: dict[str, Any]) -> None:
        super().__init__(buf)
        self._objects = objects

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_shared_ref":
            return self._objects.__getitem__
        return super().find_class(module, name)


class Checkpoints:
    """Game's snapshots (see engine/game.py): taking one and loading one."""

    title: Title
    state: State
    round: Round
    turn: int
    or_number: int
    last_hexes: tuple[str, ...]
    _warnings: list[str]
    _audits: list[Callable[[], str | None]]
    _processed: int
    _checkpoints: dict[int, Any]  # moves in effect -> snapshot of the state after them
    _applied: list[Any]  # the moves in effect that made the current state

    def _memo(self) -> dict[int, Any]:
        """What a snapshot shares instead of copying: the game itself and the title's facts."""
        memo: dict[int, Any] = {id(self): self, id(self.title): self.title}
        for name in _STATIC:
            value = getattr(self.title, name, None)
            if value is not None:
                memo[id(value)] = value
        return memo

    def _title_state(self) -> dict[str, Any]:
        """The title object's own game state (its attributes other than the title's facts)."""
        return {k: v for k, v in vars(self.title).items() if k not in _STATIC}

    def _set_title_state(self, values: dict[str, Any]) -> None:
        for k in [k for k in vars(self.title) if k not in _STATIC]:
            delattr(self.title, k)
        vars(self.title).update(values)

    def _snapshot(self) -> Any:
        """The state as it is now, kept as a pickle (the game and the title's facts named, not
        copied); a deep copy if something in the state cannot be pickled."""
        payload = (self.state, self.round, self._title_state(), self.turn, self.or_number,
                   self.last_hexes)
        shared = {id(v): k for k, v in self._shared().items()}
        try:
            buf = io.BytesIO()
            _SnapPickler(buf, shared).dump(payload)
            kept: tuple[str, Any] = ("pickle", buf.getvalue())
        except (pickle.PicklingError, TypeError, AttributeError):
            kept = ("copy", copy.deepcopy(payload, self._memo()))
        return kept, list(self._warnings), list(self._audits)

    def _shared(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self, "title": self.title}
        for name in _STATIC:
            value = getattr(self.title, name, None)
            if value is not None:
                out[name] = value
        return out

    def _load_snapshot(self, snap: Any) -> None:
        (kind, kept), warnings, audits = snap
        if kind == "pickle":
            payload = _SnapUnpickler(io.BytesIO(kept), self._shared()).load()
        else:
            payload = copy.deepcopy(kept, self._memo())
        self.state, self.round, title_state, self.turn, self.or_number, self.last_hexes = payload
        self._set_title_state(title_state)
        self._warnings, self._audits = list(warnings), list(audits)
        self._processed += 1

    def _keep_before_live(self, n: int) -> None:
        """Before a live move (the state after n moves in effect): a snapshot of the state,
        unless one kept after LIVE_EVERY - 1 or fewer moves fewer still holds (a refused move
        is then rolled back by loading that one and replaying the moves since, as accepted)."""
        if not any(k in self._checkpoints for k in range(max(0, n - LIVE_EVERY + 1), n + 1)):
            self._checkpoints[n] = self._snapshot()

    def _marks(self, n: int, start: int) -> set[int]:
        """Where a replay of moves start..n keeps snapshots: before its last move (an undo of
        it restores without a replay) and at the last multiple of CHECKPOINT_EVERY before that."""
        marks = {n - 1, (n - 2) // CHECKPOINT_EVERY * CHECKPOINT_EVERY}
        return {k for k in marks if start < k < n and k not in self._checkpoints}

    def _prune(self) -> None:
        """Keep the snapshots of the latest moves and the latest few every CHECKPOINT_EVERY."""
        n = len(self._applied)
        regular = sorted(k for k in self._checkpoints if k % CHECKPOINT_EVERY == 0)
        keep = set(regular[-CHECKPOINTS_KEPT:])
        for k in list(self._checkpoints):
            if k > n or (k < n - RECENT_KEPT and k not in keep):
                del self._checkpoints[k]
