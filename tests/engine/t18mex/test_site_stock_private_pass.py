"""In a phase-2 stock turn with `early_buy_of_kcmo` the site lists the KCMO as a private players
may trade whoever holds it - its own holder included: a player left with nothing else to do
(no money for a share) is not skipped, his turn waits for a pass (he cannot buy his own private)."""

from __future__ import annotations

import json

from engine.io.export18xx import import_game
from engine.legal import candidate_actions, legal_moves
from tests.engine.t18mex._helpers import G13315, _data, act


def _first_stock_turn():  # type: ignore[no-untyped-def]
    data = json.loads(_data(G13315))
    data["settings"] = {**(data.get("settings") or {}), "optional_rules": ["early_buy_of_kcmo"]}
    g = import_game(data, upto=8)  # the first stock round: player 109 to act, 1048 holds the KCMO
    assert g.round.kind == "stock" and g.acting_players() == ("109",)
    assert "early_buy_of_kcmo" in g.title.options
    return g


def test_holder_of_the_kcmo_with_nothing_else_waits_for_a_pass() -> None:
    g = _first_stock_turn()
    st = g.state
    st.companies["KCMO"].owner = "109"
    st.bank.cash += st.player("109").cash - 1
    st.player("109").cash = 1  # no share or par affordable, nothing to sell
    lg = legal_moves(g)
    assert lg.entity == "109" and lg.kinds == ("buy_company", "pass")
    assert lg.companies == []  # not his own private
    assert [a["type"] for a in candidate_actions(g, legal=lg)] == ["pass"]
    act(g, "109", "pass", etype="player")
    assert g.acting_players() != ("109",)


def test_kcmo_of_another_player_is_on_offer() -> None:
    g = _first_stock_turn()
    lg = legal_moves(g)
    assert [c[0] for c in lg.companies] == ["KCMO"] and "buy_company" in lg.kinds
