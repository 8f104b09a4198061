"""A corporation that closes during its own turn (its price moved into the $0 cells) gets no
connection check for the end of that turn: as on the site, the turn is cut short and the next
check is the one for the next turn (the next operator's, or the next round's first). Found by
the lockstep sweep (1870 seeds 1, 16, 21: the site refused the stored check for the closed
company)."""

from __future__ import annotations

from engine.core import market as mk
from engine.titles.t1870 import market as zones
from tests.engine.t1870._util import BANK, logged, replay


def _checks(stored: object) -> list[str]:
    return [str(a.get("entity")) for a in getattr(stored, "auto_actions", [])
            if a.get("type") == "destination_connection"]


def test_no_check_for_a_company_that_closes_in_its_turn() -> None:
    g = replay(BANK, 626)  # TP has run (action 626) and is to choose its dividend
    tp = g.state.corporations["TP"]
    # put TP in the $10 cell: withholding moves it left into the $0 cells, and it closes
    cell = tp.cell
    assert cell is not None
    while zones.left(g, cell) != cell and g.title.market.price(zones.left(g, cell)) > 0:
        cell = zones.left(g, cell)
    mk.move(g.state, tp, cell)
    assert g.title.market.price(tp.cell) == 10
    stored = g.apply(logged(BANK, 627))  # TP withholds
    assert tp.closed
    assert "TP" not in _checks(stored)
    assert _checks(stored)  # the next turn's check is still made


def test_a_turn_that_ends_normally_is_checked() -> None:
    g = replay(BANK, 627)
    stored = g.apply(logged(BANK, 628))  # TP passes (buys no train): its turn ends
    assert _checks(stored)[0] == "TP"
