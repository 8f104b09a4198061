"""A president's certificate goes to the pool only with the presidency: a bundle holding it (the
whole one, or the partial one a 10% share short) may be sold for a forced purchase only when
another player then holds more than the seller. Were the seller still the largest holder, he
would have to keep the president's certificate (the site moves it to the pool anyway and leaves
its holdings inconsistent; our engine never offers nor accepts that sale)."""

from __future__ import annotations

from engine.core import shares
from tests.engine.t18mex._helpers import G13315, at, rejected


def _position():  # type: ignore[no-untyped-def]
    g = at(G13315, 42)  # TM must buy its first train ($100)
    st = g.state
    tm = st.corporations["TM"]
    pid = shares.president(tm)
    assert pid is not None
    st.bank.cash += tm.cash
    tm.cash = 0
    ndm = st.corporations["NdM"]
    other = next(p.id for p in st.players if p.id != pid)
    owners = {"NdM_0": pid, "NdM_7": pid, "NdM_8": pid, "NdM_1": other, "NdM_2": other}
    for c in ndm.certs:
        c.owner = owners.get(c.id, c.owner)
    return g, tm, ndm, pid


def test_partial_president_bundle_only_when_the_presidency_passes() -> None:
    g, tm, ndm, pid = _position()  # he holds 20% + 5% + 5%, another player 20%
    opts = {(tuple(c.id for c in certs), pct) for certs, pct in g.title.sale_options(g, ndm, pid, tm)}
    # selling 10% would leave him 20%, tied with the other: still president, so no
    assert (("NdM_0",), 10) not in opts
    # selling the whole 20% leaves him 10%: the other player takes the presidency
    assert (("NdM_0",), 20) in opts
    assert (("NdM_7",), 5) in opts


def test_the_tied_partial_sale_is_refused() -> None:
    g, tm, ndm, pid = _position()
    rejected(g, pid, "sell_shares", "ebuy.bundle", "not a bundle you may sell", etype="player",
             shares=["NdM_0"], percent=10)
