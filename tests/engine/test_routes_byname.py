"""Routes typed as stops per train (engine/routes/byname.py), on positions of the recorded 18MS
game 14375: the matched routes are the ones the players ran there, worth what the site's log
says they earned."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.errors import EngineError
from engine.routes.byname import routes_by_name

GAME = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "18MS" / "14375.json"
pytestmark = pytest.mark.skipif(not GAME.is_file(), reason=f"{GAME} is absent (../shared)")


def _before(action_id: int) -> tuple[Any, dict[str, Any]]:
    from engine.io.export18xx import import_game

    data = json.loads(GAME.read_text())
    game = import_game(dict(data, actions=[a for a in data["actions"] if a["id"] < action_id]))
    return game, next(a for a in data["actions"] if a["id"] == action_id)


def _chains(routes: list[dict[str, Any]]) -> list[set[tuple[str, ...]]]:
    """Each route's track as a set of chains, either direction."""
    return [{min(tuple(c), tuple(reversed(c))) for c in r["connections"]} for r in routes]


def test_one_train_by_place_names_any_case_either_direction() -> None:
    # 91: "IC runs a 2+ train for $90: B12-B2-A1" (Chattanooga, Grenada, Memphis)
    game, logged = _before(91)
    for text in ("Chattanooga-Grenada-Memphis", "memphis-grenada-chattanooga", "A1-b2-B12"):
        routes = routes_by_name(game, text)
        assert [r["train"] for r in routes] == ["2+-0"]
        assert _chains(routes) == _chains(logged["routes"])
    game.apply({"type": "run_routes", "entity": "IC", "entity_type": "corporation",
                "routes": routes_by_name(game, "Chattanooga-Grenada-Memphis")})
    assert game.round.turn.revenue == 90
    assert [e.get("total") for e in game.last_events if e.kind == "run"] == [90]


def test_three_trains_in_order_and_by_train_name() -> None:
    # 122: "Fr runs a 2+ train for $40: G3-E1", "a 2+ train for $70: I1-G3 + New Orleans",
    # "a 3+ train for $70: I1-I1"; 123: "Fr pays out $180"
    game, logged = _before(122)
    text = "Hattiesburg-Jackson; New Orleans-Hattiesburg; New Orleans-New Orleans"
    routes = routes_by_name(game, text)
    assert [r["train"] for r in routes] == ["2+-1", "2+-2", "3+-0"]
    assert _chains(routes) == _chains(logged["routes"])
    named = routes_by_name(game, "3+: I1-I1; 2+: G3-E1; 2+: I1-G3")
    assert sorted(r["train"] for r in named) == ["2+-1", "2+-2", "3+-0"]
    game.apply({"type": "run_routes", "entity": "Fr", "entity_type": "corporation",
                "routes": routes})
    assert game.round.turn.revenue == 180


def test_a_route_no_train_can_run_is_refused_with_the_reason() -> None:
    game, _ = _before(91)
    with pytest.raises(EngineError, match="No legal route of 2\\+-0 stops at Memphis, Mobile"):
        routes_by_name(game, "Memphis-Mobile")
    with pytest.raises(EngineError, match="more routes than trains"):
        routes_by_name(game, "Chattanooga-Grenada-Memphis; Grenada-Memphis")
    with pytest.raises(EngineError, match="at least two stops"):
        routes_by_name(game, "Memphis")
