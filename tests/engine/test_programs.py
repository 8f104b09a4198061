"""Programmed moves (engine/programs.py): when a standing order acts, when it ends and with what
reason, who may give one, undo, export and import. The reasons and when they come were taken
from the site's own answers (../shared/referee run on the same positions); the positions from
the fixtures are continued live here, so the engine makes the moves itself."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import EngineError, Game
from engine.actions import dump_action
from engine.io.export18xx import export_game, import_game, start_from_export
from tests.engine._helpers import (
    buy,
    do,
    finish_stock_round,
    float_three,
    load_fixture,
    par,
    pass_,
    pct,
    standard_start,
)


def autos(stored: Any) -> list[dict[str, Any]]:
    """A stored action's automatic actions, without the title's own checks."""
    return [a for a in dump_action(stored).get("auto_actions", [])
            if a["type"] != "destination_connection"]


def order_pass(g: Game, pid: str, *, indefinite: bool = False, unconditional: bool = False) -> Any:
    return do(g, pid, "program_share_pass", indefinite=indefinite, unconditional=unconditional)


def order_buy(g: Game, pid: str, corp: str, until: str | int = "float", **kw: Any) -> Any:
    return do(g, pid, "program_buy_shares", corporation=corp, until_condition=until,
              from_market=kw.get("from_market", False), auto_pass_after=False)


def refused(g: Game, action: dict[str, Any]) -> EngineError:
    before = (repr(g.state), g.export_actions())
    with pytest.raises(EngineError) as info:
        g.apply(action)
    assert (repr(g.state), g.export_actions()) == before, "a refused order changed the game"
    return info.value


def continued(key: str, upto: int) -> Game:
    """A fixture's game up to action `upto`, as a game of ours that goes on live."""
    imported = import_game(load_fixture(key), upto=upto)
    g = Game(imported.title_name, imported.players, imported.options)
    g.load_log(imported.export_actions())
    return g


# ------------------------------------------------------------------ auto-pass
def test_an_auto_pass_acts_when_the_turn_comes_and_is_recorded_with_the_move_that_brought_it() -> None:
    g = standard_start()
    assert g.current_entity() == ("P1", "player")
    stored = order_pass(g, "P2")
    assert autos(stored) == []  # not P2's turn: nothing yet
    stored = pass_(g, "P1")
    assert autos(stored) == [{"entity": "P2", "entity_type": "player", "type": "pass"}]
    assert g.current_entity() == ("P3", "player")


def test_an_order_given_in_ones_own_turn_acts_at_once() -> None:
    g = standard_start()
    stored = order_pass(g, "P1")
    assert autos(stored) == [{"entity": "P1", "entity_type": "player", "type": "pass"}]
    assert g.current_entity() == ("P2", "player")


def test_a_par_cancels_an_auto_pass_at_the_players_turn_and_the_turn_stays_theirs() -> None:
    g = standard_start()
    order_pass(g, "P2")
    stored = par(g, "P1", "GMO", 80)
    assert autos(stored) == [{"entity": "P2", "entity_type": "player", "type": "program_disable",
                              "reason": "Corporation GMO parred"}]
    assert g.current_entity() == ("P2", "player")
    assert g.state.programs == {}


def test_an_unconditional_auto_pass_goes_on_after_a_change() -> None:
    g = standard_start()
    order_pass(g, "P2", unconditional=True)
    stored = par(g, "P1", "GMO", 80)
    assert autos(stored) == [{"entity": "P2", "entity_type": "player", "type": "pass"}]


def test_an_auto_pass_ends_with_the_stock_round_unless_it_is_for_every_round() -> None:
    g = standard_start()
    float_three(g)
    order_pass(g, "P2", indefinite=True)
    order_pass(g, "P3")
    finish_stock_round(g)
    assert g.round.kind == "operating"
    assert set(g.state.programs) == {"P2"}


# ------------------------------------------------------------------ auto-buy
def test_an_auto_buy_buys_at_each_turn_until_the_corporation_floats() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    order_buy(g, "P1", "GMO")
    bought: list[str] = []
    disabled: list[dict[str, Any]] = []
    floated_by: list[Any] = []  # the events of the move whose programmed buy floated GMO
    while "P1" in g.state.programs:
        stored = pass_(g)
        if g.state.corporations["GMO"].floated and not floated_by:
            floated_by = list(g.last_events)
        for a in autos(stored):
            if a["type"] == "buy_shares":
                assert a["entity"] == "P1"
                bought.extend(a["shares"])
            elif a["type"] == "program_disable":
                disabled.append(a)
    corp = g.state.corporations["GMO"]
    assert corp.floated and pct(g, "GMO", "P1") == 20 + 10 * len(bought)
    assert any(e.kind == "float" and e.subject == "GMO" for e in floated_by)
    assert disabled == [{"entity": "P1", "entity_type": "player", "type": "program_disable",
                         "reason": "GMO is floated"}]
    assert g.current_entity() == ("P1", "player")  # the order ended; P1 plays on


def test_an_auto_buy_until_a_number_of_shares_ends_when_the_player_holds_them() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    order_buy(g, "P1", "GMO", 4)
    reasons = []
    while "P1" in g.state.programs:
        reasons += [a["reason"] for a in autos(pass_(g)) if a["type"] == "program_disable"]
    assert pct(g, "GMO", "P1") == 40
    assert reasons == ["4 share(s) bought in GMO, end condition met"]


def test_an_auto_buy_from_an_empty_open_market_ends_saying_so() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    order_buy(g, "P1", "GMO", 4, from_market=True)
    pass_(g)
    stored = pass_(g)
    assert autos(stored) == [{"entity": "P1", "entity_type": "player", "type": "program_disable",
                              "reason": "Cannot buy GMO from market"}]


def test_a_first_stock_round_par_does_not_cancel_an_auto_buy() -> None:
    g = standard_start()
    assert g.current_entity()[0] == "P1"
    par(g, "P1", "GMO", 80)
    par(g, "P2", "IC", 90)
    order_buy(g, "P1", "GMO")
    stored = par(g, "P3", "Fr", 90)
    assert autos(stored) == [{"entity": "P1", "entity_type": "player", "type": "buy_shares",
                              "shares": ["GMO_1"], "percent": 10}]


# ------------------------------------------------------------------ who may, what may
def test_who_may_give_an_order_and_which_orders_are_refused() -> None:
    g = standard_start()
    assert refused(g, {"type": "program_share_pass", "entity": "GMO",
                       "entity_type": "corporation"}).rule in ("program.player", "action.unknown_id")
    assert refused(g, {"type": "program_disable", "entity": "P2",
                       "entity_type": "player"}).rule == "program.none"
    assert refused(g, {"type": "program_buy_shares", "entity": "P2", "entity_type": "player",
                       "corporation": "GMO", "until_condition": "float"}).rule == "program.corporation"
    par(g, "P1", "GMO", 80)
    for until in (0, 11, "soon"):
        err = refused(g, {"type": "program_buy_shares", "entity": "P2", "entity_type": "player",
                          "corporation": "GMO", "until_condition": until})
        assert err.rule == "program.until" and "float" in str(err)
    assert refused(g, {"type": "program_buy_shares", "entity": "P1", "entity_type": "player",
                       "corporation": "GMO", "until_condition": 2}).rule == "program.until"
    assert refused(g, {"type": "destination_connection", "entity": "GMO",
                       "entity_type": "corporation"}).rule == "action.program"


def test_a_player_cancels_their_order() -> None:
    g = standard_start()
    order_pass(g, "P2")
    stored = do(g, "P2", "program_disable", reason="user")
    assert autos(stored) == [] and g.state.programs == {}
    pass_(g, "P1")
    assert g.current_entity() == ("P2", "player")


def test_the_legal_answer_offers_the_orders_each_player_may_give() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    offers = g.legal().programs
    kinds = {(a["entity"], a["type"], a.get("corporation")) for a in offers}
    for pid in ("P1", "P2", "P3"):
        assert (pid, "program_share_pass", None) in kinds
        assert (pid, "program_buy_shares", "GMO") in kinds
        assert (pid, "program_disable", None) not in kinds
    assert not any(a.get("corporation") == "IC" for a in offers)  # not started
    order_pass(g, "P3")
    assert ("P3", "program_disable", None) in {
        (a["entity"], a["type"], a.get("corporation")) for a in g.legal().programs}
    for offer in g.legal().programs:  # each offer is accepted
        h = Game(g.title_name, g.players, g.options)
        h.load_log(g.export_actions())
        h.apply(offer)


# ------------------------------------------------------------------ undo, replay, export
def test_undo_of_the_move_undoes_the_programmed_moves_it_brought() -> None:
    g = standard_start()
    order_pass(g, "P2")
    pass_(g, "P1")
    assert g.current_entity() == ("P3", "player")
    do(g, "P3", "undo")
    assert g.current_entity() == ("P1", "player")
    assert g.state.programs["P2"]["type"] == "program_share_pass"  # the order still stands
    do(g, "P1", "redo")
    assert g.current_entity() == ("P3", "player")


def test_a_live_move_may_repeat_the_engine_s_programmed_moves_but_not_others() -> None:
    g = standard_start()
    order_pass(g, "P2")
    h = Game(g.title_name, g.players, g.options)
    h.load_log(g.export_actions())
    wrong = {"type": "pass", "entity": "P1", "entity_type": "player",
             "auto_actions": [{"type": "pass", "entity": "P3", "entity_type": "player"}]}
    assert refused(h, wrong).rule == "action.auto_actions"
    right = {**wrong, "auto_actions": [{"type": "pass", "entity": "P2", "entity_type": "player"}]}
    h.apply(right)
    assert h.current_entity() == ("P3", "player")


def _game_with_orders() -> Game:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    order_buy(g, "P1", "GMO")
    order_pass(g, "P3")
    par(g, "P2", "IC", 90)
    while "P1" in g.state.programs:
        pass_(g)
    buy(g, "P1", "GMO")
    return g


def test_export_and_import_keep_the_orders_and_programmed_moves() -> None:
    g = _game_with_orders()
    kinds = [a["type"] for a in g.export_actions()]
    assert "program_buy_shares" in kinds and "program_share_pass" in kinds
    assert any(autos(a) for a in g.log)
    data = json.loads(json.dumps(export_game(g)))
    back = import_game(data)
    assert back.export_actions() == g.export_actions()
    assert repr(back.state) == repr(g.state)
    assert json.loads(json.dumps(export_game(back))) == data
    # the live path of an import (lockstep) applies the logged programmed moves as logged
    live, actions = start_from_export(data)
    for a in actions:
        live.apply(a)
    assert repr(live.state) == repr(g.state)
    # a stored game of ours, loaded again, is the same game
    again = Game(g.title_name, g.players, g.options)
    again.load_log(g.export_actions())
    assert repr(again.state) == repr(g.state)


# ------------------------------------------------------------------ positions of real games
def test_18mex_a_par_cancels_an_auto_buy_after_the_first_stock_round() -> None:
    g = continued("18MEX/18MEX_game_end_stock_market.json", 324)  # stock round 6
    order_buy(g, "17016", "UdY", 5)
    pass_(g, "8832")
    par_cell = "80,0,4"
    do(g, "17020", "par", corporation="FCP", share_price=par_cell)
    stored = pass_(g, "17020")
    assert autos(stored) == [{"entity": "17016", "entity_type": "player",
                              "type": "program_disable", "reason": "Corporation FCP parred"}]


def test_18mex_a_sale_before_the_order_does_not_cancel_it() -> None:
    g = continued("18MEX/18MEX_game_end_stock_market.json", 324)
    pass_(g, "8832")
    do(g, "17020", "sell_shares", shares=["CHI_2"], percent=10)
    order_pass(g, "8832")
    pass_(g, "17020")
    stored = pass_(g, "17016")
    assert autos(stored) == [{"entity": "8832", "entity_type": "player", "type": "pass"}]


def test_18mex_a_sale_after_the_order_cancels_it() -> None:
    g = continued("18MEX/18MEX_game_end_stock_market.json", 324)
    pass_(g, "8832")
    order_pass(g, "8832")
    do(g, "17020", "sell_shares", shares=["CHI_2"], percent=10)
    pass_(g, "17020")
    stored = pass_(g, "17016")
    assert autos(stored) == [{"entity": "8832", "entity_type": "player",
                              "type": "program_disable", "reason": "Shares were sold"}]


def test_1870_a_buy_into_a_corporation_whose_president_holds_less_than_half() -> None:
    data = load_fixture("1870/1870_game_end_bank.json")
    g = continued("1870/1870_game_end_bank.json", 231)  # 4395 has just ordered an auto-pass
    assert g.state.programs["4395"]["type"] == "program_share_pass"
    moves = {a["id"]: a for a in data["actions"]}
    for i in (232, 233):
        a = {k: v for k, v in moves[i].items() if k not in ("auto_actions", "id", "created_at")}
        g.apply({**a, "entity": str(a["entity"])})
    stored = pass_(g, "7438")
    buyer = g.player_name("18843")
    assert autos(stored) == [{"entity": "4395", "entity_type": "player", "type": "program_disable",
                              "reason": f"{buyer} bought on corporation SLSF and is unsecure"}]


def test_1870_an_auto_buy_facing_a_price_protection_answer_ends() -> None:
    data = load_fixture("1870/1870_game_end_bankrupt.json")
    g = continued("1870/1870_game_end_bankrupt.json", 493)
    act = next(a for a in data["actions"] if a["id"] == 494)
    stored = g.apply({k: (str(v) if k == "entity" else v) for k, v in act.items()
                      if k not in ("auto_actions", "id", "created_at")})
    site = [{k: (str(v) if k == "entity" else v) for k, v in a.items() if k != "created_at"}
            for a in act["auto_actions"] if a["type"] != "destination_connection"]
    assert autos(stored) == site
    assert site[-1]["reason"] == "Cannot buy SP from IPO"


def test_an_auto_buy_with_auto_pass_after_gives_way_to_an_auto_pass() -> None:
    g = standard_start()
    par(g, "P1", "GMO", 80)
    do(g, "P1", "program_buy_shares", corporation="GMO", until_condition=3, from_market=False,
       auto_pass_after=True)
    made: list[dict[str, Any]] = []
    while not any(a["type"] == "program_share_pass" for a in made):
        made += autos(pass_(g))
    i = next(i for i, a in enumerate(made) if a["type"] == "program_disable")
    assert made[i:i + 3] == [
        {"entity": "P1", "entity_type": "player", "type": "program_disable",
         "reason": "3 share(s) bought in GMO, end condition met"},
        {"entity": "P1", "entity_type": "player", "type": "program_share_pass",
         "unconditional": False, "indefinite": False},
        {"entity": "P1", "entity_type": "player", "type": "pass"}]
