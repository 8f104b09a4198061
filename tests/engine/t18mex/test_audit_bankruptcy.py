"""Audit against the site: a bankrupt player sells, for each company, the one largest bundle
the forced-purchase rules let him sell (the site's Bankrupt step): with his president's
certificate when another player could take it over (not the presidency of the company that
must buy), an NdM 5% certificate only when no 10% bundle can be sold."""

from __future__ import annotations

from engine.core import shares
from engine.state import IPO
from tests.engine.t18mex._helpers import G17849, act, at


def _bankrupt_position():  # type: ignore[no-untyped-def]
    g = at(G17849, 359)  # SPM (president 1230) must buy a train it cannot pay for
    st = g.state
    certs = {c.id: c for corp in st.corporations.values() for c in corp.certs}
    # MC: no pool shares, 4948 holds 20%: 1230's 50% (president) may all go (MC_4, MC_0, MC_7,
    # MC_8 in the order he got them, as the site has the ids)
    for cid in ("MC_1", "MC_5", "MC_6"):
        certs[cid].owner = IPO
    # SPM (the buyer): 4948 holds 30%, pool empty: 1230 may sell only 10% and stay president
    for cid in ("SPM_1", "SPM_2", "SPM_6"):
        certs[cid].owner = IPO
    certs["SPM_7"].owner = certs["SPM_8"].owner = "4948"
    # NdM: a 10% share besides the 5% one
    certs["NdM_6"].owner = "1230"
    return g, st


def test_bankrupt_sells_one_largest_bundle_per_company() -> None:
    g, st = _bankrupt_position()
    assert g.title.may_declare_bankruptcy(g, g.round, st.corporations["SPM"])
    act(g, "SPM", "bankrupt")
    assert g.finished and g.state.end_reason == "bankrupt"
    mc, spm, ndm = (st.corporations[c] for c in ("MC", "SPM", "NdM"))
    assert shares.percent(mc, "1230") == 0 and shares.president(mc) == "4948"
    assert shares.percent(spm, "1230") == 30 and shares.president(spm) == "1230"
    assert [c.id for c in ndm.certs if c.owner == "1230"] == ["NdM_8"]


def test_forced_sale_may_hand_over_another_companys_presidency() -> None:
    """EmergencyMoney on the site: a president's certificate may go in a forced sale when another
    player can take it (not that of the buyer), also as the partial bundle (a 10% share back)."""
    g, st = _bankrupt_position()
    choices = [c for c in g.legal().choices if c["type"] == "sell_shares"]
    mc = [(tuple(c["shares"]), c["percent"]) for c in choices if c["shares"][0].startswith("MC")]
    assert (("MC_4", "MC_7", "MC_8", "MC_0"), 40) in mc and (("MC_4", "MC_7", "MC_8", "MC_0"), 50) in mc
    spm = [c["percent"] for c in choices if c["shares"][0].startswith("SPM")]
    assert spm == [10]  # the buyer's presidency stays
    act(g, "1230", "sell_shares", "player", shares=["MC_4", "MC_7", "MC_8", "MC_0"], percent=40)
    mcorp = st.corporations["MC"]
    assert shares.percent(mcorp, "1230") == 10 and shares.president(mcorp) == "4948"
