"""A forced train purchase's sale of part of another company's president's certificate, judged
by the counts the presidency checks use (shares.counted), as on the site. Found by the lockstep
sweep (1870 seed 502, 6 players, station_wars, action 967): two price protections had left SP
counted at 30% for a player holding 10%; SP's president, holding only its 20% certificate, went
bankrupt, and the site sold 10% of that certificate (someone "could take it over" by the
counts), the whole certificate going to the market; ours refused that sale by the certificates
held (10% at most), so his SP stayed in his score.

The position is made on a shared game (MKT must buy a $630 train, action 587): the
certificates are placed by hand."""

from __future__ import annotations

from typing import Any

from engine.core import shares
from engine.state import MARKET
from tests.engine.t1870._util import BANKRUPT, replay


def _fw_with_only_the_certificate() -> tuple[Any, Any, Any]:
    g = replay(BANKRUPT, 587)
    fw, mkt = g.state.corporations["FW"], g.state.corporations["MKT"]
    assert shares.president(fw) == "9263" and g.round.corp() is mkt
    certs = {c.id: c for c in fw.certs}
    shares.move(fw, certs["FW_2"], "7438")
    shares.move(fw, certs["FW_3"], MARKET)
    shares.move(fw, certs["FW_4"], MARKET)
    assert shares.percent(fw, "9263") == 20 and shares.percent(fw, MARKET) == 20
    return g, fw, mkt


def test_the_certificate_may_go_only_if_someone_counts_enough_to_take_it() -> None:
    g, fw, mkt = _fw_with_only_the_certificate()
    err = g.title.emergency_sale_error(g, mkt, "9263", fw, 10)
    assert err is not None and err[0] == "ebuy.presidency"  # nobody holds or counts 20%
    fw.uncounted["14945"] = -10  # holds 10%, counted 20% (left so by a protection)
    assert shares.counted(fw, "14945") == 20
    assert g.title.emergency_sale_error(g, mkt, "9263", fw, 10) is None


def test_ten_percent_of_the_certificate_sends_it_all_to_the_market() -> None:
    """As on the site: paid for 10%, the 20% certificate goes to the market, and he stays
    president (no other player counts more than him), counted at his 20% less the 10% sold."""
    g, fw, mkt = _fw_with_only_the_certificate()
    fw.uncounted["14945"] = -10
    g.imported = False  # a live move
    cash = g.state.player("9263").cash
    price = g.title.share_price(fw)
    g.apply({"type": "sell_shares", "entity": "9263", "entity_type": "player",
             "shares": ["FW_0"], "percent": 10})
    assert g.state.player("9263").cash == cash + price
    assert shares.president_cert(fw).owner == MARKET
    assert shares.percent(fw, MARKET) == 40
    assert shares.president(fw) == "9263" and shares.counted(fw, "9263") == 10


def test_a_president_apart_from_the_certificate_sells_an_ordinary_share() -> None:
    """The check is of a sale that takes his president's certificate: a president recorded
    apart from it (Corporation.president_apart) sells his ordinary shares whatever the counts
    (lockstep sweep, 1870 seed 561, action 604: the site sold such a GMO share at a
    bankruptcy)."""
    g, fw, mkt = _fw_with_only_the_certificate()
    certs = {c.id: c for c in fw.certs}
    shares.move(fw, certs["FW_0"], "14945")  # the certificate with another player...
    shares.move(fw, certs["FW_2"], "9263")  # ...who stays president, holding 10%
    fw.president_apart = "9263"
    fw.uncounted["14945"] = 20  # holds 30%, counted 10%
    assert shares.president(fw) == "9263" and shares.counted(fw, "14945") == 10
    assert g.title.emergency_sale_error(g, mkt, "9263", fw, 10) is None
