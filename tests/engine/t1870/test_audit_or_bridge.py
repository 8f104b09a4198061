"""Audit of 1870's operating round against the site: the Mississippi River Bridge Company's lay.

On the site the bridge company's tile lay lists only yellow tiles (#1-#9, #55-#58, #69) and is
usable in the track step only (the ability's `when: track`): it can
never upgrade a river hex, even with its $40 discount unused."""

from __future__ import annotations

from tests.engine.t1870._util import BANK, SMALL, logged, rejected, replay


def test_bridge_company_cannot_upgrade_a_river_hex() -> None:
    g = replay(BANK, 349)  # phase 2, MP lays track; St. Louis (C18) holds a yellow #5
    bridge = g.state.companies["MRBC"]
    assert g.round.corp().id == "MP" and bridge.owner == "MP"
    bridge.uses = 0  # as if its lay were still unused
    cash = g.state.corporations["MP"].cash
    err = rejected(g, {"type": "lay_tile", "entity": "MRBC", "entity_type": "company",
                       "hex": "C18", "tile": "14-0", "rotation": 0})
    assert err.rule == "company.tile"
    assert g.state.tiles["C18"].tile == "5" and g.state.corporations["MP"].cash == cash
    g.apply({"type": "lay_tile", "entity": "MP", "entity_type": "corporation",  # a normal upgrade is fine
             "hex": "C18", "tile": "14-0", "rotation": 0})
    assert g.state.tiles["C18"].tile == "14"


def test_bridge_company_lays_in_the_track_step_only() -> None:
    g = replay(SMALL, 50)  # MP's first turn, track step; it holds the unused bridge company
    assert g.round.corp().id == "MP" and g.round.step_name() == "track"
    g.apply({"type": "pass", "entity": "MP", "entity_type": "corporation"})
    assert g.round.corp().id == "MP" and g.round.step_name() != "track"
    err = rejected(g, logged(SMALL, 51))  # the free home lay, now too late
    assert err.rule == "company.when"
    assert "C18" not in g.state.tiles


def test_bridge_company_home_lay_in_the_track_step() -> None:
    g = replay(SMALL, 50)
    g.apply(logged(SMALL, 51))
    assert g.state.tiles["C18"].tile == "5" and g.round.turn.laid == 0  # an extra lay
