"""Game: title + players + options + action log. All state is derived by replaying the log.

This module owns applying a move (checked, all or nothing) and the queries on a game; undo/redo
over the live state and replaying a log are engine/replaying.py, which moves are in effect is
engine/undos.py, the snapshots that make an undo or a refused move cheap are
engine/snapshots.py."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from engine import programs
from engine.actions import dump_action, parse_action
from engine.errors import EngineError, EngineFault
from engine.flow.base import Round
from engine.programs import PROGRAM_TYPES
from engine.replaying import Replaying
from engine.snapshots import CHECKPOINT_EVERY
from engine.state import State
from engine.undos import Undos, effective_actions

if TYPE_CHECKING:
    from engine.legal import Legal
    from engine.view import GameView, ViewKey

__all__ = ["Game", "Undos", "effective_actions"]


def _auto_key(a: Any) -> dict[str, Any]:
    """An automatic action as compared: without its id and time stamps."""
    d = dict(a) if isinstance(a, dict) else dump_action(a)
    return {k: str(v) if k == "entity" else v for k, v in d.items()
            if k not in ("id", "created_at", "user")}


class Game(Replaying):
    """One game. `apply` validates and applies an action or raises EngineError unchanged.

    A refused live move is checked on the live state and rolled back to the latest snapshot
    before it (one is kept at least every snapshots.LIVE_EVERY live moves) and a replay of the
    moves since, as accepted; an undo restores the latest snapshot at or before the moves still in effect and
    replays only the moves after it; a redo applies the moves it puts back to the current state.
    Snapshots are a cache; the log stays the only source of the state."""

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
        # the title's own game state as the title starts (a rebuild from the start restores it)
        self._title_fresh = copy.deepcopy(self._title_state(), self._memo())
        self.strict_revenue = strict_revenue
        self.log: list[Any] = []
        self._legal_memo: tuple[tuple[Any, ...], Legal] | None = None
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
        # False while a log this game (or the bot's store) accepted once is replayed: the
        # legality checks that only refuse (a lay's or a token's connection, a step's kinds
        # asked again) are not made again; what they would change is nothing (see `checking`)
        self._checking = True
        # while a log accepted once is replayed (checking False): the move processed after the
        # one being processed, or None (unknown, or a live move). The turn's flow reads from it
        # what a step would offer where the answer is costly and the move tells it (see
        # OperatingRound.offers)
        self.next_move: Any = None
        # an import whose logged programmed moves are left out, made by the engine instead
        # (a check of the engine's standing orders against the site's record)
        self.own_programs = False
        # the log's undo/redo resolution (its moves in effect), kept as the log grows
        self._undos = Undos()
        self._pending: list[tuple[Any, ...]] = []  # what the action being applied added to it
        # the moves in effect that made the current state, in order, and snapshots of the
        # state after the first k of them: {k: snapshot}
        self._applied: list[Any] = []
        self._checkpoints: dict[int, Any] = {}
        # what followed from the last move applied (engine/events.py): derived, not state
        self.last_events: list[Any] = []
        self._recorder: Any = None
        # the last board made of the state (engine/flow/or_tokens.py board): a cache, not state
        self.board_memo: Any = None
        # the held trains and phase 1870's train limit was last checked for, and who was over it
        # (engine/titles/t1870/trains.py crowded): a cache, not state
        self.crowd_memo: Any = None
        # the same for 18MEX's train-limit interruption (engine/titles/t18mex/merger.py
        # over_limit): a cache, not state
        self.over_memo: Any = None
        # the digest of the state after the last action (engine/events.py): a cache, not state
        self.digest_memo: Any = None
        self._reset()
        for a in actions:
            self.apply(a)

    # ------------------------------------------------------------------ state
    def _reset(self) -> None:
        self._applied = []
        self._processed += 1
        self._set_title_state(copy.deepcopy(self._title_fresh, self._memo()))
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

    @property
    def checking(self) -> bool:
        """Whether a move's legality is checked in full (True for a live move and for an
        import of a foreign log; False while a log accepted once is replayed: a stored game of
        the bot, `load_log(..., accepted=True)`, or a rebuild after an undo or a refusal).
        A check skipped when False is one that can only refuse a move, never change the state:
        the states after every move are the same either way (tests/engine/test_accepted_replay.py)."""
        return self._checking

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
            self._log_append(act)
            return act
        if self.state.finished:
            raise EngineError("The game is over: no more moves.", rule="game.over")

        claimed: list[dict[str, Any]] = []
        if not logged and act.auto_actions:
            # the engine makes its own automatic actions; a live move may only repeat them
            claimed, act = list(act.auto_actions), act.model_copy(update={"auto_actions": []})

        def run() -> Any:
            if not logged:
                # a live move is checked on the live state: keep a way back to the state
                # before it, if it is refused (engine/snapshots.py, LIVE_EVERY)
                self._keep_before_live(len(self._applied))
            self._trusting = logged
            from engine.events import Recorder

            self._recorder = recorder = Recorder(self, act)
            try:
                self._process(act)
            finally:
                self._trusting = False
                self._recorder = None
            events = recorder.finish(self)
            stored = act
            autos = self.title.take_auto_actions(self)
            if (not logged or self.own_programs) and self.state.programs:
                # standing orders act when the turn comes to their player; what follows from
                # them is told with the move that brought the turn
                after_move = Recorder(self, parse_action({"type": "message"}))
                made = self._run_programs()
                if made:
                    autos = [*autos, *made]
                    events = [*events, *after_move.finish(self)]
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
            self._log_append(stored)
            self._applied.append(stored)
            if len(self._applied) % CHECKPOINT_EVERY == 0 and len(self._applied) not in self._checkpoints:
                self._checkpoints[len(self._applied)] = self._snapshot()
            self.last_events = events
            return stored

        return self._guarded(act, run)

    def _log_append(self, act: Any) -> None:
        self.log.append(act)
        self._pending.append(self._undos.push(act))

    def _guarded(self, act: Any, run: Callable[[], Any]) -> Any:
        size = len(self.log)
        self._pending = []
        try:
            out = run()
        except EngineError as err:
            err.action_id = act.id
            self._roll_back(size)  # leave the state exactly as before the rejected move
            raise
        except Exception as err:
            self._roll_back(size)
            raise EngineFault(f"internal error applying action {act.id} ({act.type}): {err!r}",
                              action_id=act.id) from err
        self._pending = []
        self._prune()
        return out

    def _roll_back(self, size: int) -> None:
        for token in reversed(self._pending):
            self._undos.pop(token)
        self._pending = []
        del self.log[size:]
        self._sync(self._undos.live)
        n = len(self._applied)
        if n not in self._checkpoints:
            # the position a move was refused at is kept: a retry there (the usual next step)
            # is then rolled back from it, without a replay
            self._checkpoints[n] = self._snapshot()

    def _check_live(self, act: Any, agreed: bool) -> None:
        """What a live move may not be: only what the legal answer offers is a move."""
        if act.entity is None and act.type not in ("undo", "redo", "message"):
            raise EngineError("A move names who makes it (its entity).", rule="action.entity")
        if act.type == "destination_connection":
            raise EngineError("The site's logged connection checks are the engine's own, not "
                              "moves.", rule="action.program")
        if act.type in PROGRAM_TYPES:
            programs.check_order(self, act)
        if act.type == "end_game" and not agreed:
            raise EngineError("A game ends early only when its players agree (in a bot game: "
                              "all players, or the game's creator); it is not a move.",
                              rule="game.end_game")
        if act.type in ("buy_shares", "sell_shares"):
            from engine.validate import check_claims

            check_claims(self, act)

    def _process(self, act: Any) -> None:
        self._processed += 1  # any change of state goes through here (see `legal`)
        if act.type in PROGRAM_TYPES:
            programs.record(self, act)
            self._apply_auto(act)
            return
        if act.type == "destination_connection":
            self._apply_auto(act)
            return
        self.last_hexes = ()
        if act.type == "end_game":  # the site's manual end (agreed, or from an imported log)
            self.state.finished = True
            self.state.end_reason = self.state.end_reason or "manually_ended"
            return
        before = self.round
        self.round.process(act)
        self.title.action_processed(self)
        if self._recorder is not None:
            self._recorder.mid(self)
        self._settle()
        if self.state.programs:
            programs.observe(self, act, before.kind == "stock", before)
        self._apply_auto(act)
        self.title.action_over(self)

    def _run_programs(self) -> list[dict[str, Any]]:
        """The programmed moves of whoever must act now, made one after another while the turn
        is at a player with a standing order (engine/programs.py); each with the automatic
        actions of the title it causes, in the order made (as the site records them)."""
        out: list[dict[str, Any]] = []
        for _ in range(programs.MAX_AUTO):
            due = programs.due(self)
            if due is None:
                break
            moves = programs.next_moves(self, *due)
            if not moves:
                break
            for move in moves:
                sub = parse_action(move)
                self._process(sub)
                out.append(dump_action(sub))
                out.extend(self.title.take_auto_actions(self))
        return out

    def _apply_auto(self, act: Any) -> None:
        for sub in act.auto_actions:
            self._process(parse_action(sub, size_checked=True))  # (checked with `act`)

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

    def legal(self) -> Legal:
        """What may be done now (engine.legal.legal_moves), kept until the state changes (an
        action processed, a snapshot restored): the bot asks it for every autocomplete and
        check, and a late-game lay answer is costly."""
        from engine.legal import legal_moves

        key = self._legal_key()
        if self._legal_memo is not None and self._legal_memo[0] == key:
            return self._legal_memo[1]
        answer = legal_moves(self)
        self._legal_memo = (key, answer)
        return answer

    def _legal_key(self) -> tuple[Any, ...]:
        """What the kept legal answer holds for: any change of state changes it."""
        return (self._processed, id(self.state), len(self.log))

    def kept_legal(self) -> Legal | None:
        """The answer `legal()` would give now if it is kept (the state unchanged since it was
        worked out), else None; works nothing out (a caller may check cheaply whether what it
        derived from a legal answer still holds)."""
        if self._legal_memo is not None and self._legal_memo[0] == self._legal_key():
            return self._legal_memo[1]
        return None

    def get_ready(self) -> None:
        """The next live move's groundwork, done ahead by a caller with time to spare: the
        snapshot it would keep before it (engine/snapshots.py, LIVE_EVERY) and the legal
        answer (kept until the state changes). Nothing the game shows or decides changes:
        the move finds both done instead of doing them first."""
        if not self.finished:
            self._keep_before_live(len(self._applied))
            self.legal()

    def view(self) -> GameView:
        from engine.viewbuild import build_view

        return build_view(self)

    def view_key(self) -> ViewKey:
        """The hexes, market, who acts and the round, as `view()` gives them, without the rest."""
        from engine.viewbuild import build_key

        return build_key(self)

    def result(self) -> dict[str, int]:
        return {p.id: self.title.player_value(self, p) for p in self.state.players}

    def export_actions(self) -> list[dict[str, Any]]:
        return [dump_action(a) for a in self.log]

    def player_name(self, pid: str) -> str:
        for p, n in self.players:
            if p == pid:
                return n
        return pid
