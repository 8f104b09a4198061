"""The first 6' makes the 4-trains obsolete: the companies' run on, but one in the open market
(discarded there by a company over its limit) leaves the game, as the site's depot rusts it.
Found by the lockstep sweep (18MEX seed 758, from the stock-market game at action 438): the
NdM's discarded 4 stayed for sale here after the 6' and MEX bought it; the site refused that
("Not a buyable train").

The position is made on a shared game (MEX buys the first 6' at action 514): FCP's 4 is put in
the open market by hand."""

from __future__ import annotations

from engine.legal import legal_moves
from engine.titles.t18mex.state import mex_state
from tests.engine.t18mex._helpers import GSTOCK, act, at


def test_the_open_markets_4_leaves_the_game_the_companies_4s_turn_obsolete() -> None:
    g = at(GSTOCK, 513)
    trains = {t.id: t for t in g.state.trains}
    assert [trains[i].owner for i in ("4-0", "4-1", "4-2")] == ["UdY", "MEX", "FCP"]
    trains["4-2"].owner, trains["4-2"].discarded = None, True  # discarded to the open market
    act(g, "MEX", "buy_train", train="6'-0", price=600, variant="6'")
    assert trains["4-2"].gone and not trains["4-2"].discarded
    obsolete = mex_state(g).obsolete
    assert {"4-0", "4-1", "4-2"} <= set(obsolete)
    assert not trains["4-0"].gone and not trains["4-1"].gone
    assert all(t[0] != "4-2" for t in legal_moves(g).trains)
