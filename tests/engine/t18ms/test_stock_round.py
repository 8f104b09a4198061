"""Stock rounds: buying, selling, limits, presidency, price moves and priority."""

import pytest

from engine import EngineError
from tests.engine._helpers import (
    PAR_CELLS,
    buy,
    cash,
    current,
    do,
    draft,
    finish_stock_round,
    float_three,
    market_pct,
    new_game,
    par,
    pass_,
    pass_until_stock_round,
    pct,
    president,
    sell,
    standard_start,
)


def to_sr2(g) -> None:
    finish_stock_round(g)
    pass_until_stock_round(g)
    assert g.round.name() == "Stock Round 2", g.round.name()


def test_par_values_are_70_75_80_90_only() -> None:
    g = standard_start()
    assert sorted(g.legal().pars["GMO"]) == sorted(PAR_CELLS.values())
    with pytest.raises(EngineError, match="not a par value you may choose") as err:
        do(g, "P1", "par", corporation="GMO", share_price="100,0,5")
    assert err.value.rule == "stock.par"
    par(g, "P1", "GMO", 75)
    c = g.state.corporations["GMO"]
    assert (c.par, c.cell) == (75, (1, 3))
    assert cash(g, "P1") == 575 - 150 and pct(g, "GMO", "P1") == 20


def test_float_at_60_percent_with_ten_times_par() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    for who in ("P2", "P3", "P1"):
        buy(g, who, "GMO")
    assert not g.state.corporations["GMO"].floated  # 50% sold
    buy(g, "P2", "GMO")
    c = g.state.corporations["GMO"]
    assert c.floated and c.cash == 800


def test_one_certificate_per_turn_and_no_sales_in_sr1() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    # SR1 has no sales: P1's turn ended by itself after one certificate
    assert current(g) == "P2"
    par(g, "P2", "IC", 90)
    par(g, "P3", "Fr", 90)
    with pytest.raises(EngineError, match="No one may sell certificates in the first stock round") as err:
        do(g, "P1", "sell_shares", shares=["GMO_0"], percent=10)
    assert err.value.rule == "stock.sell"
    assert g.legal().sell_shares == []


def test_wrong_player_in_stock_round() -> None:
    g = standard_start()
    with pytest.raises(EngineError, match="P1's turn in the stock round, not P2's") as err:
        par(g, "P2", "IC", 90)
    assert err.value.rule == "turn.wrong_player"


def test_holding_limit_70_percent() -> None:
    g = new_game(2)
    draft(g, "BS", "AGS")
    par(g, "P1", "GMO", 70)
    for _ in range(5):
        pass_(g)  # P2
        buy(g, "P1", "GMO")
    pass_(g)
    assert current(g) == "P1" and pct(g, "GMO", "P1") == 70
    assert all(not sid.startswith("GMO") for sid, _, _ in g.legal().buy_shares)
    with pytest.raises(EngineError, match="may not hold more than 70% of GMO") as err:
        buy(g, "P1", "GMO")
    assert err.value.rule == "stock.buy"


def test_certificate_limit_and_yellow_zone_exemption(monkeypatch) -> None:
    g = standard_start()
    monkeypatch.setattr(g.title, "cert_limit", lambda game: 3)
    par(g, "P1", "GMO", 70)  # private + president's certificate = 2
    par(g, "P2", "IC", 90)
    par(g, "P3", "Fr", 90)
    buy(g, "P1", "GMO")  # 3
    finish_stock_round(g)  # nothing floated: straight to SR2
    while current(g) != "P1":
        pass_(g)
    assert g.title.cert_count(g, "P1") == 3
    with pytest.raises(EngineError, match=r"certificate limit \(3\)") as err:
        buy(g, "P1", "GMO")
    assert err.value.rule == "stock.buy"
    # a corporation whose price is in the yellow zone does not count toward the limit
    from engine.core import market as mk

    mk.move(g.state, g.state.corporations["GMO"], (1, 1))  # $65, no_cert_limit
    assert g.title.cert_count(g, "P1") == 1  # only the private
    buy(g, "P1", "GMO")
    assert pct(g, "GMO", "P1") == 40


def test_sell_then_buy_allowed_then_turn_ends_and_no_rebuy() -> None:
    g = standard_start()
    float_three(g)
    to_sr2(g)
    assert current(g) == "P1"
    gmo_price = g.title.share_price(g.state.corporations["GMO"])
    before = cash(g, "P1")
    sell(g, "P1", "GMO", 10)
    assert cash(g, "P1") == before + gmo_price
    assert market_pct(g, "GMO") == 10
    assert g.state.corporations["GMO"].cell == (2, 2)  # one row down per share sold
    with pytest.raises(EngineError, match="You sold GMO this round") as err:
        buy(g, "P1", "GMO", where="market")
    assert err.value.rule == "stock.buy"
    buy(g, "P1", "IC")  # sell then buy is fine
    # never sell-buy-sell: with nothing else allowed the turn has ended by itself
    assert current(g) == "P2"
    with pytest.raises(EngineError, match="P2's turn"):
        sell(g, "P1", "GMO", 10)
    pass_(g)  # P2
    pass_(g)  # P3
    assert current(g) == "P1"
    with pytest.raises(EngineError, match="You sold GMO this round"):
        buy(g, "P1", "GMO", where="market")


def test_buy_then_sell_allowed_but_one_certificate_per_turn() -> None:
    g = standard_start()
    float_three(g)
    to_sr2(g)
    buy(g, "P1", "IC")
    assert current(g) == "P1"  # may still sell
    with pytest.raises(EngineError, match="already bought a certificate this turn") as err:
        buy(g, "P1", "Fr")
    assert err.value.rule == "stock.buy"
    sell(g, "P1", "GMO", 10)  # buy then sell
    sell(g, "P1", "GMO", 10)  # and sell again
    assert pct(g, "GMO", "P1") == 40 and market_pct(g, "GMO") == 20 and pct(g, "IC", "P1") == 10


def test_market_may_hold_at_most_50_percent() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 70)
    for _ in range(5):
        pass_(g)
        pass_(g)
        buy(g, "P1", "GMO")
    to_sr2(g)
    while current(g) != "P1":
        pass_(g)
    sell(g, "P1", "GMO", 30)
    with pytest.raises(EngineError, match="open market may not hold more than 50% of GMO") as err:
        sell(g, "P1", "GMO", 30)
    assert err.value.rule == "stock.sell"
    assert dict(g.legal().sell_shares)["GMO"] == [10, 20]


def test_presidency_changes_on_buy_and_on_sale() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 70)
    for _ in range(2):
        buy(g, "P2", "GMO")
        pass_(g)  # P3
        pass_(g)  # P1
    assert pct(g, "GMO", "P2") == 20 and president(g, "GMO") == "P1"  # a tie keeps the president
    buy(g, "P2", "GMO")
    assert president(g, "GMO") == "P2"
    pres_cert = next(c for c in g.state.corporations["GMO"].certs if c.president)
    assert pres_cert.owner == "P2" and pct(g, "GMO", "P2") == 30 and pct(g, "GMO", "P1") == 20
    pass_(g)
    buy(g, "P1", "GMO")  # 30% against 40%: P2 stays president
    to_sr2(g)
    while current(g) != "P2":
        pass_(g)
    sell(g, "P2", "GMO", 20)
    assert president(g, "GMO") == "P1"
    assert pct(g, "GMO", "P1") == 30 and pct(g, "GMO", "P2") == 10 and market_pct(g, "GMO") == 20


def test_selling_half_of_a_presidents_certificate() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 70)
    buy(g, "P2", "GMO")
    pass_(g)
    pass_(g)
    buy(g, "P2", "GMO")
    to_sr2(g)
    while current(g) != "P1":
        pass_(g)
    assert pct(g, "GMO", "P1") == 20 and pct(g, "GMO", "P2") == 20
    sell(g, "P1", "GMO", 10)
    assert president(g, "GMO") == "P2"
    assert pct(g, "GMO", "P1") == 10 and pct(g, "GMO", "P2") == 20 and market_pct(g, "GMO") == 10


def test_president_may_not_sell_without_a_successor() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 70)
    buy(g, "P2", "GMO")
    to_sr2(g)
    while current(g) != "P1":
        pass_(g)
    with pytest.raises(EngineError, match="no other player holds 20% to take over") as err:
        sell(g, "P1", "GMO", 10)
    assert err.value.rule == "stock.sell"


def test_sold_out_corporation_rises_at_end_of_round() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 70)
    for _ in range(3):
        buy(g, "P2", "GMO")
        pass_(g)
        buy(g, "P1", "GMO")
    buy(g, "P2", "GMO")
    pass_(g)
    buy(g, "P1", "GMO")  # the IPO is now empty
    assert pct(g, "GMO", "P1") == 60 and pct(g, "GMO", "P2") == 40
    assert g.state.corporations["GMO"].cell == (1, 2)
    finish_stock_round(g)
    assert g.round.kind == "operating"
    assert g.state.corporations["GMO"].cell == (0, 2)  # $70 -> $75


def test_priority_goes_to_the_player_after_the_last_to_act() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 70)
    par(g, "P2", "IC", 90)
    pass_(g)  # P3
    pass_(g)  # P1
    assert current(g) == "P2"
    finish_stock_round(g)
    assert g.state.priority == 2  # P2 acted last -> P3
    # nothing floated, so no operating round: straight on to SR2, P3 first
    assert g.round.name() == "Stock Round 2" and current(g) == "P3"
