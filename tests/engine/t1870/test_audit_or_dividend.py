"""Audit of 1870's operating round against the site: dividends and price moves.

The site moves the price right when what the shareholders receive is the whole revenue, so a
half dividend of $10 (the company keeps floor(10 / 20) x 10 = $0) moves right like a payout;
a larger half dividend does not move; withholding moves left."""

from __future__ import annotations

from engine.core import shares
from engine.state import IPO
from tests.engine.t1870._util import SMALL, replay


def _at_dividend(revenue: int):  # type: ignore[no-untyped-def]
    g = replay(SMALL, 86)  # SLSF has run (action 86) and is to choose its dividend (87)
    assert g.round.current() == ("SLSF", "corporation") and "dividend" in g.round.kinds()
    g.round.turn.revenue = revenue
    return g


def test_half_dividend_that_keeps_nothing_moves_right() -> None:
    g = _at_dividend(10)
    slsf = g.state.corporations["SLSF"]
    cell, cash = slsf.cell, slsf.cash
    g.apply({"type": "dividend", "entity": "SLSF", "entity_type": "corporation", "kind": "half"})
    treasury = shares.percent(slsf, IPO) + shares.percent(slsf, "SLSF")
    assert slsf.cash == cash + treasury // 10  # only its treasury shares' $1 each: nothing kept
    assert slsf.cell != cell and slsf.cell[1] == cell[1] + 1  # type: ignore[index]


def test_half_dividend_keeping_money_does_not_move() -> None:
    g = _at_dividend(60)
    slsf = g.state.corporations["SLSF"]
    cell = slsf.cell
    g.apply({"type": "dividend", "entity": "SLSF", "entity_type": "corporation", "kind": "half"})
    assert slsf.cell == cell
