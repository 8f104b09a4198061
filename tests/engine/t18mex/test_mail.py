"""Mail: a company holding a train collects its home city's current value at the start of
each operating turn; without a train it gets nothing."""

from __future__ import annotations

from typing import Any

from tests.engine.t18mex._helpers import G13315, at


def test_no_mail_without_a_train() -> None:
    g = at(G13315, 40)  # OR 1, TM's first turn starts (no train yet)
    assert g.round.current() == ("TM", "corporation")
    assert g.state.corporations["TM"].cash == 750  # the $75 par, fully capitalized


def test_mail_paid_at_the_start_of_the_turn() -> None:
    before, after = at(G13315, 68), at(G13315, 69)  # OR 2: minor C runs, then TM's turn opens
    assert after.round.current() == ("TM", "corporation")
    bank = before.state.bank.cash - after.state.bank.cash
    got = after.state.corporations["TM"].cash - before.state.corporations["TM"].cash
    assert got == 20  # Matamoros (I12) pays $20 in the yellow phases
    assert bank >= 20  # paid by the bank (with minor C's run)


def test_mail_follows_the_home_city_after_upgrades() -> None:
    g = at(G13315, 268)
    t: Any = g.title
    ndm = g.state.corporations["NdM"]
    cash = ndm.cash
    t.pay_mail(g, ndm)  # Mexico City now carries the brown 485MC: $60
    assert ndm.cash - cash == 60
