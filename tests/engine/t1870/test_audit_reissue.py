"""Audit against the 18xx.games engine: the par after a reissue is the top-row price NEAREST to
75% of the current price (exact ties go up), not the largest one below it (site:
g_1870/step/buy_sell_par_shares.rb issue_par; reference rules.stock_round.reissue)."""

from __future__ import annotations

from engine.core import market as mk
from engine.core import shares
from engine.state import IPO
from tests.engine.t1870._util import BANK, replay


def _cell(g, price: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    grid = g.title.market.grid
    return next((r, c) for r, row in enumerate(grid) for c, p in enumerate(row) if p == price)


def test_reissue_par_is_the_nearest_top_row_price() -> None:
    g = replay(BANK, 771)
    mkt = g.state.corporations["MKT"]
    assert g.title.share_price(mkt) == 140 and mkt.par == 68
    g.apply({"type": "sell_shares", "entity": "MKT", "entity_type": "corporation",
             "shares": ["MKT_3", "MKT_5", "MKT_6"], "percent": 30})
    assert mkt.par == 110  # 75% of $140 = $105: nearer $110 than $100
    assert shares.percent(mkt, IPO) == 30


def test_reissue_par_table() -> None:
    g = replay(BANK, 771)
    mkt = g.state.corporations["MKT"]
    mkt.par = 68
    for price, par in ((100, 76), (140, 110), (180, 140), (200, 160), (120, 90), (325, 250), (350, 275),
                       (82, 68), (400, 300)):
        mk.move(g.state, mkt, _cell(g, price))
        assert g.round.reissue_par(mkt) == par, price
    mk.move(g.state, mkt, _cell(g, 100))
    mkt.par = 100
    assert g.round.reissue_par(mkt) == 100  # never below the old par


def test_reissue_par_capped_at_200_with_the_option() -> None:
    g = replay(BANK, 771)
    mkt = g.state.corporations["MKT"]
    mk.move(g.state, mkt, _cell(g, 350))
    g.title.options = (*g.title.options, "max_reissue_200")
    assert g.round.reissue_par(mkt) == 200
