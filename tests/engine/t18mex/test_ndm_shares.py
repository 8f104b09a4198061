"""NdM shares: not buyable before phase 3½, started only through the Mexican National, the
5% trade-ins outside the certificate limit, NdM_9 reserved until the merger."""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.core.market import move
from engine.game import Game
from tests.engine.t18mex._helpers import G13315, G17849, act, at, rejected


def test_ndm_not_for_sale_before_phase_3_5() -> None:
    g = at(G13315, 56)  # stock round 2, phase 2
    pid = g.round.current()[0]
    rejected(g, pid, "buy_shares", "stock.buy", "NdM shares may not be bought or sold before phase 3½",
             etype="player", shares=["NdM_1"], percent=10)


def test_ndm_is_started_by_the_mexican_national_only() -> None:
    g = at(G13315, 7)
    assert g.round.kinds() == ["par"]
    rejected(g, "671", "bid", "auction.par_first", "must first choose a par value for NdM",
             etype="player", company="MCAR", price=20)
    rejected(g, "671", "par", "stock.par", "not a par value", etype="player",
             corporation="NdM", share_price="100,0,6")
    g = at(G13315, 8)
    ndm = g.state.corporations["NdM"]
    assert ndm.ipoed and ndm.par == 90 and not ndm.floated
    assert g.state.player("671").cash == at(G13315, 7).state.player("671").cash  # the par is free
    pid = g.round.current()[0]
    rejected(g, pid, "par", "stock.par", "already been started", etype="player",
             corporation="NdM", share_price="90,0,5")


def test_reserved_merger_share_and_five_percent_certificates() -> None:
    g = at(G13315, 165)  # stock round after phase 3½, before the merger
    pid = g.round.current()[0]
    rejected(g, pid, "buy_shares", "stock.buy", "reserved trade-in certificate", etype="player",
             shares=["NdM_9"], percent=10)
    ndm = g.state.corporations["NdM"]
    five = next(c for c in ndm.certs if c.id == "NdM_7")
    assert five.percent == 5 and not g.title.cert_counts(ndm, five)
    # a 5% certificate is worth half a share, rounded up
    holder = g.state.player(five.owner)
    price = g.title.share_price(ndm)
    others = g.title.player_value(g, holder) - math.ceil(price / 2)
    five.owner = "market"
    assert g.title.player_value(g, holder) == others


def test_five_percent_sale_pays_half_a_share_rounded_up_and_keeps_the_price() -> None:
    before, after = at(G17849, 345), at(G17849, 346)  # 1539 sells NdM_7 at $55 for a forced buy
    ndm_b, ndm_a = before.state.corporations["NdM"], after.state.corporations["NdM"]
    assert after.state.player("1539").cash - before.state.player("1539").cash == 28
    assert ndm_a.cell == ndm_b.cell


def test_swap_a_five_percent_certificate_for_a_pool_share() -> None:
    g = at(G13315, 165)  # a stock turn after phase 3½
    pid = g.round.current()[0]
    ndm = g.state.corporations["NdM"]
    five = next(c for c in ndm.certs if c.id == "NdM_7")
    ten = next(c for c in ndm.certs if c.percent == 10 and c.owner == "ipo" and c.id != "NdM_9")
    five.owner, ten.owner = pid, "market"  # set the position up: a 5% held, a 10% in the pool
    price = g.title.share_price(ndm)
    cash = g.state.player(pid).cash
    act(g, pid, "buy_shares", etype="player", shares=[ten.id], percent=10, swap="NdM_7")
    assert (ten.owner, five.owner) == (pid, "market")
    assert g.state.player(pid).cash == cash - (price - math.ceil(price / 2))


def _swap_position(cash_from_price: Callable[[int], int]) -> tuple[Game, str, str, int]:
    """A stock turn with a 5% NdM certificate held, a 10% one in the pool, the NdM at $75 and
    the player's cash set from the price."""
    g = at(G13315, 165)
    pid = g.round.current()[0]
    ndm = g.state.corporations["NdM"]
    five = next(c for c in ndm.certs if c.id == "NdM_7")
    ten = next(c for c in ndm.certs if c.percent == 10 and c.owner == "ipo" and c.id != "NdM_9")
    five.owner, ten.owner = pid, "market"
    m = g.title.market
    move(g.state, ndm, m.left(m.left(ndm.cell)))  # $90 -> $75
    price = g.title.share_price(ndm)
    g.state.player(pid).cash = cash_from_price(price)
    return g, pid, ten.id, price


def test_swap_needs_the_price_of_a_five_percent_purchase_in_cash() -> None:
    """As on the site, a swap is allowed when a 5% purchase would be: the player's cash must
    cover half the share price rounded up, though he then pays the price less that half."""
    g, pid, ten, price = _swap_position(lambda p: p - math.ceil(p / 2))  # exactly the swap's cost
    assert price % 2 == 1  # an odd price: the half rounded up is more than the swap's cost
    assert g.round.swap_options(pid) == []
    rejected(g, pid, "buy_shares", "stock.swap", "The swap needs", etype="player",
             shares=[ten], percent=10, swap="NdM_7")
    g, pid, ten, price = _swap_position(lambda p: math.ceil(p / 2))
    assert g.round.swap_options(pid) == [(ten, "NdM_7", price - math.ceil(price / 2))]
    act(g, pid, "buy_shares", etype="player", shares=[ten], percent=10, swap="NdM_7")
    assert g.state.player(pid).cash == math.ceil(price / 2) - (price - math.ceil(price / 2))
