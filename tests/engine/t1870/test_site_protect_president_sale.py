"""Protecting a sale made of part of the president's certificate (a president's emergency sale that
passed the presidency on): as on the site, the protector takes the president's certificate back
from whoever holds it now and gives him one of his ordinary shares in exchange; the market keeps
the shares it has. Found by the lockstep sweep (1870 seed 24, original_tiles: 1004 protected his
own sale of 10% of SSW's president's certificate; the site took the 10% from the new president
1005, ours from the market)."""

from __future__ import annotations

from engine.core import shares
from engine.state import MARKET
from engine.titles.t1870 import protection
from engine.titles.t1870.state import Sale
from tests.engine.t1870._util import BANK, replay


def test_protection_of_a_presidents_certificate_sale_takes_it_back_from_the_new_president() -> None:
    g = replay(BANK, 286)
    slsf = g.state.corporations["SLSF"]
    certs = {c.id: c for c in slsf.certs}
    # after 4395 (20% + 10%) sold 10% of his president's certificate: 18843 (who held 20%) took
    # the presidency, one of his shares went to 4395, the other to the market
    shares.move(slsf, certs["SLSF_0"], "18843")
    shares.move(slsf, certs["SLSF_2"], MARKET)
    assert shares.president(slsf) == "18843"
    cash = g.state.player("4395").cash
    sale = Sale(corp="SLSF", pct=10, president="4395", seller="4395", certs=["SLSF_0"])
    protection.protect(g, sale, "4395", ["SLSF_2"])
    assert certs["SLSF_0"].owner == "4395" and shares.president(slsf) == "4395"
    assert certs["SLSF_1"].owner == "18843"
    assert certs["SLSF_2"].owner == MARKET  # the market keeps its share
    assert g.state.player("4395").cash == cash - g.title.share_price(slsf)


def test_the_presidency_is_then_settled_from_the_president_before_the_protection() -> None:
    """Sweep seed 63: after the protection another player ties the protector; counted clockwise
    from the president before the protection he comes first and takes the presidency, handing his
    shares to the protector (not to the market)."""
    g = replay(BANK, 286)
    slsf = g.state.corporations["SLSF"]
    certs = {c.id: c for c in slsf.certs}
    assert [p.id for p in g.state.players] == ["9263", "7438", "4395", "18843"]
    shares.move(slsf, certs["SLSF_0"], "18843")
    shares.move(slsf, certs["SLSF_2"], MARKET)
    shares.move(slsf, certs["SLSF_3"], "9263")
    shares.move(slsf, certs["SLSF_4"], "9263")
    sale = Sale(corp="SLSF", pct=10, president="4395", seller="4395", certs=["SLSF_0"])
    protection.protect(g, sale, "4395", ["SLSF_2"])
    assert shares.president(slsf) == "9263"
    assert {c.id for c in shares.certs_of(slsf, "4395")} == {"SLSF_3", "SLSF_4"}
    assert [c.id for c in shares.certs_of(slsf, "18843")] == ["SLSF_1"]
    assert [c.id for c in shares.certs_of(slsf, MARKET)] == ["SLSF_2"]
