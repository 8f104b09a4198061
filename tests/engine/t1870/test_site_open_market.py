"""Audit against the site's depot: of the trains discarded to the open market, only the first
discarded of each kind is for sale (the site offers its discard pile one per train name, in the
order the trains were discarded); the next one of that kind is offered once it is bought."""

from __future__ import annotations

from typing import Any

from engine.legal import legal_moves
from tests.engine.t1870._util import BANK, rejected, replay


def _two_fours_discarded() -> Any:
    g = replay(BANK, 642)  # MKT is at its train step in phase 4, $456 in hand
    assert g.round.current() == ("MKT", "corporation")
    trains = {t.id: t for t in g.state.trains}
    for tid in ("4-3", "4-1"):  # discarded in this order (as a crowded company would)
        g.title.to_open_market(g, trains[tid])
    return g


def _market_offers(g: Any) -> list[str]:
    return [tid for tid, _v, _lo, _hi, seller in legal_moves(g).trains if seller == "market"]


def test_only_the_first_discarded_of_a_kind_is_offered() -> None:
    g = _two_fours_discarded()
    assert _market_offers(g) == ["3-1", "4-3"]
    err = rejected(g, {"type": "buy_train", "entity": "MKT", "entity_type": "corporation",
                       "train": "4-1", "price": 300, "variant": "4"})
    assert err.rule == "train.market_order"


def test_the_next_one_is_offered_after_the_first_is_bought() -> None:
    g = _two_fours_discarded()
    g.apply({"type": "buy_train", "entity": "MKT", "entity_type": "corporation",
             "train": "4-3", "price": 300, "variant": "4"})
    assert [t.id for t in g.title.market_trains(g)] == ["3-1", "4-1"]
