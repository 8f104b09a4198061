"""A president in debt, as on the site: what his company may pay for another company's train.

The site's price range for another company's train below its face value runs up to the
treasury plus the president's cash (at most the face value); with the president in debt that
sum may be below $1, and then no such train may be bought at all."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.core import shares
from engine.io.export18xx import import_game
from tests.engine._helpers import load_fixture


@pytest.fixture(scope="module")
def f2() -> dict:
    return load_fixture("18MS/17510.json")


def buy(train: str, price: int) -> dict:
    return {"entity": "IC", "entity_type": "corporation", "type": "buy_train", "train": train,
            "price": price, "variant": train.split("-")[0]}


def in_debt(f2, cash: int):
    g = import_game(f2, upto=315)  # IC ($30) in its train step; L&N owns the 4+-1 (face $300)
    pres = g.state.player(shares.president(g.state.corporations["IC"]) or "")
    g.state.bank.cash += pres.cash - cash
    pres.cash = cash  # as after a loan earlier in the game
    return g


def test_no_other_train_when_treasury_and_debt_are_below_one_dollar(f2) -> None:
    g = in_debt(f2, -100)  # $30 - $100 < $1
    assert "4+-1" not in [t[0] for t in g.legal().trains]
    n = len(g.log)
    with pytest.raises(EngineError) as err:
        g.apply(buy("4+-1", 1))
    assert err.value.rule == "train.other_price"
    assert len(g.log) == n


def test_debt_lowers_the_most_the_company_may_pay(f2) -> None:
    g = in_debt(f2, -10)  # $30 - $10: from $1 to $20
    offered = {t[0]: (t[2], t[3]) for t in g.legal().trains}
    assert offered["4+-1"] == (1, 20)
    with pytest.raises(EngineError) as err:
        g.apply(buy("4+-1", 21))
    assert err.value.rule == "train.other_price"
    g.apply(buy("4+-1", 20))
    assert next(t for t in g.state.trains if t.id == "4+-1").owner == "IC"
