"""Random legal play in 1870 and 18MEX (the 18MS variant is test_properties.py): moves come
from the engine's own legal answer; nothing crashes, no cash goes negative, no certificate is
over-sold, and money is conserved (bank + players + companies + minors constant)."""

from __future__ import annotations

import pytest

from engine import Game
from tests.engine._props import check_common_invariants, random_play

MOVE_CAP = 700


def check_invariants(g: Game, start_money: int) -> None:
    check_common_invariants(g, start_money)
    for p in g.state.players:
        assert p.cash >= 0 or p.bankrupt, f"{p.id} has ${p.cash}"


def play(title: str, seed: int, players: int) -> Game:
    return random_play(Game(title, [f"P{i}" for i in range(1, players + 1)]), seed, MOVE_CAP,
                       check_invariants)


@pytest.mark.parametrize("title,seed,players", [
    ("1870", 1, 3), ("1870", 2, 4), ("1870", 3, 5),
    ("18MEX", 1, 3), ("18MEX", 2, 4), ("18MEX", 3, 5),
])
def test_random_legal_play_keeps_invariants(title: str, seed: int, players: int) -> None:
    g = play(title, seed, players)
    assert len(g.log) > 50, "random play made hardly any progress"
    replayed = Game(title, [p for p, _ in g.players], actions=g.export_actions())
    assert replayed.result() == g.result(), "replaying the random game's log differs"
