"""A player holding more than 60% of a company (possible through minor C's trade-in UdY share)
must sell first in his stock turn, as on the site (its must-sell check covers the holding limit
as well as the certificate limit): he may only sell until he is back within the limit."""

from __future__ import annotations

from engine.legal import legal_moves
from engine.state import IPO, MARKET
from tests.engine.t18mex._helpers import G13315, at, rejected


def test_over_sixty_percent_must_sell_first() -> None:
    g = at(G13315, 296)  # a stock round; player 1395 to act
    pid = g.acting_players()[0]
    st = g.state
    def avail(c):  # type: ignore[no-untyped-def]
        return [x for x in c.certs if x.owner in (IPO, MARKET) and not x.president and x.percent == 10]

    corp = next(c for c in st.corporations.values()
                if c.kind == "corporation" and c.floated and not c.closed and c.id != "NdM"
                and sum(x.percent for x in c.certs if x.owner == pid) + 10 * len(avail(c)) >= 70)
    for cert in avail(corp):
        if sum(x.percent for x in corp.certs if x.owner == pid) >= 70:
            break
        cert.owner = pid
    held = sum(x.percent for x in corp.certs if x.owner == pid)
    assert held > 60
    lg = legal_moves(g)
    assert lg.kinds == ("sell_shares",)
    buy = next(x for x in st.corporations["NdM"].certs if x.owner == IPO and x.percent == 10)
    rejected(g, pid, "buy_shares", "stock.must_sell", "must sell", etype="player", shares=[buy.id])
