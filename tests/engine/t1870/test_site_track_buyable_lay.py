"""While a corporation could buy a private company that lays track (the Mississippi River Bridge
Company, held by a player, once companies may be bought), its track step stays open after its own
lays: as on the site, it may still buy the bridge and lay with it, and ends the step by passing.
Found by the lockstep sweep (1870 seed 21, original_tiles: after SP's upgrade the site still
waited in its track step)."""

from __future__ import annotations

from typing import Any

from tests.engine.t1870._util import BANK, logged, replay


def _bridge_with_a_player(upto: int) -> Any:
    g = replay(BANK, upto)  # phase 2: SLSF to lay; MP holds the bridge, used
    bridge = g.state.companies["MRBC"]
    bridge.owner, bridge.uses = "9263", 0  # as if a player still held it
    return g


def test_track_step_stays_while_the_bridge_can_be_bought() -> None:
    g = _bridge_with_a_player(446)
    g.apply(logged(BANK, 447))  # SLSF upgrades H13: no second lay after an upgrade
    assert g.round.kinds()[-1] == "pass" and "run_routes" not in g.round.kinds()
    assert "buy_company" in g.round.kinds()
    g.apply({"type": "pass", "entity": "SLSF", "entity_type": "corporation"})
    assert "run_routes" in g.round.kinds()


def test_no_wait_when_the_bridge_is_too_dear() -> None:
    g = _bridge_with_a_player(446)
    g.state.corporations["SLSF"].cash = 10  # less than the bridge's lowest price ($20)
    g.apply(logged(BANK, 447))
    assert "run_routes" in g.round.kinds()


def test_no_wait_when_a_corporation_holds_the_bridge() -> None:
    g = replay(BANK, 446)
    g.apply(logged(BANK, 447))
    assert "run_routes" in g.round.kinds()
