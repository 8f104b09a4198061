"""Buying a private company at the wrong time is refused with the rule, not the step."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.io.export18xx import import_game
from tests.engine._helpers import load_fixture


def test_or1_only_ags_and_bs_may_be_bought() -> None:
    g = import_game(load_fixture("18MS/14375.json"), upto=57)
    assert g.round.current() == ("Fr", "corporation")
    assert g.state.companies["M&O"].owner == "686"  # Fr's president holds M&O
    with pytest.raises(EngineError, match="In OR 1 only the Alabama Great Southern") as err:
        g.apply({"type": "buy_company", "entity": "Fr", "entity_type": "corporation",
                 "company": "M&O", "price": 70})
    assert err.value.rule == "company.buy"
    assert g.state.companies["M&O"].owner == "686"


def test_a_private_of_another_player_is_refused() -> None:
    g = import_game(load_fixture("18MS/14375.json"), upto=57)
    with pytest.raises(EngineError, match="only from its own president"):
        g.apply({"type": "buy_company", "entity": "Fr", "entity_type": "corporation",
                 "company": "M&M", "price": 50})
