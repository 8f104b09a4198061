"""1870 `finish_on_400`: the game ends at once when a corporation's price reaches the $400 cell
(top right), by a pay-out or by a sold-out move; without the option play goes on."""

from __future__ import annotations

import json
from typing import Any

from engine.core import market as mk
from engine.game import Game
from engine.io.export18xx import import_game
from engine.legal import legal_moves
from engine.titles.t1870 import market as zones
from tests.engine.t1870._util import BANK, fixture, logged

TOP_RIGHT = (0, 20)  # $400


def _game(options: list[str], upto: int) -> Game:
    data: dict[str, Any] = json.loads(json.dumps(fixture(BANK)))
    data.setdefault("settings", {})["optional_rules"] = options
    return import_game(data, upto=upto)


def test_payout_into_400_ends_the_game() -> None:
    g = _game(["finish_on_400"], 782)  # SLSF is about to pay out (action 783)
    assert g.title.market.price(TOP_RIGHT) == 400
    slsf = g.state.corporations["SLSF"]
    mk.move(g.state, slsf, (0, 19))  # $375
    g.apply(logged(BANK, 783))
    assert slsf.cell == TOP_RIGHT
    assert g.finished and g.state.end_reason == "stock_market"
    assert legal_moves(g).kinds == ()
    result = g.result()
    assert set(result) == {p.id for p in g.state.players}


def test_without_the_option_play_goes_on() -> None:
    g = _game([], 782)
    slsf = g.state.corporations["SLSF"]
    mk.move(g.state, slsf, (0, 19))
    g.apply(logged(BANK, 783))
    assert slsf.cell == TOP_RIGHT and not g.finished and legal_moves(g).kinds


def test_sold_out_move_into_400_ends_the_game() -> None:
    g = _game(["finish_on_400"], 782)
    slsf = g.state.corporations["SLSF"]
    mk.move(g.state, slsf, (1, 20))  # $375 one row down
    zones.sold_out_move(g, slsf)
    assert slsf.cell == TOP_RIGHT and g.state.finished and g.state.end_reason == "stock_market"


def test_dead_end_ends_the_game_instead_of_looping() -> None:
    """Engine safeguard: when every corporation has closed and no private pays, nobody can ever
    act again; the game ends (reason no_moves) rather than cycling empty rounds."""
    from engine.titles.t1870.rounds import StockRound1870

    g = Game("1870", [("a", "A"), ("b", "B"), ("c", "C")])
    st, t = g.state, g.title
    for c in st.companies.values():
        c.closed = True
    for corp in st.corporations.values():
        corp.closed = True
    rnd = StockRound1870(g)
    assert rnd.finished and t.dead_end(g, rnd)
    assert t.next_round(g, rnd) is None and st.finished and st.end_reason == "no_moves"
    live = Game("1870", [("a", "A"), ("b", "B"), ("c", "C")])
    assert not live.title.dead_end(live, StockRound1870(live))
