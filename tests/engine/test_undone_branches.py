"""Every move the site accepted, even one later undone, is accepted by the engine.

The real games in ../shared/fixtures carry their undo history: just before each `undo`, the
actions then in effect were a legal game on the site. Replaying each of those prefixes must
not be refused (542 positions that the final games alone never reach).

The log is applied one action at a time, as in live play (undo and redo included): an action
later undone is applied on exactly the actions then in effect, so every branch is checked in one
pass, and the game still ends with the recorded result."""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError
from engine.io.export18xx import start_from_export
from tests.engine._helpers import SHARED, need_shared


def _fixtures() -> list[str]:
    if not SHARED.is_dir():
        return ["none"]
    return sorted(str(p.relative_to(SHARED / "fixtures")) for p in (SHARED / "fixtures").glob("*/*.json"))


@pytest.mark.parametrize("fixture", _fixtures())
def test_every_branch_before_an_undo_replays(fixture: str) -> None:
    need_shared()
    data = json.loads((SHARED / "fixtures" / fixture).read_text())
    game, actions = start_from_export(data)
    undos = sum(a["type"] == "undo" for a in actions)
    undone = 0
    for a in actions:
        try:
            game.apply(a)
        except EngineError as err:
            raise AssertionError(f"action {a.get('id')} ({a['type']}) refused after {undone} of "
                                 f"{undos} undos: {err}") from err
        undone += a["type"] == "undo"
    assert game.finished == (data.get("status") == "finished" or bool(data.get("result")))
    if data.get("result"):
        assert game.result() == {str(k): v for k, v in data["result"].items()}
