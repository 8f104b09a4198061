"""Random legal play for the property tests: moves come from the engine's own legal answer."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine import EngineError, Game
from engine.legal import candidate_actions
from engine.state import IPO, MARKET


def total_money(g: Game) -> int:
    st = g.state
    return (st.bank.cash + sum(p.cash for p in st.players)
            + sum(c.cash for c in st.corporations.values()))


def check_common_invariants(g: Game, start_money: int) -> None:
    """Every title: certificates add up and have one owner, the pool limit holds, no company
    has negative cash, no train has two owners, and money is conserved."""
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
    assert total_money(g) == start_money, "money is not conserved"
    owned = [tr.id for tr in st.trains if tr.owner and not tr.gone]
    assert len(owned) == len(set(owned)), "a train has two owners"


def random_play(g: Game, seed: int, move_cap: int, check: Callable[[Game, int], None]) -> Game:
    """Play random legal moves until the game ends or `move_cap` moves; check after each."""
    rng = random.Random(seed)
    start = total_money(g)
    for _ in range(move_cap):
        if g.finished:
            break
        cands = candidate_actions(g)
        assert cands, f"no candidate actions at {g.round.name()} for {g.current_entity()}"
        rng.shuffle(cands)
        if rng.random() < 0.8:  # prefer progress: passes last most of the time
            cands.sort(key=lambda a: a["type"] == "pass")
        cands.sort(key=lambda a: a["type"] == "bankrupt")  # the last resort
        for act in cands:
            try:
                g.apply(act)
                break
            except EngineError:
                continue
        else:
            pytest.fail(f"{g.title_name} seed {seed}: none of {len(cands)} candidates accepted at "
                        f"{g.round.name()} for {g.current_entity()}: {cands[:4]}")
        check(g, start)
    return g
