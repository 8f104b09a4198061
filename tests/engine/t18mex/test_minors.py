"""Minors A/B/C: bought in the auction, one yellow lay, must run, revenue split, never buy
trains, and close at phase 3½ with trade-in shares (positions of game 13315)."""

from __future__ import annotations

from tests.engine.t18mex._helpers import G13315, act, at, rejected

OWNERS = {"A": "109", "B": "3542", "C": "671"}


def test_auction_floats_minors_for_their_buyers() -> None:
    g = at(G13315, 7)
    for minor, owner in OWNERS.items():
        m = g.state.corporations[minor]
        assert m.floated and m.owner == owner
        assert g.state.companies[minor].owner == owner
        assert [t.id for t in g.state.trains if t.owner == minor] == [{"A": "2-0", "B": "2-1", "C": "2-2"}[minor]]
    assert g.round.current() == ("671", "player") and g.round.kinds() == ["par"]  # MNR: NdM par first


def test_minor_cannot_lay_while_it_cannot_pay_for_its_home_hex() -> None:
    g = at(G13315, 37)  # OR 1: minor A, treasury $0, Tampico (M12, $40 swamp) unbuilt
    assert g.round.current() == ("A", "minor")
    assert g.round.kinds() == ["run_routes"]
    rejected(g, "A", "lay_tile", "operating.order", "finished its track step", etype="minor",
             hex="M12", tile="472-0", rotation=1)


def test_minor_never_buys_a_train() -> None:
    g = at(G13315, 37)
    rejected(g, "A", "buy_train", "operating.order", "run its trains", etype="minor",
             train="2-3", price=100)


def test_minor_revenue_is_split_between_treasury_and_owner() -> None:
    g = at(G13315, 37)
    owner_cash = g.state.player("109").cash
    act(g, "A", "run_routes", etype="minor", routes=[{"train": "2-0", "connections": [["M12"]]}])
    assert g.state.corporations["A"].cash == 15
    assert g.state.player("109").cash == owner_cash + 15
    assert g.round.current() == ("B", "minor")  # no dividend action for a minor


def test_minors_close_at_the_first_3_prime() -> None:
    before, after = at(G13315, 153), at(G13315, 154)  # FCP buys 3'-0
    assert after.state.phase == "3½"
    cash = {m: before.state.corporations[m].cash for m in OWNERS}
    ndm, udy = after.state.corporations["NdM"], after.state.corporations["UdY"]
    assert ndm.cash == before.state.corporations["NdM"].cash + cash["A"] + cash["B"]
    assert udy.cash == before.state.corporations["UdY"].cash + cash["C"]
    owner_of = {c.id: c.owner for c in ndm.certs + udy.certs}
    assert (owner_of["NdM_7"], owner_of["NdM_8"], owner_of["UdY_8"]) == (OWNERS["A"], OWNERS["B"], OWNERS["C"])
    for minor in OWNERS:
        m = after.state.corporations[minor]
        assert m.closed and not m.floated and m.cash == 0 and m.owner is None
        assert all(t.hex is None for t in m.tokens)
        assert all(minor not in slots for slots in after.state.city_tokens.values())
        assert not [t for t in after.state.trains if t.owner == minor]
        assert after.state.companies[minor].closed
    # the 5% NdM trade-ins do not count toward the certificate limit; the 10% UdY one does
    t = after.title
    assert t.cert_count(after, OWNERS["A"]) == before.title.cert_count(before, OWNERS["A"]) - 1
    assert t.cert_count(after, OWNERS["C"]) == before.title.cert_count(before, OWNERS["C"])
