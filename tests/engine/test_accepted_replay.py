"""A log the bot accepted once (a stored game, the game's own log) is reloaded without the checks
that can only refuse a move (`Game.load_log(..., accepted=True)`, `Game.checking` False): the
state after every action must be exactly the one the fully checked replay gives, and a foreign
log (an 18xx.games import, a player's upload) is never replayed that way."""

from __future__ import annotations

import importlib.util
import json
from typing import Any

import pytest

from engine import EngineError, Game
from engine.flow.or_tokens import TokenRules
from engine.flow.or_track import TrackRules
from engine.io.export18xx import import_game, start_from_export
from engine.randomplay import random_game
from tests.engine._helpers import ALL_FIXTURES, REPO, load_fixture

_spec = importlib.util.spec_from_file_location("state_trace", REPO / "tools" / "state_trace.py")
assert _spec is not None and _spec.loader is not None
state_trace = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(state_trace)

FIXTURES = list(ALL_FIXTURES)
QUICK = {"18MS/14375.json", "1870/34110.json", "18MEX/17849.json"}


def _lines(game: Game, actions: list[Any], accepted: bool) -> list[str]:
    """The trace line (tools/state_trace.py: the whole state, round, title state) before every
    action and at the end, and the result and the warnings."""
    seen: list[bool] = []

    def before(g: Game, act: Any) -> None:
        seen.append(g.checking)
        out.append(state_trace.line(g, act.id))

    out: list[str] = []
    game.load_log(actions, before=before, accepted=accepted)
    assert seen and all(c is not accepted for c in seen)
    assert game.checking  # back on once the load is over
    out.append(state_trace.line(game, "end"))
    out.append(json.dumps([game.result(), game.warnings]))
    return out


@pytest.mark.parametrize("key", [pytest.param(k, marks=() if k in QUICK else pytest.mark.slow)
                                 for k in FIXTURES])
def test_fixture_loaded_as_stored_equals_the_checked_import_after_every_action(key: str) -> None:
    data = load_fixture(key)
    checked = _lines(*start_from_export(data), accepted=False)
    stored = _lines(*start_from_export(data), accepted=True)
    assert len(stored) == len(checked)
    for a, b in zip(stored, checked, strict=True):
        assert a == b


@pytest.mark.parametrize("title,players,seed", [("18MS", 4, 3), ("1870", 4, 5), ("18MEX", 4, 9),
                                                ("1870", 3, 12)])
def test_random_game_loaded_as_stored_equals_the_checked_replay(title: str, players: int,
                                                                seed: int) -> None:
    g = random_game(title, seed=seed, players=players, max_actions=320)
    log = g.export_actions()

    def fresh() -> Game:
        out = Game(g.title_name, g.players, g.options)
        out.raw_player_ids = g.raw_player_ids
        return out

    assert _lines(fresh(), log, accepted=True) == _lines(fresh(), log, accepted=False)


def test_a_foreign_import_checks_every_lay_and_token(monkeypatch: pytest.MonkeyPatch) -> None:
    """An 18xx.games import (import_game, the bot's upload) asks each lay's connection and each
    token's reach; a stored game's reload asks neither."""
    asked: list[str] = []
    conn, reach_city = TrackRules.connection_error, TokenRules.reaches_city

    def connection_error(self: Any, game: Game, *a: Any) -> Any:
        asked.append("lay")
        return conn(self, game, *a)

    def reaches_city(self: Any, game: Game, *a: Any) -> Any:
        asked.append("token")
        return reach_city(self, game, *a)

    monkeypatch.setattr(TrackRules, "connection_error", connection_error)
    monkeypatch.setattr(TokenRules, "reaches_city", reaches_city)
    data = load_fixture("18MS/14375.json")
    checking: list[bool] = []
    game = import_game(data, before=lambda g, _a: checking.append(g.checking))
    assert all(checking) and game.checking
    assert asked.count("lay") > 30 and asked.count("token") > 5
    counts = (asked.count("lay"), asked.count("token"))
    asked.clear()
    from bot import ports

    ports.import_game(data)  # the bot's import of an uploaded file
    assert (asked.count("lay"), asked.count("token")) == counts
    asked.clear()
    stored, actions = start_from_export(data)
    stored.load_log(actions, accepted=True)
    assert asked == []


def test_a_refused_action_in_a_checked_load_leaves_checking_on() -> None:
    data = load_fixture("18MS/14375.json")
    game, actions = start_from_export(data)
    lay = next(i for i, a in enumerate(actions) if a["type"] == "lay_tile")
    bad = [*actions[:lay], {**actions[lay], "hex": "A1"}]
    with pytest.raises(EngineError):
        game.load_log(bad)
    assert game.checking


@pytest.mark.parametrize("key", ["1870/34110.json", "18MEX/17849.json", "18MS/14375.json",
                                 pytest.param("1870/1870_game_end_bank.json", marks=pytest.mark.slow)])
def test_the_token_steps_walk_answers_as_the_whole_reach(key: str) -> None:
    """has_token_target (a walk until a city that takes a token is reached) gives
    bool(token_targets) (the whole reach, every city asked) for every corporation at every
    position of the fixture."""
    from engine.routes.reach import forget_boards

    asked = [0]

    def before(g: Game, _act: Any) -> None:
        if g.round.kind != "operating" or g.finished:
            return
        t = g.title
        for corp in g.state.corporations.values():
            if corp.closed or not corp.floated:
                continue
            forget_boards()
            walked = t.has_token_target(g, corp)
            assert walked == bool(t.token_targets(g, corp)), (corp.id, _act.id)
            asked[0] += 1

    import_game(load_fixture(key), before=before)
    assert asked[0] > 100
