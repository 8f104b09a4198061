"""Audit against the site: a corporation that has no share price yet (never parred, e.g. the
MKT share a player got with the MKT private) has no sellable certificates; the site offers no
sale of it (its share bundles exist only once the corporation is parred)."""

from __future__ import annotations

from engine.legal import legal_moves
from tests.engine.t1870._util import SMALL, rejected, replay


def _holding_unparred():  # type: ignore[no-untyped-def]
    g = replay(SMALL, 72)  # second stock round; GMO has not been parred
    pid = g.round.current()[0]
    gmo = g.state.corporations["GMO"]
    assert gmo.cell is None
    gmo.certs[1].owner = pid  # a share in hand, as MKT_1 with the MKT private
    return g, pid


def test_unparred_share_not_offered_for_sale() -> None:
    g, _ = _holding_unparred()
    assert "GMO" not in dict(legal_moves(g).sell_shares)


def test_unparred_share_sale_refused() -> None:
    g, pid = _holding_unparred()
    err = rejected(g, {"type": "sell_shares", "entity": pid, "entity_type": "player",
                       "shares": ["GMO_1"], "percent": 10})
    assert "price" in str(err)
