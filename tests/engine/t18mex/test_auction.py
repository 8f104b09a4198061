"""The opening auction of a fresh 18MEX game (scripted): the all-pass discount on MCAR, the
bid-off order, and the all-pass round after a sale that pays privates and floated minors."""

from __future__ import annotations

from engine.game import Game
from tests.engine.t18mex._helpers import act, rejected

P = ("P1", "P2", "P3")


def fresh() -> Game:
    return Game("18MEX", list(P))


def bid(g: Game, pid: str, company: str, price: int) -> None:
    act(g, pid, "bid", etype="player", company=company, price=price)


def passes(g: Game, n: int) -> None:
    for _ in range(n):
        act(g, g.current_entity()[0], "pass", etype="player")


def test_all_pass_discounts_mcar_until_someone_must_take_it() -> None:
    g = fresh()
    passes(g, 3)
    rejected(g, "P1", "bid", "auction.price", "costs \\$15 now", etype="player", company="MCAR", price=10)
    passes(g, 9)  # three more rounds: $10, $5, $0 -- the next player takes it for nothing
    mcar = g.state.companies["MCAR"]
    assert mcar.owner == "P1" and g.state.player("P1").cash == 625
    assert g.current_entity() == ("P2", "player")


def test_bid_off_lowest_bidder_acts_then_turn_order_resumes() -> None:
    g = fresh()
    bid(g, "P1", "KCMO", 45)
    rejected(g, "P2", "bid", "auction.min_bid", "minimum bid for KCMO is \\$50", etype="player",
             company="KCMO", price=45)
    bid(g, "P2", "KCMO", 50)
    bid(g, "P3", "MCAR", 20)  # KCMO is now the cheapest, with two bids: a bid-off
    assert g.current_entity() == ("P1", "player")
    bid(g, "P1", "KCMO", 55)
    assert g.current_entity() == ("P2", "player")
    passes(g, 1)
    assert g.state.companies["KCMO"].owner == "P1" and g.state.player("P1").cash == 625 - 55
    assert g.current_entity() == ("P1", "player")  # the player after MCAR's buyer


def test_all_pass_after_a_sale_pays_privates_and_minors() -> None:
    g = fresh()
    bid(g, "P1", "MCAR", 20)
    bid(g, "P2", "KCMO", 40)
    bid(g, "P3", "A", 50)
    assert g.state.corporations["A"].floated and g.state.corporations["A"].owner == "P3"
    cash = {p: g.state.player(p).cash for p in P}
    passes(g, 3)
    assert g.state.player("P1").cash == cash["P1"] + 5
    assert g.state.player("P2").cash == cash["P2"] + 10
    assert g.state.player("P3").cash == cash["P3"] + 15  # minor A's owner: a flat $15
    assert g.state.corporations["A"].cash == 15
    assert g.state.companies["B"].owner is None  # the auction goes on
    assert g.round.kind == "auction"


def test_mexican_national_brings_the_ndm_presidency_and_a_free_par() -> None:
    g = fresh()
    bid(g, "P1", "MNR", 145)
    for pid, company, price in (("P2", "MCAR", 20), ("P3", "KCMO", 40), ("P1", "A", 50),
                                ("P2", "B", 50), ("P3", "C", 50), ("P1", "MIR", 100)):
        bid(g, pid, company, price)
    assert g.round.kinds() == ["par"] and g.current_entity() == ("P1", "player")
    cash = g.state.player("P1").cash
    act(g, "P1", "par", etype="player", corporation="NdM", share_price="90,0,5")
    ndm = g.state.corporations["NdM"]
    assert ndm.par == 90 and next(c for c in ndm.certs if c.president).owner == "P1"
    assert g.state.player("P1").cash == cash
    assert next(c for c in g.state.corporations["CHI"].certs if c.id == "CHI_1").owner == "P1"  # via MIR
    assert g.round.kind == "stock" and g.current_entity() == ("P2", "player")
