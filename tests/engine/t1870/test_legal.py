"""1870's own moves in the legal answer: before every logged protection, redemption, connection
choice, connection dividend, cattle/port assignment and discard of the shared games, the legal
answer offers that move to the entity taking it; and what it offers is accepted."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine.errors import EngineError
from engine.game import Game
from engine.io.export18xx import import_game
from engine.legal import candidate_actions, legal_moves
from engine.titles.t1870.state import corp1870
from tests.engine.t1870._util import BANK, FIXTURES, replay

MOVES = ("buy_shares", "sell_shares", "pass", "choose", "assign", "discard_train", "dividend", "run_routes")


def _names() -> list[Any]:
    if not FIXTURES.is_dir():
        return ["absent"]
    # the bank-broken game (1,300 actions, late-game lay answers) runs with the slow tests
    return [pytest.param(n, marks=pytest.mark.slow) if n == "1870_game_end_bank.json" else n
            for n in sorted(p.name for p in FIXTURES.glob("*.json"))]


def _same(offer: dict[str, Any], act: Any) -> bool:
    if offer["type"] != act.type or offer["entity"] != str(act.entity):
        return False
    if act.type == "choose":
        return bool(offer["choice"] == act.choice)
    if act.type == "assign":
        return bool(offer["target"] == act.target)
    if act.type == "discard_train":
        return bool(offer["train"] == act.train)
    if act.type == "buy_shares":  # a protection or a redemption: same corporation
        return bool(offer["shares"][0].rsplit("_", 1)[0] == act.shares[0].rsplit("_", 1)[0])
    return True


@pytest.mark.parametrize("name", _names())
def test_logged_1870_moves_are_offered(name: str) -> None:
    if not FIXTURES.is_dir():
        pytest.skip("needs ../shared/fixtures")
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    seen: Counter[str] = Counter()

    def check(game: Game, act: Any) -> None:
        if game.finished or act.type not in MOVES:
            return
        rnd: Any = game.round
        lg = legal_moves(game)
        protecting = rnd.kind in ("stock", "operating") and rnd.in_protection()
        connection = rnd.kind == "operating" and bool(rnd.conn_runs)
        corporate = rnd.kind == "stock" and act.entity_type == "corporation"
        if protecting or connection or corporate or act.type in ("assign", "discard_train", "choose"):
            kind = "protection" if protecting else "connection" if connection else act.type
            if corporate:
                kind = "redeem" if act.type == "buy_shares" else "reissue"
            if act.type == "dividend":
                assert lg.dividends == ["payout", "withhold"]
                assert act.kind in lg.dividends
            elif act.type == "pass":
                assert "pass" in lg.kinds and str(act.entity) == lg.entity
            elif act.type == "run_routes":
                assert [o["type"] for o in lg.choices] == ["run_routes"], (name, act.id)
            else:
                assert any(_same(o, act) for o in lg.choices), (act, lg.choices)
                assert act.type in lg.kinds or corporate
            seen[kind] += 1

    import_game(data, before=check)
    assert seen, "no 1870-specific move in this game"


def _applies(game_at: Any, offers: list[dict[str, Any]]) -> None:
    for offer in offers:
        g = game_at()
        try:
            g.apply(offer)
        except EngineError as err:  # pragma: no cover - the assertion names the offer
            raise AssertionError(f"{offer} refused: {err}") from err


def test_offered_choices_apply() -> None:
    """Every offered redemption, assignment, discard and connection choice is accepted."""
    for upto in (183, 279, 601, 621):  # redeem, assign, discard, choose in the bank game
        offers = legal_moves(replay(BANK, upto)).choices
        assert offers, upto
        _applies(lambda u=upto: replay(BANK, u), offers[:6])


def test_reissue_offered_with_the_new_par() -> None:
    g = replay(BANK, 771)
    offers = [o for o in legal_moves(g).choices if o["type"] == "sell_shares"]
    assert offers == [{"entity": "MKT", "entity_type": "corporation", "type": "sell_shares",
                       "shares": ["MKT_3", "MKT_5", "MKT_6"], "percent": 30, "share_price": 110}]
    assert offers[0] in candidate_actions(g)
    g.apply(offers[0])
    assert g.state.corporations["MKT"].par == 110


def test_connection_route_offered_and_required() -> None:
    """FW's connection run in the bank game (Map at 622): the legal answer offers a route of the
    longest train from the destination to home; a run without such a route is refused."""
    g = replay(BANK, 622)
    assert legal_moves(g).kinds == ("run_routes",)
    offers = [o for o in legal_moves(g).choices if o["type"] == "run_routes"]
    assert len(offers) == 1
    route = offers[0]["routes"][0]
    fw = g.state.corporations["FW"]
    assert fw.home is not None
    assert route["hexes"][0] == corp1870(fw).destination_run_hex and route["hexes"][-1] == fw.home[0]
    err = rejected_run(g, {"entity": "FW", "entity_type": "corporation", "type": "run_routes", "routes": []})
    assert err == "connection.route"
    g.apply(offers[0])
    assert legal_moves(g).kinds == ("dividend",)


def rejected_run(g: Game, act: dict[str, Any]) -> str:
    try:
        g.apply(act)
    except EngineError as err:
        return str(err.rule)
    return ""
