"""A log accepted once, replayed: the turn's flow reads from the next move what a step offers
where the rules would walk the track to say it (OperatingRound.offers: a later step's move
says this step offers nothing; this token or route step's move says it offers something when
the company's train step, still to come, offers a purchase; a pass at the token step says it
offers something when the route step after it offers a run). With CHECK_TOLD each such reading
is also asked of the rules, which must agree, on every real game and on random games; the
states are compared action by action in tests/engine/test_accepted_replay.py."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game
from engine.flow import base as flow_base
from engine.flow.operating import OperatingRound
from engine.flow.or_tokens import TokenRules
from engine.io.export18xx import start_from_export
from engine.randomplay import random_game
from tests.engine._helpers import ALL_FIXTURES, load_fixture

FIXTURES = list(ALL_FIXTURES)


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """CHECK_TOLD on; counts the steps told open and closed."""
    monkeypatch.setattr(flow_base, "CHECK_TOLD", True)
    counts = {"open": 0, "closed": 0}
    inner = OperatingRound._told

    def counting(self: OperatingRound, name: str) -> bool | None:
        out = inner(self, name)
        if out is not None:
            counts["open" if out else "closed"] += 1
        return out

    monkeypatch.setattr(OperatingRound, "_told", counting)
    return counts


@pytest.mark.parametrize("key", FIXTURES)
def test_every_step_told_by_a_real_games_next_move_is_what_the_rules_say(
        key: str, told: dict[str, int]) -> None:
    data = load_fixture(key)
    game, actions = start_from_export(data)
    game.load_log(actions, accepted=True)
    assert told["open"] > 0 and told["closed"] > 0
    assert game.result() == {str(k): v for k, v in data["result"].items()}


@pytest.mark.parametrize("title,players,seed", [("18MS", 3, 21), ("1870", 5, 22), ("18MEX", 4, 23),
                                                ("18MEX", 5, 24)])
def test_every_step_told_in_a_random_game_is_what_the_rules_say(
        title: str, players: int, seed: int, told: dict[str, int]) -> None:
    live = random_game(title, seed=seed, players=players, max_actions=400)
    again = Game(live.title_name, live.players, live.options)
    again.load_log(live.export_actions(), accepted=True)
    assert told["open"] > 0 and told["closed"] > 0
    assert again.view_key() == live.view_key()


def test_a_checked_replay_reads_nothing_from_the_next_move(told: dict[str, int]) -> None:
    """A foreign log (checking on) is judged by the rules alone; so is a live move."""
    data = load_fixture("1870/34110.json")
    game, actions = start_from_export(data)
    game.load_log(actions)
    assert told == {"open": 0, "closed": 0}
    assert game.next_move is None


def test_the_next_move_spares_the_token_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Any] = []
    inner = TokenRules.has_token_target

    def counting(self: TokenRules, game: Game, corp: Any) -> bool:
        asked.append(corp.id)
        return inner(self, game, corp)

    monkeypatch.setattr(TokenRules, "has_token_target", counting)
    data = load_fixture("1870/1870_game_end_bank.json")
    game, actions = start_from_export(data)
    game.load_log(actions)
    checked = len(asked)
    asked.clear()
    game, actions = start_from_export(data)
    game.load_log(actions, accepted=True)
    assert game.next_move is None  # (only while the log is replayed)
    assert len(asked) < checked / 2


def test_a_pass_at_the_token_step_is_told_by_the_route_step(
        told: dict[str, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The company's next move a pass, at its token step: when the route step after it offers a
    run (no pass there), the pass is the token step's, which so offers something (CHECK_TOLD:
    the rules agree at every such reading)."""
    by_pass: list[bool | None] = []
    inner = OperatingRound._told_by_pass

    def counting(self: OperatingRound, name: str) -> bool | None:
        out = inner(self, name)
        by_pass.append(out)
        return out

    monkeypatch.setattr(OperatingRound, "_told_by_pass", counting)
    data = load_fixture("1870/1870_game_end_bank.json")
    game, actions = start_from_export(data)
    game.load_log(actions, accepted=True)
    assert by_pass.count(True) >= 10 and None in by_pass and False not in by_pass
    assert game.result() == {str(k): v for k, v in data["result"].items()}
