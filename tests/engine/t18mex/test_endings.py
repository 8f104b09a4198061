"""Each way an 18MEX game ends: the bank broken, a bankruptcy, $200 on the market, by hand."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.game import Game
from tests.engine.t18mex._helpers import G13315, G17849, GHOT, GSTOCK, at


def _over(g: Game) -> None:
    with pytest.raises(EngineError, match="The game is over") as err:
        g.apply({"type": "pass", "entity": "NdM", "entity_type": "corporation"})
    assert err.value.rule == "game.over"


def test_bank_broken_ends_after_the_operating_round() -> None:
    g = at(G13315)
    assert g.finished and g.state.end_reason == "bank"
    assert g.state.bank.cash < 0  # the payment that broke it was made in full
    assert g.round.kind == "operating" and g.round.finished
    _over(g)


def test_bankruptcy_ends_the_game_at_once() -> None:
    before, g = at(G17849, 359), at(G17849)
    assert not before.finished
    assert g.finished and g.state.end_reason == "bankrupt"
    p = g.state.player("1230")
    assert p.bankrupt and p.cash == 0
    assert g.result()["1230"] == 485  # what he could not sell still counts
    _over(g)


def test_stock_market_at_200_ends_the_game() -> None:
    g = at(GSTOCK)
    assert g.finished and g.state.end_reason == "stock_market"
    t = g.title
    assert any(c.cell and "endgame" in t.market.types(c.cell) for c in g.state.corporations.values())
    assert g.round.kind == "operating"


def test_manual_end() -> None:
    g = at(GHOT)
    assert g.finished and g.state.end_reason == "manually_ended"
    _over(g)


def test_minors_and_privates_score_at_face_value() -> None:
    g = at(G13315, 40)
    pid = "109"  # holds minor A's certificate ($50) while it exists
    p = g.state.player(pid)
    shares_value = sum(
        -(-g.title.share_price(c) * x.percent // 10)
        for c in g.state.corporations.values() if c.cell for x in c.certs if x.owner == pid)
    companies = sum(c.value for c in g.state.companies.values() if c.owner == pid and not c.closed)
    assert companies >= 50
    assert g.title.player_value(g, p) == p.cash + shares_value + companies
