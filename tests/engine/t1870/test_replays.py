"""Every shared 1870 game replays to its recorded result and to the reference end state."""

from __future__ import annotations

import json

import pytest

from engine.io.export18xx import end_state, import_game
from tests.engine.t1870._util import FIXTURES, SHARED
from tools.compare_end_state import diff_end_state


def _names() -> list[str]:
    if not FIXTURES.is_dir():
        return ["absent"]
    return sorted(p.name for p in FIXTURES.glob("*.json"))


@pytest.mark.parametrize("name", _names())
def test_replay_matches_result_and_end_state(name: str) -> None:
    if not FIXTURES.is_dir():
        pytest.skip("needs ../shared/fixtures")
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    game = import_game(data)
    assert game.finished
    assert game.result() == {str(k): v for k, v in data["result"].items()}
    refs = json.loads((SHARED / "reference" / "end-states.json").read_text())["games"]
    want = refs[f"1870/{name}"]
    assert game.state.end_reason == want["game_end_reason"]
    assert diff_end_state(want["end_state"], end_state(game)) == []
    assert game.warnings == []
