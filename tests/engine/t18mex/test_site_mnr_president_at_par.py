"""The Mexican National (MNR) brings the NdM president's certificate, as on the site: the
certificate stays in NdM's offering while the winner is still to set NdM's par price, and goes
to him with the `par` action (the site hands a private's president certificate out at its par,
not when the private is won)."""

from __future__ import annotations

from engine.game import Game
from engine.state import IPO
from tests.engine.t18mex._helpers import act


def _buy_all_up_to_mnr() -> Game:
    """Each private bought at its face value while it is the cheapest; P1 ends with MNR."""
    g = Game("18MEX", ["P1", "P2", "P3"])
    for pid, company, price in (("P1", "MCAR", 20), ("P2", "KCMO", 40), ("P3", "A", 50), ("P1", "B", 50),
                                ("P2", "C", 50), ("P3", "MIR", 100), ("P1", "MNR", 140)):
        act(g, pid, "bid", etype="player", company=company, price=price)
    return g


def test_mnr_winner_holds_no_ndm_certificate_before_par() -> None:
    g = _buy_all_up_to_mnr()
    ndm = g.state.corporations["NdM"]
    assert g.state.companies["MNR"].owner == "P1"
    assert g.current_entity() == ("P1", "player")  # to set NdM's par
    assert next(c for c in ndm.certs if c.president).owner == IPO
    assert not any(c.owner == "P1" for c in ndm.certs)


def test_mnr_par_gives_the_president_certificate() -> None:
    g = _buy_all_up_to_mnr()
    act(g, "P1", "par", etype="player", corporation="NdM", share_price="80,0,4")
    ndm = g.state.corporations["NdM"]
    assert next(c for c in ndm.certs if c.president).owner == "P1"
    assert ndm.par == 80
