"""Selling the NdM president's certificate in a stock round: 5% certificates count in a
holding but are never part of a larger sale, so a sale may need the president's certificate
while the seller keeps as much as the next holder. He would then stay president without the
certificate (the site accepts it and leaves the certificate in the pool); ours refuses such a
sale and the legal answer does not offer it: another player must then hold more than him."""

from __future__ import annotations

from engine.core import shares
from engine.game import Game
from engine.legal import legal_moves
from engine.state import MARKET
from tests.engine.t18mex._helpers import G13315, act, at, rejected


def _tied_holding() -> Game:
    g = at(G13315, 453)  # stock round 6: 671 (NdM president: 20% + 10% + 10%) acts next
    ndm = g.state.corporations["NdM"]
    cert = {c.id: c for c in ndm.certs}
    shares.move(ndm, cert["NdM_4"], MARKET)
    shares.move(ndm, cert["NdM_7"], "671")
    shares.move(ndm, cert["NdM_8"], "671")
    # 671: NdM_0 (20%), NdM_1, NdM_7 (5%), NdM_8 (5%) = 40%; 109 and 1395 hold 20% each
    assert shares.percent(ndm, "671") == 40
    assert max(shares.percent(ndm, p) for p in ("109", "1395", "1048", "3542")) == 20
    return g


def test_legal_answer_leaves_out_the_tied_sale() -> None:
    g = _tied_holding()
    lg = legal_moves(g)
    assert lg.entity == "671"
    # 10%: NdM_1 alone; 30%: the president's certificate and NdM_1 (671 keeps 10%, less than
    # 20%); 40%: all; not 20%, which takes the president's certificate and leaves him 20%
    assert dict(lg.sell_shares)["NdM"] == [10, 30, 40]


def test_tied_sale_is_refused() -> None:
    g = _tied_holding()
    rejected(g, "671", "sell_shares", "stock.sell", "stay president without it", etype="player",
             shares=["NdM_1", "NdM_0"], percent=20)


def test_sale_handing_over_the_presidency_is_accepted() -> None:
    g = _tied_holding()
    act(g, "671", "sell_shares", etype="player", shares=["NdM_1", "NdM_0"], percent=30)
    ndm = g.state.corporations["NdM"]
    assert shares.president(ndm) in ("109", "1395")
    assert shares.president_cert(ndm).owner == shares.president(ndm)
