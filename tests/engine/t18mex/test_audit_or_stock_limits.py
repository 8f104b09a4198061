"""Audit against the site's stock round (G18MEX BuySellParShares#room_to_gain?): a buyer has room
below the certificate limit, in the yellow zone, or, for a 5% NdM certificate, exactly at the
limit; a player over the limit may not take a 5% NdM certificate either."""

from __future__ import annotations

from engine.core import market as mk
from engine.titles.t18mex.state import mex_state
from tests.engine.t18mex._helpers import G13315, at


def _setup(over: int):  # type: ignore[no-untyped-def]
    g = at(G13315, 439)  # 1048 buys the pool's NdM_8 next (at $100 in the real game)
    st, t = g.state, g.title
    n = t.cert_count(g, "1048")
    mex_state(g).cert_limit_adjust = int(mex_state(g).cert_limit_adjust) + (n - over) - t.cert_limit(g)
    assert t.cert_count(g, "1048") - t.cert_limit(g) == over
    ndm = st.corporations["NdM"]
    return g, ndm, next(c for c in ndm.certs if c.id == "NdM_8")


def test_five_percent_ndm_at_the_limit_allowed() -> None:
    g, ndm, cert = _setup(0)
    assert g.round.buy_error("1048", ndm, cert) is None  # type: ignore[attr-defined]


def test_five_percent_ndm_over_the_limit_refused() -> None:
    g, ndm, cert = _setup(1)
    assert "over the certificate limit" in str(g.round.buy_error("1048", ndm, cert))  # type: ignore[attr-defined]


def test_five_percent_ndm_over_the_limit_in_the_yellow_zone_allowed() -> None:
    g, ndm, cert = _setup(1)
    t = g.title
    cell = next(c for c, types in t.market.cell_types.items() if "no_cert_limit" in types)
    mk.move(g.state, ndm, cell)
    assert g.round.buy_error("1048", ndm, cert) is None  # type: ignore[attr-defined]
