"""Helpers for the 18MEX tests: positions of the real games in ../shared/fixtures/18MEX
(replayed prefixes; skipped when the shared folder is absent) and rejection checks."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.errors import EngineError
from engine.game import Game
from engine.io.export18xx import import_game

SHARED = Path(__file__).resolve().parents[3].parent / "shared"
FIXTURES = SHARED / "fixtures" / "18MEX"
SKIP_MSG = "needs ../shared/fixtures/18MEX next to the repository"
G13315, G17849, GSTOCK, GHOT = "13315", "17849", "18MEX_game_end_stock_market", "hotseat01"


@cache
def _data(name: str) -> str:
    path = FIXTURES / f"{name}.json"
    if not path.is_file():
        pytest.skip(SKIP_MSG)
    return path.read_text(encoding="utf-8")


def at(name: str, upto: int | None = None) -> Game:
    """The fixture replayed up to and including action `upto` (the whole game if None)."""
    return import_game(json.loads(_data(name)), upto=upto)


def act(game: Game, entity: str, type_: str, etype: str = "corporation", **kw: Any) -> Any:
    return game.apply({"type": type_, "entity": entity, "entity_type": etype, **kw})


def rejected(game: Game, entity: str, type_: str, rule: str, match: str, etype: str = "corporation",
             **kw: Any) -> EngineError:
    n = len(game.log)
    with pytest.raises(EngineError, match=match) as err:
        act(game, entity, type_, etype, **kw)
    assert err.value.rule == rule
    assert len(game.log) == n  # nothing changed
    return err.value
