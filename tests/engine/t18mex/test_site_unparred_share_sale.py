"""The Mexican International's free 10% CHI share is worth nothing until someone pars the CHI:
it cannot be sold before (there is no price to sell at). The site lets the sale be tried and
then fails on the missing share price; ours refuses it and the legal answer does not offer it."""

from __future__ import annotations

from engine import Game
from engine.legal import candidate_actions, legal_moves
from tests.engine.t18mex._helpers import rejected


def _second_stock_round() -> Game:
    """A scripted start: the auction sells each private at face in seat order (player 3 takes
    the Mexican International and its CHI share, player 1 the NdM's president's certificate),
    the first stock round and the minors' operating round pass; player 2 passes first in the
    second stock round, so player 3 is to act, still holding the CHI share unparred."""
    g = Game("18MEX", [("1", "A"), ("2", "B"), ("3", "C")], [])
    while g.round.kind == "auction":
        lg = legal_moves(g)
        if "bid" in lg.kinds:
            co, price = lg.bids[0]
            g.apply({"entity": lg.entity, "entity_type": "player", "type": "bid", "company": co,
                     "price": price})
        else:  # the NdM's par for the buyer of the Mexican National
            g.apply(candidate_actions(g)[0])
    while g.round.name() != "Stock Round 2":
        cands = candidate_actions(g)
        passes = [a for a in cands if a["type"] == "pass"]
        g.apply(passes[0] if passes else next(a for a in cands if a["type"] not in ("buy_shares", "par")))
    g.apply({"entity": "2", "entity_type": "player", "type": "pass"})
    chi = g.state.corporations["CHI"]
    assert chi.cell is None and [c.owner for c in chi.certs if c.id == "CHI_1"] == ["3"]
    return g


def test_unparred_share_is_not_offered_for_sale() -> None:
    g = _second_stock_round()
    lg = legal_moves(g)
    assert lg.entity == "3"
    assert "CHI" not in dict(lg.sell_shares)


def test_unparred_share_sale_is_refused() -> None:
    g = _second_stock_round()
    rejected(g, "3", "sell_shares", "stock.sell", "until someone pars", etype="player",
             shares=["CHI_1"], percent=10)
