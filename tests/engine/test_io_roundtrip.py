"""Import -> export -> import keeps the game; the export has the site's shape."""

from __future__ import annotations

import json

import pytest

from engine.io.export18xx import end_state, export_game, import_game
from tests.engine._helpers import FIXTURES_18MS, load_fixture, new_game, standard_start


@pytest.mark.parametrize("key", FIXTURES_18MS)
def test_roundtrip_keeps_end_state_and_result(key: str) -> None:
    data = load_fixture(key)
    first = import_game(data)
    exported = json.loads(json.dumps(export_game(first, game_id=data["id"])))
    second = import_game(exported)
    assert end_state(second) == end_state(first)
    assert second.result() == first.result()
    assert second.finished
    # the site's shape
    assert exported["id"] == data["id"] and exported["title"] == "18MS"
    assert [p["id"] for p in exported["players"]] == [p["id"] for p in data["players"]]
    assert exported["status"] == "finished"
    assert exported["result"] == {str(k): v for k, v in data["result"].items()}
    assert exported["game_end_reason"] == "fixed_round"
    ids = [a["id"] for a in exported["actions"]]
    assert ids == sorted(ids) and len(ids) == len(set(ids)) == len(data["actions"])
    for a in exported["actions"]:
        assert {"type", "entity", "entity_type", "id"} <= set(a)
        if a["entity_type"] == "player":
            assert isinstance(a["entity"], int)  # the site's numeric user ids come back


def test_export_of_an_unfinished_scripted_game() -> None:
    g = standard_start()
    out = export_game(g)
    assert out["status"] == "active" and "result" not in out
    assert [a["type"] for a in out["actions"]] == ["bid", "bid", "bid"]
    assert [a["id"] for a in out["actions"]] == [1, 2, 3]
    again = import_game(out)
    assert end_state(again) == end_state(g)
    assert again.current_entity() == g.current_entity()
    assert new_game().export_actions() == []
