"""Audit against the site's rust_trains!: it goes over every train of the game, so a train
discarded to the open market rusts (the 3s on the first 6) or goes obsolete (the 4s on the
first 6') like the trains the companies own; an obsolete one in the open market also leaves it
(the site's depot marks it rusted: tests/engine/t18mex/test_site_obsolete_open_market.py)."""

from __future__ import annotations

from engine.game import Game
from engine.titles.t18mex.state import mex_state
from tests.engine.t18mex._helpers import G13315, act, at


def _to_pool(g: Game, train_id: str) -> None:
    t = next(t for t in g.state.trains if t.id == train_id)
    t.owner, t.discarded = None, True


def test_pool_three_rusts_on_the_first_6() -> None:
    g = at(G13315, 286)  # NdM buys the first 6 next
    _to_pool(g, "3-2")
    assert any(t.id == "3-2" for t in g.title.depot_trains(g))
    act(g, "NdM", "buy_train", train="6-0", price=600, variant="6")
    pooled = next(t for t in g.state.trains if t.id == "3-2")
    assert pooled.gone
    assert all(t.id != "3-2" for t in g.title.depot_trains(g))


def test_pool_four_goes_obsolete_on_the_first_6_prime() -> None:
    g = at(G13315, 290)  # CHI buys the first 6' next
    _to_pool(g, "4-1")
    g.state.corporations["CHI"].cash += 600  # not a forced purchase: the pool's 4 is no matter
    act(g, "CHI", "buy_train", train="6'-0", price=600, variant="6'")
    assert "4-1" in mex_state(g).obsolete
    # and it leaves the open market, as the site's depot rusts it (lockstep sweep, seed 758)
    assert next(t for t in g.state.trains if t.id == "4-1").gone


def test_pool_four_rusts_on_the_first_6_prime_with_hard_rust() -> None:
    g = at(G13315, 290)
    g.title.options = (*g.title.options, "hard_rust_t4")
    _to_pool(g, "4-1")
    g.state.corporations["CHI"].cash += 600  # not a forced purchase: the pool's 4 is no matter
    act(g, "CHI", "buy_train", train="6'-0", price=600, variant="6'")
    assert next(t for t in g.state.trains if t.id == "4-1").gone
