"""18MEX's own decisions in the legal answer (engine.legal.legal_moves / candidate_actions):
the merger offer, the NdM's choice of token, discards, the KCMO's Copper Canyon tile, the NdM
5%/10% swaps, private purchases between players, and the forced-purchase limits."""

from __future__ import annotations

import pytest

from engine.core import shares
from engine.errors import EngineError
from engine.legal import candidate_actions, legal_moves
from engine.state import IPO, MARKET
from tests.engine.t18mex._helpers import G13315, G17849, GHOT, act, at, rejected


def _cert(g, cid):  # type: ignore[no-untyped-def]
    corp = g.state.corporations[cid.rsplit("_", 1)[0]]
    return next(c for c in corp.certs if c.id == cid)


def test_merger_offer_is_the_candidates_decision_and_pass_moves_it_on() -> None:
    g = at(G13315, 265)  # the first 5 was bought: MEX is offered the merger
    lg = legal_moves(g)
    assert (lg.entity, lg.kinds) == ("MEX", ("merge", "pass"))
    assert lg.choices == [{"entity": "MEX", "entity_type": "corporation", "type": "merge", "corporation": "MEX"}]
    assert {"entity": "MEX", "entity_type": "corporation", "type": "pass"} in candidate_actions(g)
    act(g, "MEX", "pass")
    lg = legal_moves(g)
    assert lg.entity == "CHI" and lg.choices[0]["corporation"] == "CHI"


def test_ndm_chooses_which_merged_token_to_keep() -> None:
    g = at(G13315, 265)
    st, t = g.state, g.title
    mex = st.corporations["MEX"]
    # MEX has tokens in Tampico and Oaxaca too, besides its home: more than the one exchange token left
    t._put_token(g, mex, mex.tokens[1], "M12", 0, 0)
    t._put_token(g, mex, mex.tokens[2], "S12", 0, 0)
    act(g, "MEX", "merge", corporation="MEX")
    lg = legal_moves(g)
    assert (lg.entity, lg.kinds) == ("NdM", ("assign",))
    assert sorted(c["target"] for c in lg.choices) == ["M12", "S12"]
    assert st.city_tokens[("P13", 0)][0] == "NdM"  # the home token was swapped at once
    with pytest.raises(EngineError, match="Choose one of M12, S12"):
        t._select_city(g, "K6")
    act(g, "NdM", "assign", target="S12")
    assert st.city_tokens[("S12", 0)][0] == "NdM" and "MEX" not in st.city_tokens[("M12", 0)]
    ndm = st.corporations["NdM"]
    assert sum(1 for tok in ndm.tokens if tok.hex is None and tok.cost == 80) == 1  # the unused one
    assert legal_moves(g).kinds != ("assign",)


def test_discard_over_the_limit_is_offered_to_the_ndm() -> None:
    g = at(GHOT, 532)  # CHI merged into the NdM with its trains
    lg = legal_moves(g)
    assert (lg.entity, lg.kinds) == ("NdM", ("discard_train",))
    owned = {tr.id for tr in g.state.trains if tr.owner == "NdM"}
    assert {c["train"] for c in lg.choices} == owned
    act(g, "NdM", "discard_train", train="3'-1")
    assert legal_moves(g).kinds != ("discard_train",)


def test_kcmo_copper_canyon_tile_is_offered_in_the_track_step() -> None:
    g = at(G13315, 131)
    lg = legal_moves(g)
    assert ("KCMO", "lay_tile") in lg.company_abilities
    lays = [c for c in lg.choices if c["entity"] == "KCMO"]
    assert {c["hex"] for c in lays} == {"F5"} and 4 in {c["rotation"] for c in lays}
    g.apply(next(c for c in lays if c["rotation"] == 4))
    assert g.state.companies["KCMO"].closed
    assert not [c for c in legal_moves(g).choices if c["entity"] == "KCMO"]


def test_selling_a_ten_percent_ndm_share_for_five_takes_a_five_back() -> None:
    g = at(G13315, 169)  # a stock turn of 3542, who holds NdM_8 (5%)
    pid = "3542"
    assert legal_moves(g).entity == pid
    st, t = g.state, g.title
    ndm = st.corporations["NdM"]
    ten, five = _cert(g, "NdM_3"), _cert(g, "NdM_8")
    ten.owner = pid   # a 10% share of his own
    five.owner = MARKET  # and a 5% one in the pool
    st.bank.cash += 0
    # the site's action: the 10% sold (percent 10), the pool's 5% named as the swap
    sale = {"entity": pid, "entity_type": "player", "type": "sell_shares", "shares": ["NdM_3"], "percent": 10,
            "swap": "NdM_8"}
    assert sale in legal_moves(g).choices
    cash, cell, price = st.player(pid).cash, ndm.cell, t.share_price(ndm)
    g.apply(sale)
    assert ten.owner == MARKET and five.owner == pid
    assert st.player(pid).cash - cash == price - (price + 1) // 2  # the share less the 5%'s value
    assert ndm.cell == cell  # the price does not move


def test_buying_a_pool_ten_percent_by_handing_in_a_five() -> None:
    g = at(G13315, 169)
    pid = "3542"
    st, t = g.state, g.title
    ndm = st.corporations["NdM"]
    ten = next(c for c in ndm.certs if c.owner == IPO and c.percent == 10 and c.id != "NdM_9")
    ten.owner = MARKET
    price = t.share_price(ndm)
    st.player(pid).cash, st.bank.cash = price // 2, st.bank.cash + st.player(pid).cash - price // 2
    swap = {"entity": pid, "entity_type": "player", "type": "buy_shares", "shares": [ten.id], "percent": 10,
            "swap": "NdM_8"}
    assert swap in legal_moves(g).choices  # half the price is enough, as on the site
    g.apply(swap)
    assert ten.owner == pid and _cert(g, "NdM_8").owner == MARKET
    assert st.player(pid).cash == price // 2 - (price - (price + 1) // 2)
    # the site also takes a swap for a 10% share of the initial offering (18MEX hotseat01,
    # action 272, later undone): the 5% certificate then goes to the initial offering
    g = at(G13315, 169)
    g.apply({**swap, "shares": ["NdM_4"]})
    assert _cert(g, "NdM_4").owner == pid and _cert(g, "NdM_8").owner == IPO
    # but only a 5% certificate of the buyer's may be handed in
    g = at(G13315, 169)
    rejected(g, pid, "buy_shares", "stock.swap", "Only a 5% NdM certificate of yours", etype="player",
             shares=["NdM_4"], percent=10, swap="NdM_7")


def test_private_purchase_between_players_in_a_stock_round() -> None:
    g = at(G13315, 8)  # the first stock round, phase 2
    lg = legal_moves(g)
    pid = lg.entity
    assert "buy_company" in lg.kinds
    cash = g.state.player(pid).cash
    assert ("MIR", 1, cash) in lg.companies
    assert not [c for c in candidate_actions(g) if c["type"] == "buy_company"]  # a deal, never proposed blindly
    mir = g.state.companies["MIR"]
    seller = g.state.player(str(mir.owner))
    seller_cash = seller.cash
    for bad in ("A", "MNR"):
        if g.state.companies[bad].owner not in (pid, None):
            rejected(g, pid, "buy_company", "stock.buy_company", "cannot buy", etype="player", company=bad, price=10)
    rejected(g, pid, "buy_company", "stock.buy_company", "Pay between", etype="player", company="MIR",
             price=cash + 1)
    act(g, pid, "buy_company", etype="player", company="MIR", price=55)
    mir, seller = g.state.companies["MIR"], g.state.player(seller.id)  # rebuilt after the rejections
    assert mir.owner == pid and g.state.player(pid).cash == cash - 55 and seller.cash == seller_cash + 55
    lg = legal_moves(g)
    assert lg.entity != pid or "buy_shares" not in lg.kinds  # that was the turn's purchase
    if lg.entity == pid:
        rejected(g, pid, "buy_company", "stock.buy_company", "cannot buy", etype="player", company="KCMO", price=5)
    else:
        rejected(g, pid, "buy_company", "turn.wrong_player", "turn", etype="player", company="KCMO", price=5)


def _forced_tm():  # type: ignore[no-untyped-def]
    g = at(G13315, 42)  # TM must buy its first train ($100)
    st = g.state
    tm = st.corporations["TM"]
    pid = shares.president(tm)
    assert pid is not None
    st.bank.cash += tm.cash
    tm.cash = 0
    return g, tm, pid


def test_forced_sale_raises_no_more_than_needed() -> None:
    g, tm, pid = _forced_tm()  # $35 in hand, $65 short; TM is at $70
    assert g.state.player(pid).cash == 35
    act(g, pid, "sell_shares", etype="player", shares=["TM_1"], percent=10)
    assert g.state.player(pid).cash == 105
    act(g, "TM", "buy_train", train="2-3", price=100, variant="2")
    g, tm, pid = _forced_tm()
    rejected(g, pid, "sell_shares", "ebuy.too_much", "raises more than needed", etype="player",
             shares=["TM_1", "TM_2"], percent=20)
    # (the rejection rebuilt the fixture's state: TM's own $670 pays, nothing may be sold)
    rejected(g, pid, "sell_shares", "ebuy.enough", "already have", etype="player", shares=["TM_1"], percent=10)


def test_bankruptcy_only_when_even_the_sales_cannot_pay() -> None:
    g = at(G13315, 42)
    rejected(g, "TM", "bankrupt", "bankrupt.can_pay", "can still raise")  # TM's own cash pays
    g, tm, pid = _forced_tm()  # $35 short of $100, but $210 of TM shares to sell
    assert "bankrupt" not in legal_moves(g).kinds
    assert not g.title.may_declare_bankruptcy(g, g.round, tm)
    for cid in ("TM_1", "TM_2", "TM_3"):
        _cert(g, cid).owner = IPO  # nothing left that he may sell
    for corp in g.state.corporations.values():
        for c in corp.certs:
            if c.owner == pid and not c.president:
                c.owner = IPO
    assert "bankrupt" in legal_moves(g).kinds
    act(g, "TM", "bankrupt")
    assert g.finished and g.state.end_reason == "bankrupt"


def test_forced_purchase_from_another_company_capped_at_the_treasury() -> None:
    # as on the site (no emergency purchase from other companies): TM must buy a train (the bank
    # has only 4Ds at $700) and holds $392; UdY's 5 costs it $1 to $392, the president adding nothing
    g = at(G17849, 342)
    st = g.state
    tm = st.corporations["TM"]
    pid = shares.president(tm)
    assert pid is not None and tm.cash == 392
    offers = {t[0]: t[2:4] for t in legal_moves(g).trains}
    assert offers["5-1"] == (1, 392)
    assert "5-0" not in offers  # the NdM's trains go at face value ($450): beyond the treasury
    rejected(g, "TM", "buy_train", "train.cash", "at most its treasury", train="5-1", price=450)
    rejected(g, "TM", "buy_train", "train.cash", "at most its treasury", train="5-1", price=393)
    rejected(g, "TM", "buy_train", "train.cash", "at most its treasury", train="5-0", price=450)
    pres_cash = g.state.player(pid).cash
    act(g, "TM", "buy_train", train="5-1", price=392)
    assert g.state.player(pid).cash == pres_cash and g.state.corporations["TM"].cash == 0
    # once the president has sold shares for a bank train, no other company's train
    g = at(G17849, 345)
    assert "5-1" not in {t[0] for t in legal_moves(g).trains}
    rejected(g, "TM", "buy_train", "train.other", "sold shares", train="5-1", price=100)


def test_no_train_from_another_company_with_an_empty_treasury() -> None:
    g = at(G17849, 342)
    tm = g.state.corporations["TM"]
    g.state.bank.cash += tm.cash
    tm.cash = 0
    assert not [t for t in legal_moves(g).trains if t[4] != "bank"]
    rejected(g, "TM", "buy_train", "train.other", "no money", train="5-1", price=1)


def test_forced_sales_offered_are_the_allowed_ones() -> None:
    g, tm, pid = _forced_tm()  # $65 short; TM at $70: one TM share, not two
    sales = [c for c in legal_moves(g).choices if c["type"] == "sell_shares"]
    assert {"entity": pid, "entity_type": "player", "type": "sell_shares", "shares": ["TM_1"],
            "percent": 10} in sales
    assert not [c for c in sales if c["shares"][0].startswith("TM") and c["percent"] > 10]
    for sale in sales:
        target = g.state.corporations[sale["shares"][0].rsplit("_", 1)[0]]
        assert g.title.ebuy_sale_error(g, tm, pid, target, sale["percent"]) is None
