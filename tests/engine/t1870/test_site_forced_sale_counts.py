"""A forced train purchase's sale of the buying company's own shares, judged by the counts the
presidency checks use (shares.counted), as on the site. Found by the lockstep sweep (1870 seed
19, station_wars, action 1302): a protection had left IC's president holding 30% but counted
at 50% (Corporation.uncounted) against another player's 40%; the site let him sell 10% of IC
to fund IC's train (counted 40% each: a tie keeps the president), ours refused it as a change
of IC's presidency (20% held against 40%).

The position is made on a shared game (MKT must buy a $630 train, action 587): the
certificates are placed by hand."""

from __future__ import annotations

from engine.core import shares
from tests.engine.t1870._util import BANKRUPT, replay


def test_the_buying_companys_presidency_is_judged_by_the_counted_holdings() -> None:
    g = replay(BANKRUPT, 587)
    mkt = g.state.corporations["MKT"]
    assert shares.president(mkt) == "9263" and g.round.corp() is mkt
    certs = {c.id: c for c in mkt.certs}
    shares.move(mkt, certs["MKT_7"], "14945")
    shares.move(mkt, certs["MKT_8"], "7438")
    mkt.uncounted["9263"] = -20  # holds 30%, counted 50% (left so by a protection)
    assert shares.percent(mkt, "9263") == 30 and shares.counted(mkt, "9263") == 50
    assert shares.counted(mkt, "14945") == 40
    assert g.title.emergency_sale_error(g, mkt, "9263", mkt, 10) is None  # 40% against 40%
    err = g.title.emergency_sale_error(g, mkt, "9263", mkt, 20)  # 30% against 40%
    assert err is not None and err[0] == "ebuy.presidency"
