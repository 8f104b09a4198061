"""Audit against the site: the bank breaks the moment it cannot pay (Bank#check_cash sets a
flag that never clears), so a bank that dips below zero in a stock round ends the game after
the next operating round even if pool purchases refill it before the round ends."""

from __future__ import annotations

from engine.titles.t18mex.state import mex_state
from tests.engine.t18mex._helpers import G13315, act, at


def test_bank_broken_in_a_stock_round_stays_broken() -> None:
    g = at(G13315, 170)  # a stock round; 3542 is to act and may sell CHI
    g.state.bank.cash = 10
    act(g, "3542", "sell_shares", "player", shares=["CHI_5"], percent=10)
    assert g.state.bank.cash < 0
    act(g, "3542", "pass", "player")
    act(g, "109", "buy_shares", "player", shares=["CHI_5"], percent=10)
    assert g.state.bank.cash >= 0  # refilled by the pool purchase
    while g.round.kind == "stock":
        act(g, str(g.legal().entity), "pass", "player")
    assert mex_state(g).end_trigger == "bank"
