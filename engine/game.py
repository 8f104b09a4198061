"""Game: title + players + options + action log. All state is derived by replaying the log."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine.actions import dump_action, parse_action
from engine.errors import EngineError, EngineFault
from engine.flow.base import Round
from engine.state import State


def _auto_key(a: Any) -> dict[str, Any]:
    """An automatic action as compared: without its id and time stamps."""
    d = dict(a) if isinstance(a, dict) else dump_action(a)
    return {k: str(v) if k == "entity" else v for k, v in d.items()
            if k not in ("id", "created_at", "user")}


def effective_actions(log: Sequence[Any]) -> list[Any]:
    """Resolve undo/redo: the actions in effect, in order (undo/redo themselves excluded)."""
    return _resolve(log)[0]


def _resolve(log: Sequence[Any]) -> tuple[list[Any], int]:
    """(the actions in effect, how many undos a redo could still take back)."""
    kept: list[Any] = [None] * len(log)
    undo_stack: list[list[tuple[Any, int]]] = []
    index_of = {a.id: i for i, a in enumerate(log) if a.id is not None}
    for i, a in enumerate(log):
        if a.type == "undo":
            if a.action_id is not None:
                start = 0 if a.action_id == 0 else index_of.get(a.action_id, -1) + 1
            else:
                live = [j for j in range(i) if kept[j] is not None and kept[j].type != "message"]
                start = live[-1] if live else 0
            batch = [(kept[j], j) for j in range(start, i) if kept[j] is not None and kept[j].type != "message"]
            for _, j in batch:
                kept[j] = None
            undo_stack.append(batch)
        elif a.type == "redo":
            if undo_stack:
                for act, j in undo_stack.pop():
                    kept[j] = act
        else:
            if a.type != "message":
                undo_stack.clear()
            kept[i] = a
    return [a for a in kept if a is not None], len(undo_stack)


CHECKPOINT_EVERY = 16  # applied actions between two snapshots of the state (live path)
CHECKPOINTS_KEPT = 4  # the latest snapshots kept (a refusal or an undo goes back a few moves)
_STATIC = ("data", "market", "options", "phase_names", "train_specs")  # a title's fixed facts


class Game:
    """One game. `apply` validates and applies an action or raises EngineError unchanged.

    A refused move or an undo does not replay the whole log: the state is restored from the
    latest snapshot taken before the moves still in effect, and only the moves after it are
    replayed (snapshots are a cache; the log stays the only source of the state)."""

    def __init__(
        self,
        title: str,
        players: Sequence[tuple[str, str]] | Sequence[str],
        options: Iterable[str] = (),
        *,
        actions: Iterable[dict[str, Any] | Any] = (),
        strict_revenue: bool = False,
    ) -> None:
        from engine.core.data import load_title_data
        from engine.titles import get_title

        self.title_name = title
        self.options = tuple(options)
        self.players: list[tuple[str, str]] = [
            (str(p[0]), str(p[1])) if isinstance(p, (tuple, list)) else (str(p), str(p))
            for p in players
        ]
        from engine.titles import TITLES

        if title not in TITLES:
            raise EngineError(f"Unknown title {title!r}: the engine plays {', '.join(TITLES)}.",
                              rule="game.title")
        limits = load_title_data(title).meta.get("players", {})
        low, high = int(limits.get("min", 2)), int(limits.get("max", 8))
        if not low <= len(self.players) <= high:
            raise EngineError(f"{title} is for {low}-{high} players, not {len(self.players)}.",
                              rule="game.players")
        if len({p for p, _ in self.players}) != len(self.players):
            raise EngineError("Each player needs a different id.", rule="game.players")
        known = {o["id"] for o in load_title_data(title).meta.get("optional_rules", [])}
        unknown = [o for o in self.options if o not in known]
        if unknown:
            raise EngineError(
                f"{title} has no option {', '.join(unknown)}; its options are: "
                f"{', '.join(sorted(known)) or 'none'}.", rule="game.option")
        self.title = get_title(title)(self.options)
        self.strict_revenue = strict_revenue
        self.log: list[Any] = []
        self._legal_memo: tuple[tuple[Any, ...], Any] | None = None
        self._processed = 0
        self._warnings: list[str] = []
        self._audits: list[Callable[[], str | None]] = []
        self.applied_count = 0
        self.raw_player_ids: dict[str, Any] = {}
        # a real game's log being replayed (an 18xx.games import, also move by move): its
        # logged values (revenues, the site's own checks, end_game, standing orders) are taken
        # as logged. In every other game each move is checked against what the rules compute.
        self.imported = False
        self._trusting = False
        # the actions in effect that made the current state, in order, and snapshots of the
        # state after the first k of them: (k, snapshot)
        self._applied: list[Any] = []
        self._checkpoints: list[tuple[int, Any]] = []
        self._reset()
        for a in actions:
            self.apply(a)

    # ------------------------------------------------------------------ state
    def _reset(self) -> None:
        self._applied = []
        self.state: State = self.title.setup(self)
        self.last_hexes: tuple[str, ...] = ()
        self.turn = 0  # stock round number (set number)
        self.or_number = 0  # operating rounds so far (across the game)
        self.round: Round = self.title.first_round(self)
        self._settle()

    def _settle(self) -> None:
        while self.round.finished and not self.state.finished:
            nxt = self.title.next_round(self, self.round)
            if nxt is None:
                self.state.finished = True
                break
            self.round = nxt

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def trusting_log(self) -> bool:
        """True while replaying a recorded log (an import, a stored game, a rebuild after an
        undo): its actions were accepted once, and an import's logged values stand (checked
        later by the warnings). False for a live move, which must be legal as offered."""
        return self._trusting

    # ------------------------------------------------------------------ apply
    def apply(self, action: dict[str, Any] | Any, *, agreed: bool = False) -> Any:
        """Validate and apply one action; append it to the log; return the stored action.

        All or nothing: a refused move raises EngineError, any other failure EngineFault; in
        both cases the state and the log are exactly as before. `agreed`: an `end_game` that
        the game's players agreed on (the bot checks who may end it)."""
        act = parse_action(action)
        last_id = (self.log[-1].id or len(self.log)) if self.log else 0
        logged = self.imported
        if act.id is None or (not logged and act.id != last_id + 1):
            # a live move's id is the log's next one, whatever it claims
            act = act.model_copy(update={"id": last_id + 1})
        elif act.id <= last_id:
            raise EngineError(f"Action ids follow the log: {act.id} is not after {last_id}.",
                              rule="action.id")
        try:
            if not logged:
                self._check_live(act, agreed)
            if act.type not in ("undo", "redo", "message"):
                from engine.validate import check_ids

                check_ids(self, act)
        except EngineError as err:
            err.action_id = act.id
            raise
        except Exception as err:  # the checks change nothing: only report the fault
            raise EngineFault(f"internal error checking action {act.id} ({act.type}): {err!r}",
                              action_id=act.id) from err
        if act.type in ("undo", "redo"):
            return self._guarded(act, lambda: self._undo_redo(act))
        if act.type == "message":
            self.log.append(act)
            return act
        if self.state.finished:
            raise EngineError("The game is over: no more moves.", rule="game.over")

        claimed: list[dict[str, Any]] = []
        if not logged and act.auto_actions:
            # the engine makes its own automatic actions; a live move may only repeat them
            claimed, act = list(act.auto_actions), act.model_copy(update={"auto_actions": []})

        def run() -> Any:
            self._trusting = logged
            try:
                self._process(act)
            finally:
                self._trusting = False
            stored = act
            autos = self.title.take_auto_actions(self)
            if claimed:
                # a live move may repeat the automatic actions the engine makes (a stored log
                # replayed move by move), never add others
                if [_auto_key(a) for a in claimed] != [_auto_key(a) for a in autos]:
                    raise EngineError("Automatic follow-up actions are the engine's own: this "
                                      "move makes " + (", ".join(str(a.get("type")) for a in autos)
                                                       or "none") + ".",
                                      rule="action.auto_actions")
                stored = act.model_copy(update={"auto_actions": autos})
            elif autos:  # stored with the action, as the site records its automatic actions
                stored = act.model_copy(update={"auto_actions": [*act.auto_actions, *autos]})
            self.log.append(stored)
            self._applied.append(stored)
            if len(self._applied) % CHECKPOINT_EVERY == 0:
                self._checkpoint()
            return stored

        return self._guarded(act, run)

    def _guarded(self, act: Any, run: Callable[[], Any]) -> Any:
        size = len(self.log)
        try:
            return run()
        except EngineError as err:
            err.action_id = act.id
            del self.log[size:]
            self._rebuild()  # leave the state exactly as before the rejected move
            raise
        except Exception as err:
            del self.log[size:]
            self._rebuild()
            raise EngineFault(f"internal error applying action {act.id} ({act.type}): {err!r}",
                              action_id=act.id) from err

    def _check_live(self, act: Any, agreed: bool) -> None:
        """What a live move may not be: only what the legal answer offers is a move."""
        if act.entity is None and act.type not in ("undo", "redo", "message"):
            raise EngineError("A move names who makes it (its entity).", rule="action.entity")
        if act.type.startswith("program_") or act.type == "destination_connection":
            raise EngineError("Standing orders (auto-buy, auto-pass) and the site's logged checks "
                              "are not moves in this game.", rule="action.program")
        if act.type == "end_game" and not agreed:
            raise EngineError("A game ends early only when its players agree (in a bot game: "
                              "all players, or the game's creator); it is not a move.",
                              rule="game.end_game")
        if act.type in ("buy_shares", "sell_shares"):
            from engine.validate import check_claims

            check_claims(self, act)

    # ------------------------------------------------------------------ snapshots
    def _memo(self) -> dict[int, Any]:
        """What a snapshot shares instead of copying: the game itself and the title's facts."""
        memo: dict[int, Any] = {id(self): self}
        for name in _STATIC:
            value = getattr(self.title, name, None)
            if value is not None:
                memo[id(value)] = value
        return memo

    def _checkpoint(self) -> None:
        snap = copy.deepcopy((self.state, self.round, self.title, self.turn, self.or_number,
                              self.last_hexes), self._memo())
        self._checkpoints.append((len(self._applied), (snap, list(self._warnings),
                                                       list(self._audits))))
        del self._checkpoints[:-CHECKPOINTS_KEPT]

    def _restore(self, effective: list[Any]) -> int:
        """Go back to the latest snapshot whose moves are all still in effect; returns how many
        of `effective` it covers (0: none fits, the game is set up anew)."""
        same = 0
        for a, b in zip(self._applied, effective, strict=False):
            if a is not b:
                break
            same += 1
        self._checkpoints = [c for c in self._checkpoints if c[0] <= same]
        if not self._checkpoints:
            self._warnings, self._audits = [], []
            self._reset()
            return 0
        k, (snap, warnings, audits) = self._checkpoints[-1]
        (self.state, self.round, self.title, self.turn, self.or_number,
         self.last_hexes) = copy.deepcopy(snap, self._memo())
        self._warnings, self._audits = list(warnings), list(audits)
        self._applied = list(effective[:k])
        return k

    def _process(self, act: Any) -> None:
        self._processed += 1  # any change of state goes through here (see `legal`)
        if act.type.startswith("program_") or act.type == "destination_connection":
            self._apply_auto(act)
            return
        self.last_hexes = ()
        if act.type == "end_game":  # the site's manual end (agreed, or from an imported log)
            self.state.finished = True
            self.state.end_reason = self.state.end_reason or "manually_ended"
            return
        self.round.process(act)
        self._settle()
        self._apply_auto(act)

    def _apply_auto(self, act: Any) -> None:
        for sub in act.auto_actions:
            self._process(parse_action(sub))

    def load_log(self, actions: Iterable[dict[str, Any] | Any],
                 before: Callable[[Game, Any], None] | None = None) -> None:
        """Replace the log with a recorded one (undo/redo included) and replay what is in effect.

        Raises EngineError naming the first rejected action; the game is then left at the
        state just before it.
        """
        log = [parse_action(a) for a in actions]
        self.log = []
        self._warnings, self._audits = [], []
        self._checkpoints = []
        self._reset()
        applied = 0
        effective = effective_actions(log)
        self._trusting = True
        try:
            for act in effective:
                if act.type == "message":
                    continue
                if before is not None:
                    before(self, act)
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
                applied += 1
        finally:
            self._trusting = False
        self.log = log
        self.applied_count = applied
        self._applied = [a for a in effective if a.type != "message"]

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
        """Make the state that of the actions in effect in the log (after a refusal, an undo or
        a redo), from the latest snapshot that still holds. The log's actions were accepted
        once: they are replayed as a recorded log."""
        effective = [a for a in effective_actions(self.log) if a.type != "message"]
        start = self._restore(effective)
        self._trusting = True
        try:
            for act in effective[start:]:
                self._process(act)
                self._applied.append(act)
        finally:
            self._trusting = False
        if len(effective) - start > CHECKPOINT_EVERY:
            self._checkpoint()  # a long replay (the first refusal after a load): not twice

    def _undo_redo(self, act: Any) -> Any:
        if act.type == "undo":
            live = [a for a in effective_actions(self.log) if a.type != "message"]
            if not live:
                raise EngineError("There is nothing to undo.", rule="undo.nothing")
            if act.action_id is not None and act.action_id != 0 and not any(
                a.id == act.action_id for a in live
            ):
                raise EngineError(f"Cannot undo to action {act.action_id}: it is not in effect.",
                                  rule="undo.unknown")
        else:
            if not self.can_redo():
                raise EngineError("There is nothing to redo.", rule="redo.nothing")
        self.log.append(act)
        self._rebuild()
        return act

    def can_redo(self) -> bool:
        """An undo is open: no move has been made since, and it has not been redone (several
        undos in a row are redone one by one, latest first)."""
        return _resolve(self.log)[1] > 0

    # ------------------------------------------------------------------ queries
    def current_entity(self) -> tuple[str, str]:
        return self.round.current()

    def acting_players(self) -> tuple[str, ...]:
        if self.finished:
            return ()
        eid, etype = self.round.current()
        if etype == "player":
            return (eid,)
        pres = self.title.controller(self, eid, etype)
        return (pres,) if pres else ()

    def legal(self) -> Any:
        """What may be done now (engine.legal.legal_moves), kept until the state changes (an
        action processed, a snapshot restored): the bot asks it for every autocomplete and
        check, and a late-game lay answer is costly."""
        from engine.legal import legal_moves

        key = (self._processed, id(self.state), len(self.log))
        if self._legal_memo is not None and self._legal_memo[0] == key:
            return self._legal_memo[1]
        answer = legal_moves(self)
        self._legal_memo = (key, answer)
        return answer

    def view(self) -> Any:
        from engine.viewbuild import build_view

        return build_view(self)

    def result(self) -> dict[str, int]:
        return {p.id: self.title.player_value(self, p) for p in self.state.players}

    def export_actions(self) -> list[dict[str, Any]]:
        return [dump_action(a) for a in self.log]

    def player_name(self, pid: str) -> str:
        for p, n in self.players:
            if p == pid:
                return n
        return pid
