"""The train step as on the site: it stays open (buy or pass) while the company has room and its
treasury reaches the cheapest train on offer - a bank train, even when the one-a-turn limit has
closed the bank to it this turn, or $1 for another company's train. Only right after a bank
purchase under that limit does it end by itself, when no other company's train may be bought."""

from __future__ import annotations

from engine.legal import legal_moves
from tests.engine.t18mex._helpers import G13315, G17849, act, at


def _only_other_train(g, keep: str) -> None:  # type: ignore[no-untyped-def]
    for t in g.state.trains:
        if t.owner in g.state.corporations and t.owner != "TM" and t.id != keep \
                and g.state.corporations[t.owner].kind == "corporation":
            t.owner, t.gone = None, True


def test_bank_closed_for_the_turn_is_not_offered() -> None:
    g = at(G17849, 162)  # phase 3: TM has just bought a 3 from the bank ($640 left)
    lg = legal_moves(g)
    assert (lg.entity, "pass" in lg.kinds) == ("TM", True)
    assert [t for t in lg.trains if t[4] == "bank"] == []
    assert {t[4] for t in lg.trains} >= {"MC", "CHI"}


def test_step_waits_for_a_pass_with_room_and_cash_but_nothing_left_to_buy() -> None:
    g = at(G17849, 162)
    _only_other_train(g, "2-3")
    act(g, "TM", "buy_train", train="2-3", price=1, variant="2")
    # TM: two trains (limit 3) and $639, at least a bank train's price; the bank is closed to it
    # this turn and no other company's train is left, yet the site's step waits for a pass
    lg = legal_moves(g)
    assert lg.entity == "TM" and "pass" in lg.kinds and "buy_train" in lg.kinds
    assert lg.trains == []
    act(g, "TM", "pass")
    assert legal_moves(g).entity != "TM" or "buy_train" not in legal_moves(g).kinds


def test_bank_purchase_ends_the_step_when_no_other_train_may_be_bought() -> None:
    g = at(G17849, 161)  # TM about to buy its 3 from the bank
    for t in g.state.trains:
        if t.owner in g.state.corporations and t.owner != "TM" \
                and g.state.corporations[t.owner].kind == "corporation":
            t.owner, t.gone = None, True
    act(g, "TM", "buy_train", train="3-2", price=180, variant="3")
    lg = legal_moves(g)
    assert not (lg.entity == "TM" and "buy_train" in lg.kinds)


def _bank_down_to(g, keep: str) -> None:  # type: ignore[no-untyped-def]
    for t in g.state.trains:
        if t.owner is None and t.id != keep:
            t.gone = True


def test_ndm_step_ends_when_the_bank_is_empty_and_no_train_is_within_face_value() -> None:
    # as on the site (a generated game, 18MEX seed 32 steady, action 729): the NdM buys the
    # bank's last train; with $220 left it cannot pay any other company's train at face value
    # (the cheapest is a 4 at $300), so its train step ends by itself though trains are in play
    g = at(G13315, 286)
    _bank_down_to(g, "6-0")
    act(g, "NdM", "buy_train", train="6-0", price=600, variant="6")
    lg = legal_moves(g)
    assert not (lg.entity == "NdM" and "buy_train" in lg.kinds)


def test_ndm_step_stays_open_with_a_train_in_the_bank_or_one_within_face_value() -> None:
    # the real game: the bank still holds the 6' ($600, out of reach): the NdM must pass
    g = at(G13315, 287)
    lg = legal_moves(g)
    assert lg.entity == "NdM" and "pass" in lg.kinds and "buy_train" in lg.kinds
    # the bank empty, but a 4 at face value ($300) within the treasury: offered, the step open
    g = at(G13315, 286)
    _bank_down_to(g, "6-0")
    g.state.corporations["NdM"].cash += 100
    act(g, "NdM", "buy_train", train="6-0", price=600, variant="6")
    lg = legal_moves(g)
    assert lg.entity == "NdM" and "buy_train" in lg.kinds
    assert {(t[0], t[4]) for t in lg.trains} >= {("4-1", "TM")}


def test_ndm_step_opens_with_the_bank_empty_for_one_dollar_though_no_train_is_within_face_value() -> None:
    # as on the site (the same generated game, action 761): coming to its train step (no
    # purchase yet), the NdM's step is open with $1 or more and other companies' trains in play,
    # though none is within its treasury at face value: it must pass
    g = at(G13315, 286)
    _bank_down_to(g, "")
    g.state.corporations["NdM"].cash = 170  # the cheapest other train: a 3 at $180
    lg = legal_moves(g)
    assert lg.entity == "NdM" and "pass" in lg.kinds and "buy_train" in lg.kinds
    assert lg.trains == []
