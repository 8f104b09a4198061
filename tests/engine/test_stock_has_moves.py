"""A stock round's `has_moves` (the short answer its turn ends and skips use) says what its
`kinds` say, a move besides passing, each time a replay of the real games in the shared
fixtures asks it (the common stock round, 1870's and 18MEX's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine.flow.stock import StockRound
from engine.io.export18xx import import_game
from engine.titles.t1870.rounds import StockRound1870
from tests.engine._helpers import load_fixture

FIXTURES = (
    "1870/1870_game_end_bank.json", "1870/1870_game_end_bankrupt.json", "1870/34110.json",
    "1870/40469_price_protect_allowed.json", "18MEX/13315.json", "18MEX/17849.json",
    "18MEX/18MEX_game_end_stock_market.json", "18MEX/hotseat01.json", "18MS/14375.json",
    "18MS/17510.json",
)


@pytest.mark.parametrize("key", FIXTURES)
def test_has_moves_is_what_kinds_say(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    answers: list[bool] = []

    def spy(orig: Callable[[Any], bool]) -> Callable[[Any], bool]:
        def has_moves(rnd: Any) -> bool:
            got = orig(rnd)
            assert got == any(k != "pass" for k in rnd.kinds()), (key, rnd.player_id())
            answers.append(got)
            return got
        return has_moves

    for cls in (StockRound, StockRound1870):
        monkeypatch.setattr(cls, "has_moves", spy(cls.__dict__["has_moves"]))
    import_game(load_fixture(key))
    assert True in answers and False in answers  # both answers were met
