"""Trust (issue 12): no forged values, every bad input refused with a reason (EngineError),
every action legal only when the legal answer offers it, and `apply` all-or-nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine import EngineError, Game
from engine.errors import EngineFault
from engine.io.export18xx import import_game, start_from_export
from engine.titles.t1870.state import corp1870
from tests.engine._helpers import load_fixture, new_game, standard_start


def snapshot(g: Game) -> tuple[str, list[dict[str, Any]]]:
    """The whole state (as text) and the log, to compare before and after a refusal."""
    return repr(g.state), g.export_actions()


def refused(g: Game, action: Any) -> EngineError:
    before = snapshot(g)
    with pytest.raises(EngineError) as info:
        g.apply(action)
    assert snapshot(g) == before, "a refused move changed the state or the log"
    assert str(info.value), "a refusal names its reason"
    return info.value


# ------------------------------------------------------------------ forged revenue
def _at_first_run() -> Game:
    """18MS 14375 just before IC's first run (action 91: a 2+ from B2 to B12 and A1), as a
    game of the bot (not an import: its moves are live)."""
    imported = import_game(load_fixture("18MS/14375.json"), upto=90)
    game = Game("18MS", imported.players)
    game.load_log(imported.export_actions())  # as the bot reloads a stored game
    return game


def _ic_route(revenue: int | None = None) -> dict[str, Any]:
    route: dict[str, Any] = {"train": "2+-0", "connections": [["B2", "B4", "B6", "B8", "B10", "B12"],
                                                              ["B2", "A1"]]}
    if revenue is not None:
        route["revenue"] = revenue
    return {"type": "run_routes", "entity": "IC", "entity_type": "corporation", "routes": [route]}


def test_a_claimed_revenue_is_checked_and_refused_with_both_numbers() -> None:
    g = _at_first_run()
    worth = copy.deepcopy(g)
    worth.apply(_ic_route())
    real = worth.round.turn.revenue  # type: ignore[attr-defined]
    assert real > 0
    err = refused(g, _ic_route(99999))
    assert f"${real}" in str(err) and "$99999" in str(err).replace(",", ""), str(err)
    assert err.rule == "route.revenue"
    g.apply(_ic_route(real))  # the right figure is accepted


def test_an_empty_route_cannot_claim_revenue() -> None:
    g = _at_first_run()
    refused(g, {"type": "run_routes", "entity": "IC", "entity_type": "corporation",
                "routes": [{"train": "2+-0", "connections": [], "revenue": 99999}]})


def test_extra_revenue_cannot_be_claimed_in_live_play() -> None:
    g = _at_first_run()
    act = _ic_route()
    act["extra_revenue"] = 500
    refused(g, act)


def test_logged_revenue_of_an_imported_game_is_kept_with_a_warning() -> None:
    data = load_fixture("18MS/14375.json")
    data = copy.deepcopy(data)
    for a in data["actions"]:
        if a["id"] == 91:
            for r in a["routes"]:
                r["revenue"] = 999
    g = import_game(data, upto=95)
    assert any("999" in w for w in g.warnings), g.warnings


# ------------------------------------------------------------------ malformed input
BAD = [
    {"type": "nonsense"},
    {"type": "bid"},
    {"type": "bid", "company": "M&O", "price": "lots"},
    {"type": "bid", "company": ["M&O"], "price": 70},
    {"type": "lay_tile", "hex": "Z99", "tile": "58-0", "rotation": 0},
    {"type": "lay_tile", "hex": "B2", "tile": "58-0", "rotation": 9},
    {"type": "lay_tile", "hex": "B2", "tile": "58-0", "rotation": "x"},
    {"type": "dividend", "kind": "foo"},
    {"type": "undo", "action_id": "abc"},
    {"type": "buy_shares", "shares": ["GMO_1"] * 5000},
    {"type": "run_routes", "routes": [{"train": "2+-0", "connections": [[[["B2"]]]]}]},
    {"type": "place_token", "city": "H6-abc"},
    {"type": "pass", "auto_actions": [{"type": "pass"}] * 3},
    None,
    [],
    "pass",
    {"type": "pass", "entity": {"nested": True}},
    {"type": "pass", "id": -5},
]


@pytest.mark.parametrize("bad", BAD, ids=lambda b: json.dumps(b)[:40])
def test_malformed_input_is_refused_with_a_reason(bad: Any) -> None:
    g = standard_start()
    if isinstance(bad, dict):
        bad = {"entity": g.current_entity()[0], "entity_type": "player", **bad}
    refused(g, bad)


def test_unknown_ids_are_refused_in_the_operating_round() -> None:
    g = _at_first_run()
    ic = {"entity": "IC", "entity_type": "corporation"}
    for act in (
        {"type": "lay_tile", "hex": "Z99", "tile": "58-0", "rotation": 0},
        {"type": "place_token", "city": "nowhere-0-0"},
        {"type": "buy_train", "train": "99-9", "price": 80},
        {"type": "run_routes", "routes": [{"train": "2+-0", "connections": [["Z1", "Z2"]]}]},
    ):
        refused(g, {**ic, **act})
    refused(g, {"type": "pass", "entity": "Nobody", "entity_type": "corporation"})
    refused(g, {"type": "pass", "entity": "IC", "entity_type": "player"})


def test_ids_follow_the_log() -> None:
    g = standard_start()
    last = g.log[-1].id
    pid = g.current_entity()[0]
    stored = g.apply({"type": "pass", "entity": pid, "entity_type": "player", "id": 1})
    assert stored.id == last + 1  # a live move's id is the log's next, whatever it claims
    data = load_fixture("18MS/14375.json")
    live, actions = start_from_export(data)
    live.apply(actions[0])
    refused(live, {**actions[1], "id": actions[0]["id"]})  # an import's ids must increase


# ------------------------------------------------------------------ all or nothing
def test_apply_is_all_or_nothing_after_an_unexpected_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    g = standard_start()
    before = snapshot(g)
    rnd_cls = type(g.round)

    def broken(self: Any, action: Any) -> None:
        self.game.state.players[0].cash += 1000  # a half-done move
        raise KeyError("boom")

    monkeypatch.setattr(rnd_cls, "process", broken)
    with pytest.raises(EngineFault):
        g.apply({"type": "pass", "entity": g.current_entity()[0], "entity_type": "player"})
    monkeypatch.undo()
    assert snapshot(g) == before
    assert not isinstance(EngineFault("x"), EngineError)  # a fault is not a ruling


# ------------------------------------------------------------------ only what the legal answer offers
def test_end_game_is_not_a_move_in_live_play() -> None:
    for title in ("18MS", "1870", "18MEX"):
        g = Game(title, ["a", "b", "c"])
        eid, etype = g.current_entity()
        err = refused(g, {"type": "end_game", "entity": eid, "entity_type": etype})
        assert err.rule == "game.end_game"


def test_end_game_by_agreement_ends_the_game() -> None:
    g = new_game()
    g.apply({"type": "end_game", "entity": "P1", "entity_type": "player"}, agreed=True)
    assert g.finished


def test_an_imported_end_game_is_accepted() -> None:
    data = load_fixture("1870/34110.json")
    assert data["actions"][-1]["type"] == "end_game"
    g = import_game(data)
    assert g.finished
    live, actions = start_from_export(data)  # the live path of an import (lockstep)
    for a in actions:
        live.apply(a)
    assert live.finished


def test_the_sites_checks_and_orders_out_of_place_are_not_moves_in_live_play() -> None:
    g = standard_start()
    # a buy order without its corporation, a cancel with nothing to cancel, the site's check
    for kind in ("program_buy_shares", "program_disable", "destination_connection"):
        refused(g, {"type": kind, "entity": "P2", "entity_type": "player"})
    # an order is a player's own (tests/engine/test_programs.py has the rules)
    refused(g, {"type": "program_share_pass", "entity": "GMO", "entity_type": "corporation"})


def test_auto_actions_are_not_accepted_in_live_play() -> None:
    g = standard_start()
    pid = g.current_entity()[0]
    refused(g, {"type": "pass", "entity": pid, "entity_type": "player",
                "auto_actions": [{"type": "destination_connection", "entity": "MP",
                                  "entity_type": "corporation", "corporations": ["MP"]}]})


def test_1870_connection_choice_only_when_a_connection_run_is_due() -> None:
    data = load_fixture("1870/34110.json")
    imported = import_game(data, upto=60)
    g = Game("1870", imported.players)
    g.load_log(imported.export_actions())
    assert g.round.kind == "operating" and "choose" not in g.legal().kinds, g.legal().kinds
    for corp in g.state.corporations.values():
        if corp.floated and corp1870(corp).destination:
            err = refused(g, {"type": "choose", "entity": corp.id, "entity_type": "corporation",
                              "choice": "Map"})
            assert "connection" in str(err).lower() or "turn" in str(err).lower(), str(err)
            break
    else:
        pytest.fail("no floated corporation with a destination at this position")


def test_1870_connection_choice_is_refused_wherever_none_is_due() -> None:
    """Without the fixtures: at positions of a random 1870 game where the legal answer offers
    no `choose`, choosing Map (a free destination token) is refused for every company and
    the state and the log stay as they were."""
    from tests.engine._legal_audit import random_positions

    tried = 0
    for _label, g in random_positions("1870", seed=1, moves=330, every=15, start=120):
        if g.finished or "choose" in g.legal().kinds:
            continue
        for corp in g.state.corporations.values():
            if corp.floated and not corp.closed:
                err = refused(g, {"type": "choose", "entity": corp.id, "entity_type": "corporation",
                                  "choice": "Map"})
                assert err.rule, str(err)
                tried += 1
    assert tried > 10


# ------------------------------------------------------------------ import validation
def _export(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"title": "18MS", "players": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"},
                                                          {"id": 3, "name": "c"}],
                            "actions": [], "settings": {"optional_rules": []}}
    base.update(over)
    return base


@pytest.mark.parametrize("data,needle", [
    ([], "export"),
    ({"players": "oops"}, "export"),
    (_export(title="18XX"), "title"),
    (_export(players=[]), "player"),
    (_export(players=[{"id": 1, "name": "a"}]), "player"),
    (_export(players=[{"id": 1, "name": "a"}, {"id": 1, "name": "b"}]), "player"),
    (_export(settings={"optional_rules": ["no_such_rule"]}), "option"),
    (_export(actions=[{"type": "pass", "id": 2}, {"type": "pass", "id": 1}]), "order"),
    (_export(actions=[{"type": "pass", "id": 1}, {"type": "pass", "id": 1}]), "order"),
    (_export(actions="x"), "actions"),
    (_export(actions=[{"type": "pass", "id": i} for i in range(1, 30_002)]), "actions"),
])
def test_import_checks_the_export(data: Any, needle: str) -> None:
    with pytest.raises(EngineError) as info:
        import_game(data)
    assert needle in str(info.value).lower(), str(info.value)


def test_a_claimed_share_price_or_percent_is_checked() -> None:
    from tests.engine._helpers import do, ipo_cert, par

    g = standard_start()
    par(g, "P1", "GMO", 80)
    cert = ipo_cert(g, "GMO")
    for claim, needle in (({"percent": 50}, "only 10%, not 50%"), ({"share_price": 1}, "$80")):
        with pytest.raises(EngineError, match=needle.replace("$", r"\$")):
            do(g, "P2", "buy_shares", shares=[cert], **claim)
    do(g, "P2", "buy_shares", shares=[cert], percent=10, share_price=80)  # the true figures


def test_a_stock_round_move_by_a_non_player_is_refused_in_18mex() -> None:
    """18MEX's stock round looked the entity up as a player (KeyError) before checking the turn."""
    from engine.randomplay import random_game

    g = random_game("18MEX", seed=2, players=4, max_actions=60)
    assert g.round.kind == "stock"
    for act in ({"entity": "MCAR", "entity_type": "company", "type": "pass"},
                {"entity": "MC", "entity_type": "corporation", "type": "pass"},
                {"entity_type": "player", "type": "pass"}):
        refused(g, act)


def test_a_swap_that_is_not_a_share_id_is_refused() -> None:
    """Found by the fuzz: a list as `swap` raised TypeError at the boundary."""
    g = standard_start()
    pid = g.current_entity()[0]
    refused(g, {"type": "sell_shares", "entity": pid, "entity_type": "player",
                "shares": ["GMO_1"], "percent": 10, "swap": [{"train": "2+-0"}]})


# ------------------------------------------------------------------ certificates named
def _before(action_id: int) -> Game:
    return import_game(load_fixture("18MS/14375.json"), upto=action_id - 1)


def test_a_buy_naming_a_certificate_another_player_holds_is_refused() -> None:
    """18MS 14375 before 162 (4861 buys Fr_7 from the offering): naming Fr_1, which 686 holds,
    is refused as on the site ("Cannot buy a share of Fr"), not taken as a share from the
    offering; the offering's Fr_8 and Fr_7 are accepted."""
    err = refused(_before(162), {"type": "buy_shares", "entity": "4861", "entity_type": "player",
                                 "shares": ["Fr_1"], "percent": 10})
    assert err.rule == "stock.cert" and "Fr_1" in str(err)
    for cid in ("Fr_7", "Fr_8"):
        g = _before(162)
        g.apply({"type": "buy_shares", "entity": "4861", "entity_type": "player", "shares": [cid],
                 "percent": 10})
        assert next(c for c in g.state.corporations["Fr"].certs if c.id == cid).owner == "4861"


def test_a_sale_naming_a_certificate_the_seller_does_not_hold_is_refused() -> None:
    """18MS 14375 before 170 (4861 sells Fr_7): naming Fr_1 (686's) is refused as on the site
    ("Cannot sell shares of Fr"), not taken as a sale of his own Fr_7."""
    err = refused(_before(170), {"type": "sell_shares", "entity": "4861", "entity_type": "player",
                                 "shares": ["Fr_1"], "percent": 10})
    assert err.rule == "stock.cert" and "Fr_1" in str(err)


def test_a_sale_naming_the_presidents_certificate_needs_a_player_to_take_it_over() -> None:
    """18MS 14375 before 154: 4861 holds 70% of IC, nobody else any. Selling 20% named as the
    president's certificate and a share (a partial sale: one share would come back) is refused
    as on the site ("Cannot sell shares of IC"): no other player holds 20% to take it over; his
    two ordinary shares are accepted."""
    err = refused(_before(154), {"type": "sell_shares", "entity": "4861", "entity_type": "player",
                                 "shares": ["IC_0", "IC_2"], "percent": 20})
    assert err.rule == "stock.sell" and "president's certificate" in str(err)
    _before(154).apply({"type": "sell_shares", "entity": "4861", "entity_type": "player",
                        "shares": ["IC_1", "IC_2"], "percent": 20})
