"""The open market as on the site: of the trains discarded to it, one of each kind is for sale,
the one discarded first; a later discard of the same kind waits until that one is bought."""

from __future__ import annotations

from engine.game import Game
from engine.legal import legal_moves
from tests.engine.t18mex._helpers import G13315, act, at, rejected


def _two_threes_discarded() -> Game:
    g = at(G13315, 277)  # phase 5: FCP is at its train step
    # the engine's own discard (what an over-limit company does after the merger)
    g.title._discard(g, g.state.corporations["MC"], "3-2")   # discarded first...
    g.title._discard(g, g.state.corporations["CHI"], "3-0")  # ...then another 3 (a lower id)
    return g


def test_first_discarded_of_a_kind_is_the_one_for_sale() -> None:
    g = _two_threes_discarded()
    lg = legal_moves(g)
    assert lg.entity == "FCP"
    assert [t[0] for t in lg.trains if t[4] == "bank" and t[1] == "3"] == ["3-2"]
    act(g, "FCP", "buy_train", train="3-2", price=180, variant="3")
    assert next(t for t in g.state.trains if t.id == "3-2").owner == "FCP"
    # the next 3 in the open market is now for sale
    assert "3-0" in [t.id for t in g.title.depot_trains(g)]


def test_a_later_discard_of_the_same_kind_is_refused() -> None:
    g = _two_threes_discarded()
    rejected(g, "FCP", "buy_train", "train.market_order", "first 3 train discarded",
             train="3-0", price=180, variant="3")
