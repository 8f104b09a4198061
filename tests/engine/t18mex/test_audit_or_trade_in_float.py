"""Audit against the site: a minor's trade-in certificate is handed over by the share pool's
buy_shares (exchange: :free), which floats the company when it brings the sold part to 50%
(full capitalization: ten times par from the bank at once). The UdY can float so when the first
3' closes minor C; it does not operate until the next operating round."""

from __future__ import annotations

from engine.core import shares
from engine.flow.stock import par_place
from engine.game import Game
from engine.titles.t18mex.state import mex_state
from tests.engine.t18mex._helpers import G13315, act, at


def _udy_at_40() -> Game:
    g = at(G13315, 153)  # FCP buys the first 3' next: the minors close
    st = g.state
    udy = st.corporations["UdY"]
    par_place(g, udy, next(c for c in g.title.market.par_cells.values() if g.title.market.price(c) == 70))
    players = [p.id for p in st.players]
    for cert, pid in zip(udy.certs[:3], players, strict=False):  # president 20% and two 10% shares
        cert.owner = pid
    assert 100 - shares.percent(udy, "ipo") == 40 and not udy.floated
    return g


def test_trade_in_floats_the_udy() -> None:
    g = _udy_at_40()
    st = g.state
    bank = st.bank.cash
    c_cash = st.corporations["C"].cash
    act(g, "FCP", "buy_train", train="3'-0", price=180, variant="3'")
    udy = st.corporations["UdY"]
    assert st.corporations["C"].closed
    assert udy.floated
    assert udy.cash == 700 + c_cash  # ten times par, and the minor's treasury
    assert st.bank.cash == bank + 180 - 700
    assert "UdY" not in g.round.order  # type: ignore[attr-defined]  # operates from the next round
    assert "UdY" in mex_state(g).recently_floated
