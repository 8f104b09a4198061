"""A closing corporation's trains go to the open market in the order it acquired them, as on the
site (its trains are reclaimed one by one in the order they joined the company); the open market
then sells the first discarded train of each kind. Found by the lockstep sweep (1870 seed 20,
finish_on_400: after SLSF closed holding 4-1, 3-4 and 3-2, bought in that order, the site sold
3-4, ours 3-2)."""

from __future__ import annotations

from engine.titles.t1870.state import state1870
from tests.engine.t1870._util import BANKRUPT, fixture, replay


def test_closing_trains_reach_the_open_market_in_the_order_bought() -> None:
    g = replay(BANKRUPT, 629)  # ATSF bought 6-1 from another company (628), then 6-0 (629)
    atsf = g.state.corporations["ATSF"]
    held = [t.id for t in g.state.trains if t.owner == "ATSF"]
    bought = [a["train"] for a in fixture(BANKRUPT)["actions"]
              if 620 <= a["id"] <= 629 and a["type"] == "buy_train" and a["entity"] == "ATSF"]
    assert bought == ["6-1", "6-0"] and sorted(held) == ["6-0", "6-1"]
    g.title.close_corporation(g, atsf)
    assert state1870(g).open_market[-2:] == ["6-1", "6-0"]
    assert "6-1" in {t.id for t in g.title.market_trains(g)}
    assert "6-0" not in {t.id for t in g.title.market_trains(g)}
