"""A company merged into the NdM is closed for good: it may not be started again (the site
accepts such a par without effect; our engine refuses it and never offers it)."""

from __future__ import annotations

from engine.legal import legal_moves
from tests.engine.t18mex._helpers import G13315, at, rejected


def test_a_merged_company_cannot_be_parred_again() -> None:
    g = at(G13315, 296)  # the stock round after MEX merged into the NdM
    mex = g.state.corporations["MEX"]
    assert mex.closed and not mex.ipoed
    pid = g.acting_players()[0]
    assert "MEX" not in legal_moves(g).pars
    rejected(g, pid, "par", "stock.par", "merged into the NdM", etype="player", corporation="MEX",
             share_price="100,0,6")
