"""Every recorded 18MEX game in ../shared/fixtures/18MEX replays to its result and end state."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from engine.io.export18xx import end_state, import_game
from tests.engine.t18mex._helpers import FIXTURES, SHARED, SKIP_MSG

NAMES = sorted(p.name for p in FIXTURES.glob("*.json")) if FIXTURES.is_dir() else []


def _diff() -> Any:
    """tools/compare_end_state.py's comparison (the same check as the measuring tool)."""
    path = Path(__file__).resolve().parents[3] / "tools" / "compare_end_state.py"
    spec = importlib.util.spec_from_file_location("compare_end_state", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.diff_end_state


@pytest.mark.skipif(not NAMES, reason=SKIP_MSG)
@pytest.mark.parametrize("name", NAMES)
def test_replay(name: str) -> None:
    data = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    game = import_game(data)
    assert game.finished
    assert game.result() == {str(k): v for k, v in data["result"].items()}
    ref_path = SHARED / "reference" / "end-states.json"
    games = json.loads(ref_path.read_text(encoding="utf-8"))["games"] if ref_path.is_file() else {}
    ref = games.get(f"18MEX/{name}")
    if ref is None:
        pytest.skip(f"no reference end state for {name}")
    assert game.state.end_reason == ref["game_end_reason"]
    assert _diff()(ref["end_state"], end_state(game)) == []
