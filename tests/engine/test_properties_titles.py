"""Random legal play in 1870 and 18MEX (the 18MS variant is test_properties.py): moves come
from the engine's own legal answer; nothing crashes, no cash goes negative, no certificate is
over-sold, and money is conserved (bank + players + companies + minors constant)."""

from __future__ import annotations

import random

import pytest

from engine import EngineError, Game
from engine.legal import candidate_actions
from engine.state import IPO, MARKET

MOVE_CAP = 700


def total_money(g: Game) -> int:
    st = g.state
    return (st.bank.cash + sum(p.cash for p in st.players)
            + sum(c.cash for c in st.corporations.values()))


def check_invariants(g: Game, start_money: int) -> None:
    st, t = g.state, g.title
    players = {p.id for p in st.players}
    for c in st.corporations.values():
        assert c.cash >= 0, f"{c.id} has ${c.cash}"
        assert len({x.id for x in c.certs}) == len(c.certs)
        if c.certs:
            assert sum(x.percent for x in c.certs) == 100, f"{c.id} certificates"
        for x in c.certs:
            assert x.owner in players or x.owner in (IPO, MARKET) or x.owner in st.corporations, x
        assert sum(x.percent for x in c.certs if x.owner == MARKET) <= t.pool_limit(), c.id
    for p in st.players:
        assert p.cash >= 0 or p.bankrupt, f"{p.id} has ${p.cash}"
    assert total_money(g) == start_money, "money is not conserved"
    owned = [tr.id for tr in st.trains if tr.owner and not tr.gone]
    assert len(owned) == len(set(owned)), "a train has two owners"


def play(title: str, seed: int, players: int) -> Game:
    rng = random.Random(seed)
    g = Game(title, [f"P{i}" for i in range(1, players + 1)])
    start = total_money(g)
    for _ in range(MOVE_CAP):
        if g.finished:
            break
        cands = candidate_actions(g)
        assert cands, f"no candidate actions at {g.round.name()} for {g.current_entity()}"
        rng.shuffle(cands)
        if rng.random() < 0.8:
            cands.sort(key=lambda a: a["type"] == "pass")
        cands.sort(key=lambda a: a["type"] == "bankrupt")  # the last resort
        for act in cands:
            try:
                g.apply(act)
                break
            except EngineError:
                continue
        else:
            pytest.fail(f"{title} seed {seed}: none of {len(cands)} candidates accepted at "
                        f"{g.round.name()} for {g.current_entity()}: {cands[:4]}")
        check_invariants(g, start)
    return g


@pytest.mark.parametrize("title,seed,players", [
    ("1870", 1, 3), ("1870", 2, 4), ("1870", 3, 5),
    ("18MEX", 1, 3), ("18MEX", 2, 4), ("18MEX", 3, 5),
])
def test_random_legal_play_keeps_invariants(title: str, seed: int, players: int) -> None:
    g = play(title, seed, players)
    assert len(g.log) > 50, "random play made hardly any progress"
    replayed = Game(title, [p for p, _ in g.players], actions=g.export_actions())
    assert replayed.result() == g.result(), "replaying the random game's log differs"
