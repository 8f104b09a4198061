"""Audit against the 18xx.games engine: the 18MS track step.

The site's Tracker (check_track_restrictions!, TRACK_RESTRICTION :semi_restrictive by default)
refuses a corporation's upgrade that gives it no new track it reaches and changes no city
value it reaches; a private company's lay is not checked. Position: fixture 17510 at action
246, L&N in its track step in phase 3; E3 holds a straight (tile 9, rotation 1: edges 1-4)
that L&N reaches."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.io.export18xx import import_game
from tests.engine._helpers import load_fixture


@pytest.fixture(scope="module")
def f2() -> dict:
    return load_fixture("18MS/17510.json")


def lay(hex_name: str, tile: str, rotation: int) -> dict:
    return {"entity": "L&N", "entity_type": "corporation", "type": "lay_tile", "hex": hex_name,
            "tile": tile, "rotation": rotation}


def test_upgrade_adding_only_unreached_track_is_refused(f2) -> None:
    g = import_game(f2, upto=246)
    assert g.round.corp().id == "L&N" and g.round.step_name() == "track"
    assert g.state.tiles["E3"].tile == "9"
    # tile 20 keeps the 1-4 straight and adds a crossing 2-5 straight L&N cannot reach
    n = len(g.log)
    with pytest.raises(EngineError) as err:
        g.apply(lay("E3", "20-0", 1))
    assert err.value.rule == "track.restriction"
    assert len(g.log) == n
    assert all(name != "20-0" for name, _ in g.legal().tiles.get("E3", []))


def test_upgrade_adding_reached_track_is_accepted(f2) -> None:
    g = import_game(f2, upto=246)
    # tile 26 at rotation 4 adds a curve joined to the straight L&N reaches: accepted
    g.apply(lay("E3", "26-0", 4))
    assert g.state.tiles["E3"].tile == "26"
