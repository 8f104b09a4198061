"""Audit against the 18xx.games engine: what a bankrupt president sells.

Site: step/bankrupt.rb sells, per corporation, the largest bundle the active train-buying step
allows (`sellable_bundles` -> g_1870 BuyTrain#can_sell? -> EmergencyMoney: the market must have
room, the president's certificate only if someone can take it, NO change of presidency of the
corporation buying the train, and holding_ok?: not above 60% in a white/yellow cell)."""

from __future__ import annotations

from engine.core import shares
from engine.state import MARKET
from tests.engine.t1870._util import BANKRUPT, replay

BANKRUPT_ACTION = {"type": "bankrupt", "entity": "SP", "entity_type": "corporation"}


def _give(g, corp_id: str, pid: str, pct: int) -> None:  # type: ignore[no-untyped-def]
    corp = g.state.corporations[corp_id]
    for c in [c for c in corp.certs if c.owner == MARKET and not c.president][: pct // 10]:
        c.owner = pid


def test_bankruptcy_never_hands_over_the_buying_companys_presidency() -> None:
    g = replay(BANKRUPT, 846)  # SP (president 14945) must buy a $1,100 train it cannot pay for
    _give(g, "SP", "14945", 20)  # 14945: 40% of SP
    _give(g, "SP", "9263", 20)  # 9263: 20%, the market is empty
    sp = g.state.corporations["SP"]
    assert shares.percent(sp, "14945") == 40 and shares.percent(sp, MARKET) == 0
    g.apply(BANKRUPT_ACTION)
    assert g.finished and g.state.end_reason == "bankrupt"
    # the site sells only what keeps him SP's president (20%), not all 40%
    assert shares.percent(sp, "14945") == 20
    assert shares.president(sp) == "14945"


def test_bankruptcy_sells_other_presidencies_when_someone_can_take_them() -> None:
    g = replay(BANKRUPT, 846)
    mp = g.state.corporations["MP"]  # 14945 presides MP with 40%, 7438 holds 10%; market full
    for c in [c for c in mp.certs if c.owner == MARKET][:3]:
        c.owner = "7438"  # market room 30%, 7438 now 40%
    g.apply(BANKRUPT_ACTION)
    assert shares.percent(mp, "14945") == 10  # 30% sold (the room), presidency may change


def test_bankruptcy_sells_no_second_block_of_a_company_sold_for_this_train() -> None:
    """One block per corporation for one train purchase: a company the president has already
    sold for this train stays in his hands when he goes bankrupt (the site's blocks)."""
    g = replay(BANKRUPT, 846)
    mkt = g.state.corporations["MKT"]
    g.apply({"type": "sell_shares", "entity": "14945", "entity_type": "player",
             "shares": ["MKT_5"], "percent": 10})
    assert shares.percent(mkt, "14945") == 20
    g.apply(BANKRUPT_ACTION)
    assert g.finished and g.state.end_reason == "bankrupt"
    assert shares.percent(mkt, "14945") == 20
