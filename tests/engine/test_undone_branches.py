"""Every move the site accepted, even one later undone, is accepted by the engine.

The real games in ../shared/fixtures carry their undo history: just before each `undo`, the
actions then in effect were a legal game on the site. Replaying each of those prefixes must
not be refused (542 positions that the final games alone never reach)."""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError
from engine.io.export18xx import import_game
from tests.engine._helpers import SHARED, need_shared


def _fixtures() -> list[str]:
    if not SHARED.is_dir():
        return ["none"]
    return sorted(str(p.relative_to(SHARED / "fixtures")) for p in (SHARED / "fixtures").glob("*/*.json"))


@pytest.mark.parametrize("fixture", _fixtures())
def test_every_branch_before_an_undo_replays(fixture: str) -> None:
    need_shared()
    data = json.loads((SHARED / "fixtures" / fixture).read_text())
    refused = []
    for undo in (a["id"] for a in data["actions"] if a["type"] == "undo"):
        prefix = {**data, "actions": [a for a in data["actions"] if a["id"] < undo]}
        try:
            import_game(prefix)
        except EngineError as err:
            refused.append(f"before undo {undo}: action {err.action_id} refused: {err}")
    assert not refused, "\n".join(refused[:10])
