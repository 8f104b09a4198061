"""Random legal play from a fresh 18MS game keeps the invariants; replays are deterministic."""

from __future__ import annotations

import pytest

from engine import Game
from engine.io.export18xx import end_state, import_game
from tests.engine._helpers import FIXTURES_18MS, load_fixture
from tests.engine._props import check_common_invariants, random_play, total_money

MOVE_CAP = 1500


def check_invariants(g: Game, start_money: int) -> None:
    check_common_invariants(g, start_money)
    st = g.state
    for c in st.corporations.values():
        for p in st.players:
            assert sum(x.percent for x in c.certs if x.owner == p.id) <= 70 or c.cell is None or \
                "no_cert_limit" in g.title.market.types(c.cell)
        assert sum(1 for t in st.trains if t.owner == c.id and not t.gone) <= 3
    for p in st.players:
        # only a loan (forced train purchase) makes a player's cash negative; the debt still counts
        if p.cash < 0:
            assert any(a.type == "buy_train" for a in g.log), "negative cash without a loan"


def play(seed: int, players: int) -> Game:
    g = Game("18MS", [f"P{i}" for i in range(1, players + 1)])
    assert total_money(g) == g.title.data.meta["bank_cash"]
    return random_play(g, seed, MOVE_CAP, check_invariants)


# seeds 1-6 (each player count twice) in the default run, 7-15 with `-m slow`
@pytest.mark.parametrize("seed,players", [
    pytest.param(s, 2 + s % 3, marks=[pytest.mark.slow] if s > 6 else []) for s in range(1, 16)
])
def test_random_legal_play_keeps_invariants(seed: int, players: int) -> None:
    g = play(seed, players)
    assert g.log, "no moves"
    if g.finished:
        assert g.state.end_reason == "fixed_round"
        assert g.or_number == 10
        assert set(g.result()) == {p.id for p in g.state.players}


def test_random_game_replays_identically() -> None:
    g = play(5, 3)
    again = Game("18MS", [p for p, _ in g.players], actions=g.export_actions())
    assert end_state(again) == end_state(g)
    assert again.result() == g.result()


@pytest.mark.parametrize("key", FIXTURES_18MS[:1])
def test_replay_is_deterministic(key: str) -> None:
    data = load_fixture(key)
    assert end_state(import_game(data)) == end_state(import_game(data))
