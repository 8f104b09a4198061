"""Audit against the 18xx.games engine: in phases 2 and 3 a player may buy a private from another
player in the stock round (site: step/buy_sell_par_shares.rb `buy_company` while the phase has
'can_buy_companies_from_other_players'; g_1870 game.rb purchasable_companies lists nothing for a
player in phase 1). It is the turn's purchase (PURCHASE_ACTIONS): no share may be bought after it
(but brown market shares), a sale still may; it does not make him the last to act."""

from __future__ import annotations

from engine.legal import legal_moves
from tests.engine.t1870._util import BANK, rejected, replay


def _sr_phase2():  # type: ignore[no-untyped-def]
    g = replay(BANK, 281)  # stock round 3, phase 2: 9263 to act
    assert g.round.kind == "stock" and g.state.phase in ("2", "3")
    return g


def test_player_buys_a_private_from_another_player() -> None:
    g = _sr_phase2()
    pid = g.round.player_id()
    st = g.state
    owned = [c for c in st.companies.values() if c.owner not in (None, pid) and not c.closed
             and c.owner in {p.id for p in st.players}]
    assert owned, "some other player holds a private"
    company = owned[0]
    seller = str(company.owner)
    lg = legal_moves(g)
    assert "buy_company" in lg.kinds and company.id in [c for c, _, _ in lg.companies]
    cash, seller_cash = st.player(pid).cash, st.player(seller).cash
    g.apply({"type": "buy_company", "entity": pid, "entity_type": "player", "company": company.id, "price": 10})
    assert company.owner == pid
    assert st.player(pid).cash == cash - 10 and st.player(seller).cash == seller_cash + 10
    assert g.round.player_id() == pid  # his turn goes on: he may still sell, but not buy a share
    assert "buy_company" not in g.round.kinds()
    assert "sell_shares" in g.round.kinds() or g.round.kinds() == ["pass"]


def test_no_private_trade_in_phase_1() -> None:
    g = replay(BANK, 181)  # stock round 2, phase 1
    assert g.state.phase == "1"
    pid = g.round.player_id()
    assert "buy_company" not in g.round.kinds()
    other = next(c for c in g.state.companies.values() if c.owner not in (None, pid) and not c.closed
                 and c.owner in {p.id for p in g.state.players})
    err = rejected(g, {"type": "buy_company", "entity": pid, "entity_type": "player",
                       "company": other.id, "price": 10})
    assert err.rule == "stock.buy_company"
