"""Game's replays (see engine/game.py): making the state that of a list of moves in effect from
the latest snapshot that holds, loading a recorded log, rebuilding after the log was cut, undo
and redo as log actions, and the replay warnings."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from engine.actions import parse_action
from engine.core import gcpause
from engine.errors import EngineError, EngineFault
from engine.snapshots import Checkpoints
from engine.undos import Undos

if TYPE_CHECKING:
    from engine.game import Game


def _next_move(moves: Sequence[Any], k: int) -> Any:
    """The move processed after moves[k] in a replay of a log accepted once (see
    `Game.next_move`): moves[k + 1], unless moves[k] brings moves of its own (a standing
    order's, among its automatic actions): then None (not known here)."""
    if k + 1 >= len(moves):
        return None
    for sub in moves[k].auto_actions:
        if sub.get("type") != "destination_connection":
            return None
    return moves[k + 1]


class Replaying(Checkpoints):
    """Game's undo/redo and replays (a mixin of Game, which keeps these attributes)."""

    log: list[Any]
    applied_count: int
    last_events: list[Any]
    _undos: Undos
    _trusting: bool
    _checking: bool
    next_move: Any

    if TYPE_CHECKING:  # Game's own (engine/game.py)
        def _reset(self) -> None: ...

        def _process(self, act: Any) -> None: ...

        def _log_append(self, act: Any) -> None: ...

    def _sync(self, target: Sequence[Any], common: int | None = None) -> None:
        """Make the state that of the moves `target` (in effect, in order) from the latest
        snapshot that still holds: one taken after moves that `target` starts with (`common`:
        how many of the moves applied now it starts with; counted when not given)."""
        if common is None:
            common = 0
            for a, b in zip(self._applied, target, strict=False):
                if a is not b:
                    break
                common += 1
        for k in [k for k in self._checkpoints if k > common]:
            del self._checkpoints[k]
        if self._checkpoints:
            k = max(self._checkpoints)
            self._load_snapshot(self._checkpoints[k])
            del self._applied[k:]
        else:
            self._warnings, self._audits = [], []
            self._reset()
            k = 0
        self._replay(target, k)

    def _replay(self, target: Sequence[Any], start: int) -> None:
        """Apply the moves target[start:] as a recorded log (accepted once: not re-judged)."""
        marks = self._marks(len(target), start)
        self._trusting = True
        checking, self._checking = self._checking, False  # moves this game accepted once
        try:
            with gcpause.paused():
                for k in range(start, len(target)):
                    if k in marks:
                        self._checkpoints[k] = self._snapshot()
                    act = target[k]
                    self.next_move = _next_move(target, k)
                    self._process(act)
                    self._applied.append(act)
        finally:
            self._trusting = False
            self._checking = checking
            self.next_move = None

    def load_log(self, actions: Iterable[dict[str, Any] | Any],
                 before: Callable[[Game, Any], None] | None = None, *,
                 accepted: bool = False) -> None:
        """Replace the log with a recorded one (undo/redo included) and replay what is in effect.

        `accepted`: the log is one this bot accepted move by move before (a stored game, the
        game's own log): the checks that can only refuse a move are not made again (see
        `Game.checking`), as the site loads a stored game. Never for a foreign log (a player's
        upload, an 18xx.games import): that is replayed with every check.

        Raises EngineError naming the first rejected action; the game is then left at the
        state just before it.
        """
        with gcpause.paused():
            self._load_log(actions, before, accepted)

    def _load_log(self, actions: Iterable[dict[str, Any] | Any],
                  before: Callable[[Game, Any], None] | None, accepted: bool) -> None:
        log = [parse_action(a, size_checked=accepted) for a in actions]
        self.log = []
        self._undos = Undos()
        self._warnings, self._audits = [], []
        self._checkpoints = {}
        self._reset()
        undos = Undos.of(log)
        effective = undos.live
        marks = self._marks(len(effective), 0)
        applied = 0
        self._trusting = True
        checking, self._checking = self._checking, not accepted
        try:
            for act in effective:
                if before is not None:
                    before(cast("Game", self), act)  # Replaying is a mixin of Game
                if applied in marks:
                    self._checkpoints[applied] = self._snapshot()
                if accepted:
                    self.next_move = _next_move(effective, applied)
                try:
                    self._process(act)
                except Exception as err:
                    self.applied_count = applied
                    # keep the log up to (not including) the rejected action
                    cut = log.index(act)
                    self.log = log[:cut]
                    self._rebuild()
                    if isinstance(err, EngineError):
                        err.action_id = act.id
                        raise
                    raise EngineFault(f"internal error replaying action {act.id} ({act.type}): "
                                      f"{err!r}", action_id=act.id) from err
                self._applied.append(act)
                applied += 1
        finally:
            self._trusting = False
            self._checking = checking
            self.next_move = None
        self.log = log
        self._undos = undos
        self.applied_count = applied

    @property
    def warnings(self) -> list[str]:
        """Replay warnings (e.g. logged revenues that differ from the rules)."""
        while self._audits:
            msg = self._audits.pop(0)()
            if msg:
                self._warnings.append(msg)
        return self._warnings

    def defer_audit(self, check: Callable[[], str | None]) -> None:
        self._audits.append(check)

    def _rebuild(self) -> None:
        """Make the state that of the actions in effect in the log (after the log was cut),
        from the latest snapshot that still holds. The log's actions were accepted once: they
        are replayed as a recorded log."""
        self._undos = Undos.of(self.log)
        self._sync(self._undos.live)

    def _undo_redo(self, act: Any) -> Any:
        if act.type == "undo":
            if not self._undos.live:
                raise EngineError("There is nothing to undo.", rule="undo.nothing")
            if act.action_id is not None and act.action_id != 0 and not self._undos.in_effect(
                act.action_id
            ):
                raise EngineError(f"Cannot undo to action {act.action_id}: it is not in effect.",
                                  rule="undo.unknown")
        else:
            if not self.can_redo():
                raise EngineError("There is nothing to redo.", rule="redo.nothing")
        n = len(self._applied)
        self._log_append(act)
        self.last_events = []
        live = self._undos.live
        if act.type == "undo":
            self._sync(live, common=len(live))  # the moves left in effect: a prefix of those applied
        else:  # the moves put back follow those applied
            self._replay(live, n)
        return act

    def can_redo(self) -> bool:
        """An undo is open: no move has been made since, and it has not been redone (several
        undos in a row are redone one by one, latest first)."""
        return bool(self._undos.undone)
