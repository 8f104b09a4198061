"""A corporation whose price reaches the black $0 cells closes: its certificates are worthless
(rules summary, "Closed"). Found by random play from a fresh game (tests/engine/t1870/_random.py,
seed 207, 6 players, diesels): once every corporation had closed, players went on selling the
closed corporations' certificates to the open market for their par value, stock round after stock
round, so the game never reached its end (`no_moves`)."""

from __future__ import annotations

from engine.game import Game
from engine.legal import legal_moves
from engine.titles.t1870 import protection
from engine.titles.t1870.state import Sale
from tests.engine.t1870._util import BANK, rejected, replay


def _closed_mkt() -> Game:
    g = replay(BANK, 281)  # stock round 3: 9263 to act, may sell MP and MKT
    assert ("MKT", [10, 20]) in legal_moves(g).sell_shares
    g.title.close_corporation(g, g.state.corporations["MKT"])  # what a move into the $0 cells does
    return g


def test_a_closed_corporations_certificates_cannot_be_sold() -> None:
    g = _closed_mkt()
    assert "MKT" not in dict(legal_moves(g).sell_shares)
    assert "MP" in dict(legal_moves(g).sell_shares)
    err = rejected(g, {"type": "sell_shares", "entity": "9263", "entity_type": "player",
                       "shares": ["MKT"], "percent": 10})
    assert err.rule == "stock.sell" and ("closed" in str(err) or "hold no MKT" in str(err))


def test_no_price_protection_for_a_closed_corporation() -> None:
    g = _closed_mkt()
    sale = Sale(corp="MKT", pct=10, president="9263", seller="18843")
    err = protection.protect_error(g, sale, set())
    assert err is not None and "closed" in err


def test_a_closed_corporations_certificates_leave_the_players() -> None:
    """As on the site, a closing corporation's certificates are taken from every holder: no
    player or the market holds any of them afterwards."""
    g = replay(BANK, 281)
    mkt = g.state.corporations["MKT"]
    assert any(c.owner not in ("ipo", "MKT") for c in mkt.certs)
    g.title.close_corporation(g, mkt)
    holders = {p.id for p in g.state.players} | {"market"}
    assert not [c.id for c in mkt.certs if c.owner in holders]
