"""Mexico City (O10) and Puebla (P11): one lay puts both halves down at rotation 0 and the
company pays Puebla's cost ($60 to green, then $40 to brown), whichever half it names."""

from __future__ import annotations

from tests.engine.t18mex._helpers import G13315, GHOT, act, at, rejected


def test_green_pair_costs_60_and_lays_the_partner() -> None:
    g = at(G13315, 256)
    assert g.round.current() == ("MC", "corporation")
    rejected(g, "MC", "lay_tile", "track.tile", "479MC at rotation 1",
             hex="O10", tile="479MC-0", rotation=1)
    rejected(g, "MC", "lay_tile", "track.tile", "may not be laid on O10", hex="O10", tile="14-0", rotation=0)
    cash = g.state.corporations["MC"].cash
    act(g, "MC", "lay_tile", hex="O10", tile="479MC-0", rotation=0)
    st = g.state
    assert (st.tiles["O10"].tile, st.tiles["P11"].tile, st.tiles["P11"].rotation) == ("479MC", "479P", 0)
    assert st.corporations["MC"].cash == cash - 60
    assert "479P-0" not in st.tile_supply["479P"]


def test_brown_pair_costs_40() -> None:
    before, after = at(G13315, 266), at(G13315, 267)  # CHI lays 485MC
    assert (after.state.tiles["O10"].tile, after.state.tiles["P11"].tile) == ("485MC", "485P")
    assert before.state.corporations["CHI"].cash - after.state.corporations["CHI"].cash == 40
    assert "479MC-0" in after.state.tile_supply["479MC"]  # the green pair goes back to the supply


def test_naming_the_puebla_half_lays_mexico_city_too() -> None:
    before, after = at(GHOT, 539), at(GHOT, 540)  # MEX lays 486P on P11
    assert (after.state.tiles["P11"].tile, after.state.tiles["O10"].tile) == ("486P", "486MC")
    assert after.state.tiles["O10"].rotation == 0
    assert before.state.corporations["MEX"].cash - after.state.corporations["MEX"].cash == 40
