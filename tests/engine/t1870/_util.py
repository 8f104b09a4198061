"""Helpers for the 1870 tests: replay a prefix of a shared fixture (skipped when ../shared is
absent) and apply scripted actions on top of it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from engine.errors import EngineError
from engine.game import Game
from engine.io.export18xx import import_game

SHARED = Path(__file__).resolve().parents[3].parent / "shared"
FIXTURES = SHARED / "fixtures" / "1870"
BANK, BANKRUPT, SMALL = "1870_game_end_bank.json", "1870_game_end_bankrupt.json", "34110.json"
ALLOWED, FAILS = "40469_price_protect_allowed.json", "40469_price_protect_over_cert_limit_fails.json"


def fixture(name: str) -> dict[str, Any]:
    path = FIXTURES / name
    if not path.is_file():
        pytest.skip("needs ../shared/fixtures")
    return json.loads(path.read_text(encoding="utf-8"))


def continued(data_file: str) -> dict[str, Any]:
    """A game our random player went on with from a real game's position (tests/engine/t1870/
    data: the fixture's name, the last action kept of it, our moves after it): the fixture's
    export with its actions up to that one and ours after (skipped when ../shared is absent)."""
    moves = json.loads(gzip.decompress((Path(__file__).parent / "data" / data_file).read_bytes()))
    data = fixture(moves["from_fixture"])
    kept = [a for a in data["actions"] if a["id"] <= moves["after"]]
    return {**data, "actions": kept + moves["actions"]}


def replay(name: str, upto: int | None = None) -> Any:
    """The game of a fixture with the actions up to id `upto` (all when None)."""
    return import_game(fixture(name), upto=upto)


def logged(name: str, action_id: int) -> dict[str, Any]:
    """The logged action with that id, ready for Game.apply (player ids as strings)."""
    for a in fixture(name)["actions"]:
        if a.get("id") == action_id:
            out = {k: v for k, v in a.items() if k not in ("created_at", "user", "skip", "id")}
            if out.get("entity_type") == "player":
                out["entity"] = str(out["entity"])
            return out
    raise KeyError(action_id)


def rejected(game: Game, action: dict[str, Any]) -> EngineError:
    with pytest.raises(EngineError) as info:
        game.apply(action)
    return info.value
