"""The private-company draft: reverse seating order, face value, no passing."""

import pytest

from engine import EngineError
from tests.engine._helpers import current, do, new_game


def test_draft_runs_in_reverse_order_at_face_value() -> None:
    g = new_game(3)
    assert current(g) == "P3"
    assert g.legal().kinds == ("bid",)
    do(g, "P3", "bid", company="M&O", price=70)
    assert g.state.player("P3").cash == 625 - 70
    assert g.state.companies["M&O"].owner == "P3"
    assert current(g) == "P2"
    do(g, "P2", "bid", company="BS", price=40)
    assert current(g) == "P1"
    do(g, "P1", "bid", company="AGS", price=30)
    # the draft is over: unbought privates are removed, P1 (last to draft) has priority
    assert g.round.kind == "stock"
    assert current(g) == "P1"
    assert g.state.companies["M&M"].closed and g.state.companies["MC"].closed
    assert g.state.bank.cash == 10000 - 3 * 625 + 70 + 40 + 30


def test_draft_rejects_wrong_player() -> None:
    g = new_game(3)
    with pytest.raises(EngineError, match="P3's turn to draft") as err:
        do(g, "P1", "bid", company="AGS", price=30)
    assert err.value.rule == "turn.wrong_player"
    assert g.state.companies["AGS"].owner is None


def test_draft_rejects_other_than_face_value() -> None:
    g = new_game(3)
    with pytest.raises(EngineError, match=r"costs exactly its face value, \$70") as err:
        do(g, "P3", "bid", company="M&O", price=75)
    assert err.value.rule == "draft.price"


def test_draft_has_no_pass() -> None:
    g = new_game(4)
    with pytest.raises(EngineError, match="no passing") as err:
        do(g, "P4", "pass")
    assert err.value.rule == "draft.must_buy"
    assert g.log == []


def test_draft_company_taken_twice_rejected() -> None:
    g = new_game(3)
    do(g, "P3", "bid", company="MC", price=60)
    with pytest.raises(EngineError, match="MC is not available") as err:
        do(g, "P2", "bid", company="MC", price=60)
    assert err.value.rule == "draft.company"
    # the offered bids are the companies still free
    assert {c for c, _ in g.legal().bids} == {"AGS", "BS", "M&M", "M&O"}


def test_unknown_option_is_refused_by_name() -> None:
    from engine import Game

    with pytest.raises(EngineError, match="18MS has no option or_12; its options are: "
                                         "allow_buy_rusting, or_11") as err:
        Game("18MS", ["a", "b", "c"], ["or_12"])
    assert err.value.rule == "game.option"
    assert Game("18MS", ["a", "b", "c"], ["or_11"]).options == ("or_11",)
