"""Undo/redo resolution kept as the log grows (engine.game.Undos) gives what resolving the
whole log at once by the plain rule gives, on random logs of moves, messages, undos (of the
last move, to a named action, to the start) and redos; taking an action back restores it."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import parse_action
from engine.game import Undos, effective_actions


def _plain(log: list[Any]) -> tuple[list[Any], int]:
    """The rule, position by position: an undo takes back the last move in effect (or every
    move after the named action), a redo puts back the latest run taken back, a move forgets
    the runs kept; messages stay."""
    kept: list[Any] = [None] * len(log)
    runs: list[list[int]] = []
    where = {a.id: i for i, a in enumerate(log)}
    for i, a in enumerate(log):
        if a.type == "undo":
            moves = [j for j in range(i) if kept[j] is not None and kept[j].type != "message"]
            if a.action_id is None:
                run = moves[-1:]
            else:
                start = 0 if a.action_id == 0 else where.get(a.action_id, -1) + 1
                run = [j for j in moves if j >= start]
            for j in run:
                kept[j] = None
            runs.append(run)
        elif a.type == "redo":
            if runs:
                for j in runs.pop():
                    kept[j] = log[j]
        else:
            if a.type != "message":
                runs.clear()
            kept[i] = a
    return [a for a in kept if a is not None], len(runs)


def _random_log(rng: random.Random, n: int) -> list[Any]:
    log: list[Any] = []
    for i in range(1, n + 1):
        r = rng.random()
        a: dict[str, Any] = {"id": i, "entity": "1", "entity_type": "player"}
        if r < 0.25:
            a["type"] = "undo"
            if rng.random() < 0.3 and log:
                a["action_id"] = rng.choice([0, *[x.id for x in log]])
        elif r < 0.4:
            a["type"] = "redo"
        elif r < 0.5:
            a["type"] = "message"
            a["message"] = "hi"
        else:
            a["type"] = "pass"
        log.append(parse_action(a))
    return log


def test_kept_resolution_equals_the_plain_rule_on_random_logs() -> None:
    rng = random.Random(7)
    for _ in range(300):
        log = _random_log(rng, rng.randrange(1, 60))
        want, redoable = _plain(log)
        assert effective_actions(log) == want
        res = Undos.of(log)
        assert res.live == [a for a in want if a.type != "message"]
        assert len(res.undone) == redoable
        # read one action at a time (as the live path does): the same at every step
        step = Undos()
        for k, a in enumerate(log):
            step.push(a)
            want_k, redo_k = _plain(log[: k + 1])
            assert step.live == [x for x in want_k if x.type != "message"]
            assert len(step.undone) == redo_k


def test_taking_an_action_back_restores_the_resolution() -> None:
    rng = random.Random(11)
    for _ in range(200):
        log = _random_log(rng, rng.randrange(2, 50))
        res = Undos()
        for a in log[:-1]:
            res.push(a)
        before = (list(res.live), list(res.live_idx), [list(r[0]) for r in res.undone],
                  dict(res.index_of), res.size)
        token = res.push(log[-1])
        res.pop(token)
        assert (res.live, res.live_idx, [list(r[0]) for r in res.undone], res.index_of,
                res.size) == before


def test_an_undo_naming_an_action_not_in_effect_is_a_move_back_to_the_start() -> None:
    # as the plain rule: an unknown id undoes everything in effect (the log's own rule)
    log = [parse_action({"id": i, "type": "pass", "entity": "1", "entity_type": "player"})
           for i in (1, 2)]
    log.append(parse_action({"id": 3, "type": "undo", "action_id": 99, "entity": "1",
                             "entity_type": "player"}))
    assert Undos.of(log).live == [] == _plain(log)[0]
