"""Random legal play from late positions of the shared 1870 games (forced purchases, open-market
trains, emergency sales, bankruptcy, redemptions): every move comes from the legal answer, the
invariants hold, and the resulting log replays to the same result."""

from __future__ import annotations

import json

import pytest

from engine.game import Game
from engine.io.export18xx import export_game, import_game
from tests.engine._props import random_play
from tests.engine.t1870._util import ALLOWED, BANK, BANKRUPT, fixture
from tests.engine.test_properties_titles import check_invariants


@pytest.mark.parametrize("name,upto,seed,options", [
    # slow (10-20 s each); the default run keeps the bank game at 621
    pytest.param(BANK, 800, 1, [], marks=pytest.mark.slow),
    pytest.param(BANKRUPT, 700, 2, [], marks=pytest.mark.slow),
    pytest.param(ALLOWED, 600, 1, [], marks=pytest.mark.slow),
    (BANK, 621, 3, []),  # FW is about to make its connection run
    # the same game under diesels until its first 8-train (862); seed 1 buys a D with a
    # trade-in since the legal answer offers only the lays a corporation can make (was seed 4)
    # slow (about 20 s): the diesel trade-ins have their unit tests in test_diesels.py
    pytest.param(BANK, 840, 1, ["diesels"], marks=pytest.mark.slow),
])
def test_random_play_from_a_late_position(name: str, upto: int, seed: int, options: list[str]) -> None:
    data = json.loads(json.dumps(fixture(name)))
    data.setdefault("settings", {})["optional_rules"] = options
    g = import_game(data, upto=upto)
    start = len(g.log)
    g = random_play(g, seed, 300, check_invariants)
    assert len(g.log) > start + 20
    kinds = {a.type for a in g.log[start:]}
    if upto == 621:
        assert {"choose", "run_routes", "dividend"} <= kinds
    if options:
        bought = [a for a in g.log[start:] if a.type == "buy_train" and a.train.startswith("D-")]
        assert bought and any(getattr(a, "exchange", None) for a in bought)
    again: Game = import_game(export_game(g))
    assert again.result() == g.result()
