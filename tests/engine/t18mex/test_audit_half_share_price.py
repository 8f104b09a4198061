"""Audit against the site: a bundle's price is ceil(share price x percent / 10) (ShareBundle#price),
so a 5% NdM certificate bought from the pool costs half the price rounded up, as it sells."""

from __future__ import annotations

from engine.core import market as mk
from tests.engine.t18mex._helpers import G13315, act, at


def test_five_percent_ndm_bought_at_half_rounded_up() -> None:
    g = at(G13315, 439)  # 1048 buys the pool's NdM_8 next (at $100 in the real game)
    st, t = g.state, g.title
    ndm = st.corporations["NdM"]
    cell = next((r, c) for r, row in enumerate(t.market.grid) for c, p in enumerate(row) if p == 75)
    mk.move(st, ndm, cell)
    cash, bank = st.player("1048").cash, st.bank.cash
    assert ("NdM_8", 38) in [(b[0], b[1]) for b in g.legal().buy_shares]
    act(g, "1048", "buy_shares", "player", shares=["NdM_8"], percent=5)
    assert st.player("1048").cash == cash - 38 and st.bank.cash == bank + 38
