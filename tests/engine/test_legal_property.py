"""The legal answer offers only moves the engine accepts (issue 12): every candidate action of
`engine.legal.candidate_actions`, at every few positions of random games (and, with
RAIL_FUZZ_FULL=1, of the fixtures), is accepted by a copy of the game. No rule is exempt:
money is checked in the legal answer as when the move is made (trains by a dry run of the
shortfall rules, privates and tokens within the treasury)."""

from __future__ import annotations

import os

import pytest

from tests.engine._legal_audit import audit_title

FULL = os.environ.get("RAIL_FUZZ_FULL") == "1"


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_every_candidate_is_accepted(title: str) -> None:
    audit = audit_title(title, seeds=(1,), moves=90, every=6, fixture_every=0)
    assert audit.candidates > 20
    assert audit.refused == [], "\n".join(audit.refused[:10])


@pytest.mark.parametrize(("title", "seed", "start", "moves"), [("1870", 2, 69, 80), ("18MEX", 1, 201, 250)])
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
