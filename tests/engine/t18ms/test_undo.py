"""Undo and redo are actions: undo restores the state exactly, redo reapplies, a new move
clears the redo stack, and undo may go back to a named action."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.io.export18xx import end_state, import_game
from tests.engine._helpers import buy, current, do, new_game, par, standard_start


def snapshot(g):
    return (end_state(g), g.current_entity(), g.round.name(), g.state.priority,
            dict(g.state.tile_supply), g.legal())


def test_undo_restores_state_exactly_and_redo_reapplies() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    before = snapshot(g)
    par(g, "P2", "IC", 90)
    after = snapshot(g)
    do(g, "P3", "undo")
    assert snapshot(g) == before
    assert [a.type for a in g.log][-1] == "undo"  # undo is itself logged
    do(g, "P2", "redo")
    assert snapshot(g) == after
    with pytest.raises(EngineError, match="nothing to redo") as err:
        do(g, "P3", "redo")
    assert err.value.rule == "redo.nothing"


def test_new_move_clears_redo() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    do(g, "P2", "undo")
    assert current(g) == "P1"
    par(g, "P1", "GMO", 70)
    with pytest.raises(EngineError, match="nothing to redo") as err:
        do(g, "P1", "redo")
    assert err.value.rule == "redo.nothing"
    assert g.state.corporations["GMO"].par == 70


def test_undo_to_an_action_id() -> None:
    g = new_game(3)
    first = do(g, "P3", "bid", company="M&O", price=70)
    do(g, "P2", "bid", company="BS", price=40)
    do(g, "P1", "bid", company="M&M", price=50)
    par(g, "P1", "GMO", 80)
    do(g, "P2", "undo", action_id=first.id)  # back to just after the first pick
    assert current(g) == "P2" and g.round.kind == "draft"
    assert g.state.companies["M&O"].owner == "P3" and g.state.companies["BS"].owner is None
    assert g.state.player("P1").cash == 625
    with pytest.raises(EngineError, match="not in effect") as err:
        do(g, "P2", "undo", action_id=999)
    assert err.value.rule == "undo.unknown"
    do(g, "P2", "redo")
    assert g.state.corporations["GMO"].par == 80 and current(g) == "P2"


def test_nothing_to_undo() -> None:
    g = new_game(3)
    with pytest.raises(EngineError, match="nothing to undo") as err:
        do(g, "P3", "undo")
    assert err.value.rule == "undo.nothing"
    assert g.log == []


def test_rejected_move_leaves_state_unchanged() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    before = snapshot(g)
    with pytest.raises(EngineError):
        buy(g, "P2", "GMO")  # fine on its own ...
        buy(g, "P3", "WRA")  # ... but WRA was never started
    # the accepted buy stays; the rejected one left no trace
    assert snapshot(g) != before and g.log[-1].type == "buy_shares"


def test_fixture_undo_at_an_operating_step() -> None:
    from tests.engine._helpers import load_fixture

    data = load_fixture("18MS/14375.json")
    g = import_game(data, upto=94)
    before = snapshot(g)
    g.apply({"entity": "Fr", "entity_type": "corporation", "type": "place_token", "city": "I1-0-0", "slot": 0})
    g.apply({"entity": "Fr", "entity_type": "corporation", "type": "undo"})
    assert snapshot(g) == before
