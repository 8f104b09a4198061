"""The size check of a move: the quick pass over plain values decides exactly as the full walk."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import (
    MAX_DEPTH,
    MAX_ITEMS,
    MAX_NODES,
    MAX_TEXT,
    _check_size,
    _check_size_exactly,
)
from engine.errors import EngineError


def _value(rng: random.Random, depth: int, budget: list[int]) -> Any:
    """A random value; `budget`: how many more containers may be made (keeps it small)."""
    roll = rng.random()
    budget[0] -= 1
    if depth > MAX_DEPTH + 2 or roll < 0.35 or budget[0] < 0:
        return rng.choice([0, 1, -7, 2**53, 2**53 + 1, -(2**53) - 1, 1.5, True, None, "x",
                           "y" * MAX_TEXT, "z" * (MAX_TEXT + 1)])
    if roll < 0.7:
        n = rng.choice([0, 1, 3, MAX_ITEMS, MAX_ITEMS + 1])
        return {rng.choice(["a", "b", "k" * 101, 7, f"f{i}"]) if rng.random() < 0.05 else f"f{i}":
                _value(rng, depth + 1, budget) if rng.random() < 0.3 else i for i in range(n)}
    n = rng.choice([0, 1, 2, MAX_ITEMS, MAX_ITEMS + 1])
    seq = [_value(rng, depth + 1, budget) if rng.random() < 0.3 else "s" for _ in range(n)]
    return tuple(seq) if rng.random() < 0.2 else seq


def _outcome(check: Any, value: Any) -> tuple[str, str] | None:
    try:
        check(value)
    except EngineError as err:
        return (err.rule or "", str(err))
    return None


@pytest.mark.parametrize("seed", range(40))
def test_quick_pass_decides_as_the_full_walk(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        value = {"type": "pass", "x": _value(rng, 2, [rng.choice([3, 12, 80])])}
        assert _outcome(_check_size, value) == _outcome(_check_size_exactly, value)


def test_limits_still_refuse() -> None:
    deep: Any = 1
    for _ in range(MAX_DEPTH):
        deep = [deep]
    assert _outcome(_check_size, {"type": "pass", "x": deep}) is not None
    wide = {"type": "pass", "x": [[0] * MAX_ITEMS for _ in range(MAX_NODES // MAX_ITEMS + 1)][:MAX_ITEMS]}
    assert _outcome(_check_size, wide) == _outcome(_check_size_exactly, wide)
    assert _outcome(_check_size, {"type": "pass", "x": "t" * (MAX_TEXT + 1)}) is not None
    assert _outcome(_check_size, {"type": "pass", 3: 1}) is not None
    assert _outcome(_check_size, {"type": "pass", "x": [1, 2, 3]}) is None
