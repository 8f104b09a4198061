"""Audit against the 18xx.games engine: the president's share sales in the train step when the
company is not forced to buy, and the price range for another company's train after them.

The site's BuyTrain step offers the operating company's president sell_shares in its train step
whenever EBUY_CAN_SELL_SHARES (18MS keeps the default) and 18MS may sell more than needed, so a
sale is accepted also when the company owns a train (e.g. to fund a presidential contribution).
Position: fixture 17510 at action 253, WRA ($360, a 3+) in its train step, phase 3; its
president (1745, $281) holds GMO_6 ($100)."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.io.export18xx import import_game
from tests.engine._helpers import load_fixture


@pytest.fixture(scope="module")
def f2() -> dict:
    return load_fixture("18MS/17510.json")


SELL = {"entity": "1745", "entity_type": "player", "type": "sell_shares", "shares": ["GMO_6"], "percent": 10}


def buy(train: str, price: int) -> dict:
    return {"entity": "WRA", "entity_type": "corporation", "type": "buy_train", "train": train,
            "price": price, "variant": train.split("-")[0]}


def test_president_may_sell_in_the_train_step_when_not_forced(f2) -> None:
    g = import_game(f2, upto=253)
    assert g.round.corp().id == "WRA" and g.round.step_name() == "buy_train"
    g.apply(SELL)
    assert g.state.player("1745").cash == 381
    # and then contribute to the 5 as in 11.8.2 ($140 + the $50 fee)
    g.apply(buy("5-0", 500))
    assert g.state.player("1745").cash == 381 - 190


def test_sale_in_another_step_still_refused(f2) -> None:
    g = import_game(f2, upto=252)  # WRA before its train step
    if g.round.step_name() == "buy_train":
        pytest.skip("position moved")
    n = len(g.log)
    with pytest.raises(EngineError):
        g.apply(SELL)
    assert len(g.log) == n


def _with_fr_five(f2):
    g = import_game(f2, upto=253)
    g.apply(SELL)
    five = next(t for t in g.state.trains if t.id == "5-1")
    five.owner = "Fr"  # as if Fr had bought it
    return g


@pytest.mark.parametrize(("price", "ok"), [(300, False), (450, False), (499, False), (591, True),
                                           (500, True), (600, True)])
def test_other_train_minimum_with_a_contribution(f2, price: int, ok: bool) -> None:
    # money in hand $360 + $381 less the $100 sold at, plus $1: $642. A contribution (from
    # $250 up, 5 is permanent) costs the $50 fee first, so the site's minimum becomes $592;
    # at $500 (face) or more the treasury then covers the face and no minimum applies.
    g = _with_fr_five(f2)
    n = len(g.log)
    if ok:
        g.apply(buy("5-1", price))
        assert next(t for t in g.state.trains if t.id == "5-1").owner == "WRA"
        return
    with pytest.raises(EngineError) as err:
        g.apply(buy("5-1", price))
    assert err.value.rule == "train.ebuy_min"
    assert len(g.log) == n

