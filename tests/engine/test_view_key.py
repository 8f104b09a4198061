"""`Game.view_key` gives the hexes, market, who acts and the round exactly as `Game.view` does
(the bot tells what changed after a move from the keys, and builds a full view only for the
states whose images are drawn)."""

from __future__ import annotations

import pytest

from engine import Game
from engine.randomplay import random_game


@pytest.mark.parametrize("title,players,moves", [("18MS", 4, 220), ("1870", 3, 400),
                                                 ("18MEX", 4, 300)])
def test_the_key_is_the_views_own_parts(title: str, players: int, moves: int) -> None:
    g = random_game(title, seed=3, players=players, max_actions=moves)
    log = g.export_actions()
    compared = 0
    for k in [*range(1, len(log), 37), len(log)]:  # the states after k logged actions
        state = Game(g.title_name, g.players, g.options)
        state.load_log(log[:k])
        view, key = state.view(), state.view_key()
        assert (key.hexes, key.market, key.acting, key.round, key.last_hexes) == (
            view.hexes, view.market, view.acting, view.round, view.last_hexes), k
        compared += 1
    assert compared >= 6 and view.hexes and view.market
