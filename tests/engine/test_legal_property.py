"""The legal answer offers only moves the engine accepts (issue 12): every candidate action of
`engine.legal.candidate_actions`, at every few positions of random games (and, with
RAIL_FUZZ_FULL=1, of the fixtures), is accepted by a copy of the game. No rule is exempt:
money is checked in the legal answer as when the move is made (trains by a dry run of the
shortfall rules, privates and tokens within the treasury)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from engine import Game
from engine.core import shares
from engine.legal import legal_moves
from tests.engine._legal_audit import Audit, audit_position, audit_title

FULL = os.environ.get("RAIL_FUZZ_FULL") == "1"


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_every_candidate_is_accepted(title: str) -> None:
    audit = audit_title(title, seeds=(1,), moves=90, every=6, fixture_every=0)
    assert audit.candidates > 20
    assert audit.refused == [], "\n".join(audit.refused[:10])


@pytest.mark.parametrize(("title", "seed", "start", "moves"), [("1870", 2, 69, 80), ("18MEX", 1, 201, 230)])
def test_every_candidate_is_accepted_where_money_runs_short(title: str, seed: int, start: int,
                                                             moves: int) -> None:
    # later positions of random games, where treasuries run short of trains and privates
    audit = audit_title(title, seeds=(seed,), moves=moves, every=3, fixture_every=0, start=start)
    assert audit.candidates > 30
    assert audit.refused == [], "\n".join(audit.refused[:10])


@pytest.mark.skipif(not FULL, reason="the full audit runs with RAIL_FUZZ_FULL=1")
@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_every_candidate_is_accepted_full(title: str) -> None:
    audit = audit_title(title, seeds=(1, 2), moves=300, every=3, fixture_every=25)
    assert audit.refused == [], "\n".join(audit.refused[:10])


def _forced_position(title: str, seed: int, moves: int) -> tuple[Game, int]:
    """The first position of a random game where the operating company must buy a train and
    some train on offer costs more than the cheapest (a dearer bank or market train, or another
    company's train worth more); and that cheapest price."""
    from engine.randomplay import random_game
    from tests.engine._fuzz import PLAYERS

    full = random_game(title, seed=seed, players=PLAYERS[title], max_actions=moves, undo=False)
    g = Game(title, full.players, full.options)
    for act in full.export_actions():
        rnd: Any = g.round
        if (not g.finished and rnd.kind == "operating" and not rnd.finished
                and g.title.must_buy_train(g, rnd, rnd.corp()) and "buy_train" in g.legal().kinds):
            offers = legal_moves(g).trains
            cheapest = min((lo for _t, _f, lo, _h, seller in offers if seller in ("bank", "market")),
                           default=None)
            trains = {t.id: t for t in g.state.trains}
            if cheapest is not None and any(
                    (lo if seller in ("bank", "market") else g.title.variants(trains[tid]).get(face, 0)) > cheapest
                    for tid, face, lo, _h, seller in offers):
                return g, cheapest
        g.apply(act)
    raise AssertionError(f"no such forced purchase in {title} random seed {seed}")


@pytest.mark.parametrize(("title", "seed", "moves"), [("1870", 2, 200), ("18MEX", 5, 380)])
def test_a_forced_purchase_offers_only_what_the_rules_allow(title: str, seed: int, moves: int) -> None:
    """A company forced to buy a train, whose treasury holds the cheapest train's price but no
    more, with a rich president: the answer offers only what the engine accepts (the
    president's money goes only to the cheapest train, never to another company's)."""
    g, cheapest = _forced_position(title, seed, moves)
    corp = g.round.corp()  # type: ignore[attr-defined]
    corp.cash = cheapest
    g.state.player(str(shares.president(corp))).cash += 2000
    audit = Audit()
    audit_position(g, f"{title} forced purchase, treasury ${cheapest}", audit)
    assert audit.candidates > 2
    assert audit.refused == [], "\n".join(audit.refused[:10])
