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
    # the site asks first whether the bank would lend: not while the president may sell
    assert err.value.rule == "train.debt_loan" and "sell" in str(err.value)
    assert len(g.log) == n


def test_debt_lowers_the_most_the_company_may_pay(f2) -> None:
    g = in_debt(f2, -10)  # $30 - $10: from $1 to $20
    offered = {t[0]: (t[2], t[3]) for t in g.legal().trains}
    assert offered["4+-1"] == (1, 20)
    with pytest.raises(EngineError) as err:
        g.apply(buy("4+-1", 21))
    assert err.value.rule == "train.debt_loan"
    g = in_debt(f2, -10)  # a refusal puts back the replayed state
    g.apply(buy("4+-1", 20))
    assert next(t for t in g.state.trains if t.id == "4+-1").owner == "IC"


def test_forced_purchase_from_another_company_with_the_banks_loan(f2) -> None:
    # nothing left to sell (the president keeps only his presidencies) and no bank train within
    # the $130 in hand: the site lends the price and adds $50 interest, so another company's
    # train may cost more than the money in hand (up to its face value here)
    g = import_game(f2, upto=315)
    st = g.state
    ic = st.corporations["IC"]
    pid = shares.president(ic) or ""
    other = next(p.id for p in st.players if p.id != pid)
    for corp in st.corporations.values():
        for cert in corp.certs:
            if cert.owner == pid and not cert.president:
                cert.owner = other  # as if sold to another player earlier
    pres = st.player(pid)
    st.bank.cash += pres.cash - 100
    pres.cash = 100
    assert g.title.must_buy_train(g, g.round, ic)
    offered = {t[0]: (t[2], t[3]) for t in g.legal().trains}
    assert offered["4+-1"] == (1, 300)
    seller = st.corporations[next(t.owner for t in st.trains if t.id == "4+-1")]
    seller_cash, bank = seller.cash, st.bank.cash
    g.apply(buy("4+-1", 250))
    assert ic.cash == 0 and seller.cash == seller_cash + 250
    assert pres.cash == 100 - (250 - 30) - 50
    assert st.bank.cash == bank + 50


def debt_position(f2, treasury: int, pres_cash: int):
    """17510 at 315 (IC forced to buy), its president left with only his presidencies (nothing
    to sell), IC's treasury and his cash set as given."""
    g = import_game(f2, upto=315)
    st = g.state
    ic = st.corporations["IC"]
    pid = shares.president(ic) or ""
    other = next(p.id for p in st.players if p.id != pid)
    for corp in st.corporations.values():
        for cert in corp.certs:
            if cert.owner == pid and not cert.president:
                cert.owner = other
    pres = st.player(pid)
    st.bank.cash += pres.cash - pres_cash + ic.cash - treasury
    pres.cash, ic.cash = pres_cash, treasury
    return g, ic, pres


def test_forced_purchase_the_treasury_could_pay_but_the_president_is_in_debt(f2) -> None:
    # $600 + (-$450) = $150 is below the 2D's $500: the site takes its loan although IC could
    # pay, sends IC's cash to the bank and charges the president $500 - $600 + $50 = -$50,
    # which it refuses
    g, ic, pres = debt_position(f2, 600, -450)
    assert ("2D-1", "2D") not in [t[:2] for t in g.legal().trains if t[4] == "bank"]
    n = len(g.log)
    with pytest.raises(EngineError) as err:
        g.apply(buy("2D-1", 500))
    assert err.value.rule == "train.debt_loan"
    assert len(g.log) == n


def test_forced_purchase_with_a_loan_of_a_few_dollars(f2) -> None:
    # $520 - $450 = $70: the loan route; IC's $20 left goes to the bank and the president owes
    # $500 - $520 + $50 = $30 more
    g, ic, pres = debt_position(f2, 520, -450)
    assert ("2D-1", "2D") in [t[:2] for t in g.legal().trains if t[4] == "bank"]
    bank = g.state.bank.cash
    g.apply(buy("2D-1", 500))
    assert ic.cash == 0 and pres.cash == -480
    assert g.state.bank.cash == bank + 500 + 20 + 30


def test_no_loan_while_a_bank_train_is_within_the_money(f2) -> None:
    # $700 + (-$150) = $550 covers the 2D ($500) from the bank: the site lends nothing, so
    # another company's train costs at most $550 although the treasury holds $700
    g, ic, pres = debt_position(f2, 700, -150)
    offered = {t[0]: (t[2], t[3]) for t in g.legal().trains}
    assert offered["5-0"] == (1, 550)
    n = len(g.log)
    with pytest.raises(EngineError) as err:
        g.apply(buy("5-0", 551))
    assert err.value.rule == "train.debt_loan" and "$500" in str(err.value)
    assert len(g.log) == n
    g, ic, pres = debt_position(f2, 700, -150)  # a refusal puts back the replayed state
    g.apply(buy("5-0", 550))
    assert ic.cash == 150 and pres.cash == -150


def test_no_loan_to_an_empty_treasury_while_another_train_is_in_reach(f2) -> None:
    # IC has $0; its president's $100 buys another company's train for up to $100, so the
    # site's refusal to lend to an empty treasury stands: no 2D from the bank
    g, ic, pres = debt_position(f2, 0, 100)
    assert ("2D-1", "2D") not in [t[:2] for t in g.legal().trains if t[4] == "bank"]
    with pytest.raises(EngineError) as err:
        g.apply(buy("2D-1", 500))
    assert err.value.rule == "train.debt_loan"
    assert not g.title.site_stuck(g, g.round, ic)


def test_where_the_site_could_not_go_on_the_printed_loan_rule_decides(f2) -> None:
    # an empty treasury and a president in debt: every train needs the bank's loan, which the
    # site cannot make; the rulebook's loan (11.8.4) lets the game go on
    g, ic, pres = debt_position(f2, 0, -200)
    assert g.title.site_stuck(g, g.round, ic)
    assert ("2D-1", "2D") in [t[:2] for t in g.legal().trains if t[4] == "bank"]
    g.apply(buy("2D-1", 500))
    assert ic.cash == 0 and pres.cash == -200 - 500 - 50

