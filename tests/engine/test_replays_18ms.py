"""Both 18MS fixtures replay to their recorded result and reference end state, in-process
and through `python -m engine replay`."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.io.export18xx import end_state, import_game
from tests.engine._helpers import FIXTURES_18MS, REPO, load_fixture, reference

sys.path.insert(0, str(REPO / "tools"))
from compare_end_state import diff_end_state  # noqa: E402


@pytest.mark.parametrize("key", FIXTURES_18MS)
def test_fixture_replays_to_recorded_result_and_end_state(key: str) -> None:
    data = load_fixture(key)
    want = reference("end-states.json")["games"][key]
    game = import_game(data)
    assert game.finished
    assert game.warnings == []
    assert game.result() == {str(k): v for k, v in data["result"].items()}
    assert game.state.end_reason == data["game_end_reason"] == want["game_end_reason"]
    assert diff_end_state(want["end_state"], end_state(game)) == []


def _cli(path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", "replay", str(path), *extra],
                          cwd=REPO, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("key", FIXTURES_18MS)
def test_cli_replay_json(key: str) -> None:
    data = load_fixture(key)
    from tests.engine._helpers import SHARED

    proc = _cli(SHARED / "fixtures" / key, "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["title"] == "18MS"
    assert out["finished"] is True
    assert out["result"] == {str(k): v for k, v in data["result"].items()}
    assert out["warnings"] == []
    assert out["actions_applied"] > 300
    want = reference("end-states.json")["games"][key]["end_state"]
    assert diff_end_state(want, out["end_state"]) == []


def test_cli_replay_rejects_an_altered_action(tmp_path) -> None:
    data = load_fixture(FIXTURES_18MS[0])
    # the first draft pick, at a price other than the face value
    first = next(a for a in data["actions"] if a["type"] == "bid")
    first["price"] = first["price"] + 5
    path = tmp_path / "altered.json"
    path.write_text(json.dumps(data))
    proc = _cli(path)
    assert proc.returncode != 0
    assert f"action {first['id']}" in proc.stderr
    assert "face value" in proc.stderr
    proc = _cli(path, "--json")
    assert proc.returncode != 0
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["action_id"] == first["id"] and out["rule"] == "draft.price"


def test_rejected_action_leaves_the_game_before_it() -> None:
    from engine import EngineError

    data = load_fixture(FIXTURES_18MS[1])
    victim = next(a for a in data["actions"] if a["type"] == "buy_train" and not a.get("skip"))
    victim["price"] = 1 if victim["price"] != 1 else 2
    victim["train"] = victim["train"]
    with pytest.raises(EngineError) as err:
        import_game(data)
    assert err.value.action_id == victim["id"]
    assert err.value.rule.startswith("train.")
