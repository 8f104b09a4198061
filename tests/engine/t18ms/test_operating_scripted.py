"""Operating rounds of scripted 18MS games: phases, train limit, MC exchange, M&O discount,
obsolescence, trains that ran in the OR they rust, presidential contribution."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.io.export18xx import import_game
from engine.titles.t18ms.state import ms_state
from tests.engine._helpers import (
    do,
    draft,
    finish_stock_round,
    float_three,
    load_fixture,
    new_game,
    pass_,
    pass_operating_round,
)


def game_after_sr1(mc_owner_first: bool = True):
    """P3 M&O, P2 MC, P1 BS; SR1: P1 GMO@80, P2 IC@90, P3 Fr@90, all floated."""
    g = new_game(3)
    draft(g, "M&O", "MC", "BS")
    float_three(g)
    finish_stock_round(g)
    assert g.round.order == ["IC", "Fr", "GMO"]
    return g


def buy_2p(g, corp: str, n: int) -> None:
    if g.round.step_name() == "track":
        pass_(g, corp)
    for _ in range(n):
        tid = g.legal().trains[0][0]
        do(g, corp, "buy_train", train=tid, price=80, variant="2+")


def until(g, corp: str) -> None:
    """Pass/run empty routes until `corp` operates."""
    while g.legal().entity != corp:
        lg = g.legal()
        if "run_routes" in lg.kinds:
            do(g, lg.entity, "run_routes", routes=[])
        else:
            pass_(g, lg.entity)


def test_phase_3_starts_with_or_2_and_train_limit() -> None:
    g = game_after_sr1()
    assert g.state.phase == "2"
    buy_2p(g, "IC", 3)
    # at its limit of 3 trains IC's turn ended by itself
    assert g.legal().entity == "Fr"
    ic = g.state.corporations["IC"]
    assert ic.cash == 900 - 240
    buy_2p(g, "Fr", 1)
    pass_(g, "Fr")
    assert g.round.number == 1
    until(g, "IC")
    assert g.round.number == 2 and g.state.phase == "3"
    assert g.legal().kinds and "buy_train" not in g.legal().kinds
    # at its train limit IC may not take the MC exchange
    assert "buy_company" not in g.legal().kinds and g.legal().companies == []
    with pytest.raises(EngineError) as err:
        do(g, "IC", "buy_company", company="MC", price=60)
    assert err.value.rule in ("company.buy", "operating.order")
    assert not g.state.companies["MC"].closed
    with pytest.raises(EngineError) as err:
        do(g, "IC", "buy_train", train="3+-0", price=180, variant="3+")
    assert err.value.rule in ("train.limit", "operating.order", "operating.kind")


def test_only_ags_bs_in_or1_then_mc_exchange() -> None:
    g = game_after_sr1()
    assert g.legal().companies == []  # OR 1: only AGS and BS, and P2 owns neither
    with pytest.raises(EngineError) as err:
        do(g, "IC", "buy_company", company="MC", price=60)
    assert err.value.rule in ("company.buy", "operating.order")
    buy_2p(g, "IC", 1)
    pass_(g, "IC")
    pass_operating_round(g)
    assert g.round.number == 2
    until(g, "IC")
    assert ("MC", 30, 90) in g.legal().companies
    cash_p2 = g.state.player("P2").cash
    do(g, "IC", "buy_company", company="MC", price=90)
    assert g.state.player("P2").cash == cash_p2 + 90
    mc = g.state.companies["MC"]
    assert mc.closed and mc.owner is None
    free = next(t for t in g.state.trains if t.id == "2+-4")
    assert free.owner == "IC"
    assert not free.sellable  # it may never be sold on


def test_mc_refused_after_or_4_and_obsolescence_with_salvage() -> None:
    g = game_after_sr1()
    buy_2p(g, "IC", 3)
    buy_2p(g, "Fr", 1)
    pass_(g, "Fr")
    for _ in range(3):  # OR 1, 2 (each corporation runs empty), SR 2, OR 3
        pass_operating_round(g)
        if g.round.kind == "stock":
            finish_stock_round(g)
    assert g.round.number == 4
    # OR 4 is the second OR of the set: IC ran no route, so its 2+ trains stay for sale
    # (test_site_rusting_unbuyable: once a company runs, they may no longer be bought)
    until(g, "GMO")
    while g.round.step_name() != "buy_train":
        pass_(g, "GMO")
    assert ms_state(g).unbuyable == []
    assert "2+-0" in [t[0] for t in g.legal().trains]
    ic_cash, fr_cash = g.state.corporations["IC"].cash, g.state.corporations["Fr"].cash
    bank = g.state.bank.cash
    pass_operating_round(g)
    assert g.round.name() == "Stock Round 3", g.round.name()
    # end of OR 4: every 2+ is removed; owners receive $20 salvage for each
    assert all(t.gone for t in g.state.trains if t.name == "2+")
    assert g.state.corporations["IC"].cash == ic_cash + 60
    assert g.state.corporations["Fr"].cash == fr_cash + 20
    assert g.state.bank.cash == bank - 80
    finish_stock_round(g)
    assert g.round.number == 5
    until(g, "IC")
    assert "MC" not in [c for c, _, _ in g.legal().companies]
    assert g.state.corporations["IC"].cash >= 60 and not g.state.companies["MC"].closed
    with pytest.raises(EngineError) as err:
        do(g, "IC", "buy_company", company="MC", price=60)
    assert err.value.rule in ("company.buy", "operating.order")


def test_mo_discount_on_a_3plus() -> None:
    g = game_after_sr1()
    buy_2p(g, "IC", 3)
    buy_2p(g, "Fr", 1)
    pass_(g, "Fr")
    pass_operating_round(g)
    until(g, "Fr")  # OR 2, phase 3: Fr's president P3 owns M&O
    do(g, "Fr", "buy_company", company="M&O", price=35)
    while g.round.step_name() != "buy_train":
        lg = g.legal()
        do(g, "Fr", "run_routes", routes=[]) if "run_routes" in lg.kinds else pass_(g, "Fr")
    cash = g.state.corporations["Fr"].cash
    with pytest.raises(EngineError, match="applies to a 3\\+ or 4\\+ train from the bank") as err:
        do(g, "M&O", "buy_train", train="2+-0", price=1, variant="2+")
    assert err.value.rule == "company.mo_train"
    do(g, "M&O", "buy_train", train="3+-0", price=80, variant="3+")
    assert g.state.corporations["Fr"].cash == cash - 80
    assert next(t for t in g.state.trains if t.id == "3+-0").owner == "Fr"
    assert g.state.companies["M&O"].closed


@pytest.fixture(scope="module")
def f1() -> dict:
    return load_fixture("18MS/14375.json")


def _ic_before_its_5(f1, treasury: int, pres_cash: int | None = None):
    g = import_game(f1, upto=249)  # IC, with a train, is about to buy 5-0 for $500
    st = g.state
    ic = st.corporations["IC"]
    assert g.legal().entity == "IC" and "buy_train" in g.legal().kinds and ic.cash >= 500
    st.bank.cash += ic.cash - treasury  # arrange a smaller treasury (money stays in play)
    ic.cash = treasury
    pres = st.player(g.legal().player)
    if pres_cash is not None:
        st.bank.cash += pres.cash - pres_cash
        pres.cash = pres_cash
    return g, ic, pres


def test_presidential_contribution_with_50_fee(f1) -> None:
    g, ic, pres = _ic_before_its_5(f1, 300, pres_cash=400)
    cash, bank = pres.cash, g.state.bank.cash
    do(g, "IC", "buy_train", train="5-0", price=500, variant="5")
    assert ic.cash == 0
    assert pres.cash == cash - 200 - 50
    # the president's $200 goes through the bank to IC, which pays $500: the bank keeps the fee
    assert g.state.bank.cash == bank + 500 + 50


def test_contribution_needs_half_the_price(f1) -> None:
    g, ic, pres = _ic_before_its_5(f1, 240)
    with pytest.raises(EngineError, match="may add money only for a permanent train") as err:
        do(g, "IC", "buy_train", train="5-0", price=500, variant="5")
    assert err.value.rule == "train.cash"


def test_contribution_refused_when_president_cannot_pay_fee(f1) -> None:
    g, ic, pres = _ic_before_its_5(f1, 300, pres_cash=220)
    with pytest.raises(EngineError) as err:
        do(g, "IC", "buy_train", train="5-0", price=500, variant="5")
    assert err.value.rule == "train.cash"
