"""Audit against the 18xx.games engine: forced train purchases in 18MS (shared code).

Position: fixture 17510, IC forced to buy a train in its OR 7 turn (actions 316-318 are its
president's emergency sales, 319 the 2D bought from the bank)."""

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


def rejected(g, act: dict, rule: str) -> None:
    n = len(g.log)
    with pytest.raises(EngineError) as err:
        g.apply(act)
    assert err.value.rule == rule
    assert len(g.log) == n


def test_other_train_minimum_after_a_sale(f2) -> None:
    # after selling WRA at $150, IC ($30) and its president ($328) hold $358: the site's
    # spend_minmax lets IC pay $209 ($358 - $150 + 1) to $300 for L&N's 4+ (face $300)
    g = import_game(f2, upto=316)
    ic = g.state.corporations["IC"]
    pres = g.state.player(shares.president(ic) or "")
    assert (ic.cash, pres.cash) == (30, 328)
    rejected(g, buy("4+-1", 100), "train.ebuy_min")
    rejected(g, buy("4+-1", 208), "train.ebuy_min")
    offered = {t[0]: (t[2], t[3]) for t in g.legal().trains}
    assert offered["4+-1"] == (209, 300)
    assert "6-0" in offered and offered["6-0"] == (209, 358)
    g.apply(buy("4+-1", 209))
    assert next(t for t in g.state.trains if t.id == "4+-1").owner == "IC"


def test_other_train_without_a_sale_from_one_dollar(f2) -> None:
    g = import_game(f2, upto=315)  # no sale yet
    offered = {t[0]: (t[2], t[3]) for t in g.legal().trains}
    assert offered["4+-1"] == (1, 208)  # $30 + the president's $178
    g.apply(buy("4+-1", 1))


def test_president_certificate_only_when_another_can_take_it(f2) -> None:
    # the president holds 40% of IC (president's certificate and two shares), another player
    # 10%: the site's can_dump? refuses any bundle with IC's president's certificate
    g = import_game(f2, upto=315)
    pres = g.legal().player
    sell = {"entity": pres, "entity_type": "player", "type": "sell_shares"}
    rejected(g, {**sell, "shares": ["IC_0"], "percent": 20}, "ebuy.president_cert")
    rejected(g, {**sell, "shares": ["IC"], "percent": 30}, "ebuy.president_cert")
    # GMO: another player holds 30%, so the certificate could pass (the presidency stays)
    g.apply({**sell, "shares": ["GMO_1"], "percent": 10})
