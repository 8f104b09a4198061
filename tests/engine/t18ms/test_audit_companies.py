"""Audit against the 18xx.games engine: the private companies' abilities and their timing.

Positions come from fixture 17510 (GMO operating in OR 1); a private is handed to GMO by
editing the state, which the site would reach by a purchase in a later OR."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.io.export18xx import import_game
from engine.titles.t18ms.state import ms_state
from tests.engine._helpers import load_fixture


@pytest.fixture(scope="module")
def f2() -> dict:
    return load_fixture("18MS/17510.json")


def _give(g, company: str, corp: str) -> None:
    g.state.companies[company].owner = corp


def mm_token(city: str) -> dict:
    return {"entity": "M&M", "entity_type": "company", "type": "place_token", "city": city, "slot": 0}


def test_mm_token_in_new_orleans_gets_no_bonus(f2) -> None:
    # the site pays the $100 and the $10 route bonus only in its Token step; the M&M's
    # SpecialToken step places the token without them
    g = import_game(f2, upto=82)  # GMO's token step, New Orleans open, 2nd token $40
    _give(g, "M&M", "GMO")
    gmo, bank = g.state.corporations["GMO"], g.state.bank.cash
    cash = gmo.cash
    g.apply(mm_token("I1-0-0"))
    assert gmo.cash == cash - 20
    assert g.state.bank.cash == bank + 20
    assert "GMO" not in ms_state(g).no_bonus


def test_normal_token_in_new_orleans_still_pays(f2) -> None:
    g = import_game(f2, upto=83)  # GMO's own token in New Orleans (logged)
    assert "GMO" in ms_state(g).no_bonus


def test_mm_only_in_the_token_step(f2) -> None:
    g = import_game(f2, upto=81)  # GMO still in its track step
    _give(g, "M&M", "GMO")
    with pytest.raises(EngineError) as err:
        g.apply(mm_token("I1-0-0"))
    assert err.value.rule == "company.timing"


def test_bs_only_in_the_track_step(f2) -> None:
    # BS's ability is timed 'track' (AGS's also 'owning_corp_or_turn')
    g = import_game(f2, upto=82)  # GMO's token step
    _give(g, "BS", "GMO")
    g.state.companies["BS"].uses = 0
    ms_state(g).bs_or = None
    with pytest.raises(EngineError) as err:
        g.apply({"entity": "BS", "entity_type": "company", "type": "lay_tile", "hex": "H4",
                 "tile": "9-9", "rotation": 0})
    assert err.value.rule == "company.timing"


# ---------------------------------------------------------------- forced purchase
def _forced_ic(f2, treasury: int, pres_cash: int):
    g = import_game(f2, upto=315)  # IC has no train and must buy one (phase D)
    st = g.state
    ic = st.corporations["IC"]
    pres = st.player(g.legal().player)
    st.bank.cash += ic.cash - treasury + pres.cash - pres_cash
    ic.cash, pres.cash = treasury, pres_cash
    return g, ic, pres


def test_no_contribution_while_the_treasury_can_pay_the_cheapest_train(f2) -> None:
    # site: check_for_cheapest_train, 'Cannot contribute funds when affordable trains exist'
    g, ic, pres = _forced_ic(f2, 600, 1000)
    with pytest.raises(EngineError) as err:
        g.apply({"entity": "IC", "entity_type": "corporation", "type": "buy_train",
                 "train": "5D-0", "price": 850, "variant": "5D"})
    assert err.value.rule == "train.contribution_affordable"
    g, ic, pres = _forced_ic(f2, 600, 1000)  # a rejection restores the logged state
    g.apply({"entity": "IC", "entity_type": "corporation", "type": "buy_train",
             "train": "2D-1", "price": 500, "variant": "2D"})
    assert ic.cash == 100


def test_contribution_for_a_bank_train_above_the_cheapest(f2) -> None:
    g, ic, pres = _forced_ic(f2, 30, 1000)
    g.apply({"entity": "IC", "entity_type": "corporation", "type": "buy_train",
             "train": "5D-0", "price": 850, "variant": "5D"})
    assert ic.cash == 0 and pres.cash == 1000 - 820


def test_no_contribution_above_face_value_for_another_corporations_train(f2) -> None:
    # site: 'Cannot buy for more than cost' when the president contributes
    g, ic, pres = _forced_ic(f2, 30, 1000)
    with pytest.raises(EngineError) as err:
        g.apply({"entity": "IC", "entity_type": "corporation", "type": "buy_train",
                 "train": "4+-0", "price": 301})
    assert err.value.rule in ("train.contribution_over_face", "train.price", "train.other_price")


# ---------------------------------------------------------------- Mobile & Ohio
def test_mo_may_buy_another_companys_3plus_or_4plus_and_closes() -> None:
    # the site's SpecialBuyTrain lets the M&O buy any 3+/4+ it offers, other companies' included
    # (no discount there), and closes the M&O once used
    f1 = load_fixture("18MS/14375.json")
    g = import_game(f1, upto=307)  # Fr's train step; L&N owns 4+-0
    mo = g.state.companies["M&O"]
    mo.closed, mo.owner = False, "Fr"
    fr, ln = g.state.corporations["Fr"], g.state.corporations["L&N"]
    fr_cash, ln_cash = fr.cash, ln.cash
    g.apply({"entity": "M&O", "entity_type": "company", "type": "buy_train", "train": "4+-0", "price": 100})
    assert next(t for t in g.state.trains if t.id == "4+-0").owner == "Fr"
    assert fr.cash == fr_cash - 100 and ln.cash == ln_cash + 100
    assert mo.closed


def test_mm_usable_when_only_the_half_price_is_affordable(f2) -> None:
    # the site's min_token_price includes the M&M's price, so the token step stays open
    g = import_game(f2, upto=81)  # GMO in its track step; its next token costs $40
    _give(g, "M&M", "GMO")
    gmo = g.state.corporations["GMO"]
    g.state.bank.cash += gmo.cash - 30
    gmo.cash = 30
    lay = next(a for a in f2["actions"] if a["id"] == 82)  # the logged AGS lay that reaches I1
    g.apply({k: v for k, v in lay.items() if k in ("type", "entity", "entity_type", "hex", "tile", "rotation")})
    assert g.round.step_name() == "token" and "place_token" in g.legal().kinds
    g.apply(mm_token("I1-0-0"))
    assert gmo.cash == 10
