"""Audit against the site's connection check: companies that connect are listed in the round's
operating order, except that the company whose turn has just ended runs first when it also
connects (the site moves the current operator to the front)."""

from __future__ import annotations

from typing import Any

from tests.engine.t1870._util import BANK, replay


def _checks(connected_at: Any) -> tuple[list[str], list[str]]:
    g = replay(BANK, 380)  # MP (third in the round) is operating
    rnd: Any = g.round
    t: Any = g.title
    t._logged_checks = None  # computed checks, as in a live game
    order = list(rnd.order)
    connected = {order[i] for i in connected_at(rnd.index)}
    t.connected_to_destination = lambda game, corp: corp.id in connected
    return t.connection_check(g, rnd, order[rnd.index]), order


def test_current_operator_runs_first() -> None:
    got, order = _checks(lambda i: (0, i))
    assert got == [order[2], order[0]]


def test_others_in_round_order() -> None:
    got, order = _checks(lambda i: (3, 0))
    assert got == [order[0], order[3]]
