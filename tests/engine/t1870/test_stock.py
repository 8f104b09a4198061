"""1870 stock round: price protection, redemption and reissue, the market zones."""

from __future__ import annotations

from typing import Any

from engine.core import market as mk
from engine.core import shares
from engine.game import Game
from engine.state import IPO, MARKET
from engine.titles.t1870 import market as zones
from engine.titles.t1870 import protection
from tests.engine.t1870._util import ALLOWED, BANK, BANKRUPT, FAILS, logged, rejected, replay


# ---------------------------------------------------------------- price protection
def test_protection_keeps_the_price_and_ends_the_protectors_turn() -> None:
    g = replay(BANK, 1172)  # 7438 sold SP_5 and bought; SP's president 18843 may protect
    sp = g.state.corporations["SP"]
    cell, held = sp.cell, shares.percent(sp, "18843")
    assert g.round.current() == ("18843", "player")
    assert g.round.kinds() == ["buy_shares", "pass"]
    err = rejected(g, {"type": "buy_shares", "entity": "4395", "entity_type": "player", "shares": ["SP_5"]})
    assert err.rule == "protection.turn" and "price-protect SP" in str(err)
    sp = g.state.corporations["SP"]  # a rejected move rebuilds the state
    g.apply(logged(BANK, 1173))
    assert sp.cell == cell and shares.percent(sp, "18843") == held + 10
    assert g.round.current() == ("9263", "player")  # play resumes left of the protector


def test_declined_protection_drops_the_price() -> None:
    g = replay(BANK, 1172)
    sp = g.state.corporations["SP"]
    before = g.title.share_price(sp)
    g.apply({"type": "pass", "entity": "18843", "entity_type": "player"})
    assert g.title.share_price(sp) < before
    assert shares.percent(sp, MARKET) == 10  # the share stays in the market


def test_protection_needs_certificate_room() -> None:
    g = replay(FAILS, 918)  # 5607 sold 40% FW; its president 2385 is at his limit
    fw_sale = next(s for s in protection.queue(g) if s.corp == "FW")
    err = protection.protect_error(g, fw_sale, set())
    assert err is not None and "certificate limit" in err
    g.apply(logged(FAILS, 919))  # 3268 declines SSW; FW then drops by itself
    assert g.title.share_price(g.state.corporations["FW"]) == 50
    assert protection.queue(g) == []


def test_protection_allowed_goes_above_60_percent() -> None:
    g = replay(ALLOWED)
    assert g.result()["5607"] == 4240
    assert shares.percent(g.state.corporations["MP"], "5607") == 70


def test_no_protection_of_a_company_sold_this_round() -> None:
    g = replay(BANK, 1172)
    sale = protection.queue(g)[0]
    err = protection.protect_error(g, sale, {"SP"})
    assert err is not None and "sold SP this round" in err


# ---------------------------------------------------------------- redemption and reissue
def test_redemption_takes_a_share_into_the_treasury() -> None:
    g = replay(BANK, 183)
    mkt = g.state.corporations["MKT"]
    cash, price = mkt.cash, g.title.share_price(mkt)
    g.apply(logged(BANK, 184))
    assert next(c for c in mkt.certs if c.id == "MKT_3").owner == "MKT"
    assert mkt.cash == cash - price
    assert "already redeemed" in (g.round.redeem_error("7438", mkt) or "")  # once per round
    err = rejected(g, {"type": "buy_shares", "entity": "MKT", "entity_type": "corporation", "shares": ["MKT_4"]})
    assert err.rule == "stock.corporate_turn"


def test_redemption_refused_before_operating() -> None:
    g = replay(BANK, 183)
    tp = g.state.corporations["TP"]
    assert tp.operated_turns == 0
    assert g.round.redeem_error("x", tp) == "TP has not operated yet, so it may not redeem a share."


def test_reissue_sets_the_new_par_and_makes_the_company_incremental() -> None:
    g = replay(BANK, 771)
    mkt = g.state.corporations["MKT"]
    assert g.round.current() == ("7438", "player") and g.title.share_price(mkt) == 140
    g.apply({"type": "sell_shares", "entity": "MKT", "entity_type": "corporation",
             "shares": ["MKT_3", "MKT_5", "MKT_6"], "percent": 30})
    assert mkt.par == 110  # top-row price nearest to 75% of $140 (as the site), above the old $68
    assert shares.percent(mkt, IPO) == 30
    assert g.round.current() != ("7438", "player")  # a reissue ends the turn
    cert = next(c for c in mkt.certs if c.id == "MKT_3")
    assert g.round.price_for(cert, mkt) == 110
    rich = max(g.state.players, key=lambda p: p.cash).id
    cash = mkt.cash
    g.title.do_buy_cert(g, g.round, rich, mkt, cert, 110, None)
    assert mkt.cash == cash + 110  # incremental: the company receives the price


def test_reissue_refused_while_unsold_shares_remain() -> None:
    g = replay(BANK, 553)
    assert g.round.current() == ("4395", "player")
    err = rejected(g, {"type": "sell_shares", "entity": "SLSF", "entity_type": "corporation",
                       "shares": ["SLSF_1"], "percent": 10})
    assert err.rule == "reissue.refused" and "redeemed" in str(err)


# ---------------------------------------------------------------- market zones
def _fresh_corp() -> tuple[Any, Any]:
    g = Game("1870", ["a", "b", "c", "d"])
    corp = g.state.corporations["ATSF"]
    corp.ipoed = corp.floated = True
    return g, corp


def _put(g: Any, corp: Any, cell: tuple[int, int]) -> None:
    mk.move(g.state, corp, cell)


def test_yellow_green_brown_do_not_count_toward_the_limit() -> None:
    g, corp = _fresh_corp()
    t = g.title
    for cell, counts, above_60 in (((0, 6), True, False), ((1, 0), False, False),
                                   ((3, 0), False, True), ((4, 0), False, True)):
        _put(g, corp, cell)
        assert t.counts_for_cert_limit(g, corp) is counts, cell
        assert t.may_hold_above_60(g, corp) is above_60, cell


def test_brown_zone_buys_several_market_shares_in_one_turn() -> None:
    g = replay(BANKRUPT, 688)
    mkt = g.state.corporations["MKT"]
    assert "multiple_buy" in zones.zone(g, mkt.cell)
    assert g.round.current() == ("4395", "player") and "buy_shares" in g.round.kinds()
    err = rejected(g, {"type": "buy_shares", "entity": "4395", "entity_type": "player", "shares": ["SP_5"]})
    assert "already bought" in str(err)


def test_ledge_and_moves() -> None:
    g, corp = _fresh_corp()
    _put(g, corp, (5, 9))
    zones.drop_for_sale(g, corp, 1)  # one share never enters the ledge
    assert corp.cell == (5, 9)
    zones.drop_for_sale(g, corp, 2)  # two shares end one row below it
    assert corp.cell == (7, 9)
    _put(g, corp, (2, 15))
    zones.move_right(g, corp)  # a pay-out into the ledge goes up instead
    assert corp.cell == (1, 15)
    _put(g, corp, (0, 5))
    zones.sold_out_move(g, corp)  # sold out in the top row: right and down, same price
    assert corp.cell == (1, 6) and g.title.share_price(corp) == 90


def test_black_cell_closes_the_company() -> None:
    g, corp = _fresh_corp()
    corp.cash = 50
    bank = g.state.bank.cash
    limit = g.title.cert_limit(g)
    _put(g, corp, (7, 0))
    zones.drop_for_sale(g, corp, 1)
    assert not corp.closed  # it closes when the action is over, as on the site
    g.title.action_processed(g)
    assert corp.closed and corp.cell is None and corp.cash == 0
    assert g.state.bank.cash == bank + 50
    assert g.title.cert_limit(g) < limit  # one company fewer
