"""/redeem and /protect without certificates named take what the engine's legal answer offers
(the engine refuses any other certificate, as the site does)."""

from __future__ import annotations

from bot import moves
from engine.io.export18xx import import_game
from engine.legal import legal_moves
from tests.engine._helpers import load_fixture


def test_redeem_without_a_share_takes_the_first_offered() -> None:
    """1870 bank game before 184 (MKT redeems; none of its shares in the market, so each
    holder's first ordinary share is offered): /redeem MKT names the first offered, which the
    engine accepts (without it the move named none and was refused)."""
    g = import_game(load_fixture("1870/1870_game_end_bank.json"), upto=183)
    lg = legal_moves(g)
    offered = [c["shares"][0] for c in lg.choices
               if c.get("entity") == "MKT" and c.get("type") == "buy_shares"]
    assert len(offered) > 1
    action = moves.redeem(lg, "MKT")
    assert action["shares"] == offered[:1]
    g.apply(action)
    assert next(c for c in g.state.corporations["MKT"].certs if c.id == offered[0]).owner == "MKT"
