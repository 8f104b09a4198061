"""Audit against the 18xx.games engine: the bank breaks on ANY payment it cannot cover (site:
bank.rb check_cash, called by every Bank#spend), share-sale proceeds included - e.g. a
president's emergency sale late in the last OR of a set ends the game after that OR."""

from __future__ import annotations

from engine.titles.t1870.state import state1870
from tests.engine.t1870._util import BANKRUPT, replay


def test_sale_proceeds_the_bank_cannot_cover_break_it() -> None:
    g = replay(BANKRUPT, 846)  # SP's president 14945 must raise money for a train
    g.state.bank.cash = 20
    assert not state1870(g).bank_broken
    g.apply({"type": "sell_shares", "entity": "14945", "entity_type": "player",
             "shares": ["MKT"], "percent": 10})  # $30 from a bank holding $20
    assert state1870(g).bank_broken


def test_sale_the_bank_can_cover_does_not_break_it() -> None:
    g = replay(BANKRUPT, 846)
    g.state.bank.cash = 30
    g.apply({"type": "sell_shares", "entity": "14945", "entity_type": "player",
             "shares": ["MKT"], "percent": 10})
    assert not state1870(g).bank_broken and g.state.bank.cash == 0
