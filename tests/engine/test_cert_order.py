"""Certificate ids sit with the same holders as on the 18xx.games site after every move.

The site keeps each holder's certificates of a corporation in acquisition order (a moved
certificate goes to the end of the receiver's list) and takes certificates from those lists:
the new president hands over the first ones he acquired (18MEX: the largest first, the latest
acquired first among equal ones); a partial sale (the president's certificate sold as part of a
smaller sale) gets its unsold part back as the first certificates of the market's list. An export
naming a certificate the site has elsewhere is refused by the site, so the ids matter.

The fixture cases are real games: the holders expected after the action are the site's (the
referee's lockstep agrees with them); the scripted cases build positions the fixtures lack.
"""

from __future__ import annotations

import pytest

from engine import Game
from engine.core import shares
from engine.flow.stock import par_place, sell_certs
from engine.io.export18xx import import_game
from engine.state import IPO, MARKET, Corporation
from tests.engine._helpers import do, load_fixture, par, pass_, standard_start

pytestmark = pytest.mark.filterwarnings("ignore")


def holders(game: Game, corp_id: str) -> dict[str, list[str]]:
    """Each holder's certificates of `corp_id`, in the holder's (acquisition) order."""
    corp = game.state.corporations[corp_id]
    return {o: [c.id for c in shares.certs_of(corp, o)] for o in sorted({c.owner for c in corp.certs})}


def after(key: str, action_id: int, corp_id: str) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """The fixture's holders of `corp_id` just before and just after action `action_id`."""
    data = load_fixture(key)
    return (holders(import_game(data, upto=action_id - 1), corp_id),
            holders(import_game(data, upto=action_id), corp_id))


def game_with(title: str, corp_id: str, players: int = 3) -> tuple[Game, Corporation, list[str]]:
    """A fresh game of `title` with `corp_id` parred (no certificate moved yet)."""
    g = Game(title, [f"P{i}" for i in range(1, players + 1)], ())
    corp = g.state.corporations[corp_id]
    t = g.title
    par_place(g, corp, t.market.parse_cell_id(next(iter(t.market.par_cells))))
    return g, corp, [p.id for p in g.state.players]


def give(corp: Corporation, owner: str, *ids: str) -> None:
    for cid in ids:
        shares.move(corp, next(c for c in corp.certs if c.id == cid), owner)


# ---------------------------------------------------------------- acquisition order
@pytest.mark.parametrize(("title", "corp_id"), [("18MS", "GMO"), ("1870", "MKT"), ("18MEX", "NdM")])
def test_a_moved_certificate_goes_to_the_end_of_the_receivers_list(title: str, corp_id: str) -> None:
    _, corp, _ = game_with(title, corp_id)
    give(corp, "P1", f"{corp_id}_5", f"{corp_id}_2")
    give(corp, MARKET, f"{corp_id}_3", f"{corp_id}_1")
    give(corp, "P1", f"{corp_id}_1", f"{corp_id}_4")
    assert [c.id for c in shares.certs_of(corp, "P1")] == [f"{corp_id}_{i}" for i in (5, 2, 1, 4)]
    assert [c.id for c in shares.certs_of(corp, MARKET)] == [f"{corp_id}_3"]


def test_1870_reissue_keeps_a_redeemed_share_in_its_place() -> None:
    """The site keeps the treasury and the offering in one list: a reissued share does not move."""
    _, corp, _ = game_with("1870", "MKT")
    give(corp, "P1", "MKT_1")
    give(corp, "MKT", "MKT_1")  # redeemed into the treasury: the end of the corporation's list
    order = [c.id for c in sorted((c for c in corp.certs if c.owner in (IPO, "MKT")), key=lambda c: c.seq)]
    give(corp, IPO, "MKT_1")  # reissued
    assert [c.id for c in sorted((c for c in corp.certs if c.owner == IPO), key=lambda c: c.seq)] == order
    assert order[-1] == "MKT_1"


# ---------------------------------------------------------------- purchase changing the presidency
def test_18ms_purchase_changing_presidency_hands_over_the_first_acquired() -> None:
    """P2 buys GMO_5, GMO_4 and then GMO_1: the presidency passes to him and his first two
    certificates (GMO_5, GMO_4, not the lowest ids) go to P1, the old president."""
    g = standard_start(3)
    par(g, "P1", "GMO", 80)
    for cert in ("GMO_5", "GMO_4"):
        do(g, "P2", "buy_shares", shares=[cert], percent=10)
        pass_(g, "P3")
        pass_(g, "P1")
    do(g, "P2", "buy_shares", shares=["GMO_1"], percent=10)
    h = holders(g, "GMO")
    assert h["P2"] == ["GMO_1", "GMO_0"]
    assert h["P1"] == ["GMO_5", "GMO_4"]


def test_1870_purchase_changing_presidency_hands_over_the_first_acquired() -> None:
    """34110 #160: 6451 holds SLSF_1, SLSF_2 and buys SLSF_3; SLSF_1, SLSF_2 go to 6449."""
    before, now = after("1870/34110.json", 160, "SLSF")
    assert before["6451"] == ["SLSF_1", "SLSF_2"] and before["6449"] == ["SLSF_0"]
    assert now["6449"] == ["SLSF_1", "SLSF_2"]
    assert now["6451"] == ["SLSF_3", "SLSF_0"]


@pytest.mark.parametrize(("key", "action_id", "corp_id", "old", "new", "handed"), [
    # 1027 holds CHI_1 (MIR), CHI_2 and buys CHI_3: the latest two (CHI_3, CHI_2) go
    ("18MEX/17849.json", 141, "CHI", "1539", "1027", ["CHI_3", "CHI_2"]),
    ("18MEX/hotseat01.json", 317, "MC", "5560", "5621", ["MC_4", "MC_2"]),
    ("18MEX/18MEX_game_end_stock_market.json", 469, "UdY", "17020", "8832", ["UdY_8", "UdY_7"]),
])
def test_18mex_purchase_changing_presidency_hands_over_the_latest_acquired(
        key: str, action_id: int, corp_id: str, old: str, new: str, handed: list[str]) -> None:
    before, now = after(key, action_id, corp_id)
    pres = f"{corp_id}_0"
    assert pres in before[old]
    assert now[old] == [c for c in before[old] if c != pres] + handed
    assert now[new][-1] == pres and not set(handed) & set(now[new])


def test_18mex_ndm_swap_counts_certificates_largest_first() -> None:
    """NdM: the new president hands over two certificates, the 10% ones before any 5% (so
    10% + 5% when he has one 10%), the latest acquired first among equal ones."""
    g, ndm, players = game_with("18MEX", "NdM")
    fives = [c.id for c in ndm.certs if c.percent == 5]
    give(ndm, "P1", "NdM_0")
    give(ndm, "P2", fives[0], "NdM_1", fives[1])
    give(ndm, "P2", "NdM_2")  # P2 30% > P1 20%
    new = shares.update_presidency(ndm, players, "P1", g.title.presidency_swap_pick)
    assert new == "P2"
    assert holders(g, "NdM")["P1"] == ["NdM_2", "NdM_1"]
    assert holders(g, "NdM")["P2"] == fives + ["NdM_0"]
    # with a single 10% one: the 10% and the latest 5%
    g, ndm, players = game_with("18MEX", "NdM")
    give(ndm, "P1", "NdM_0")
    give(ndm, "P2", fives[0], "NdM_1", fives[1], "NdM_2")
    give(ndm, "P2", "NdM_3")  # P2 40% > P1 20%; takes NdM_3, NdM_2
    shares.update_presidency(ndm, players, "P1", g.title.presidency_swap_pick)
    assert holders(g, "NdM")["P1"] == ["NdM_3", "NdM_2"]


# ---------------------------------------------------------------- sales including the president's certificate
def test_18ms_partial_sale_returns_the_first_of_the_market() -> None:
    """17510 #267: 1020 (IC_0, IC_2, IC_3) sells IC_2, IC_3, IC_0 as 30%; 2300 (IC_1, IC_4,
    IC_5) becomes president. All three go to the market in that order; 2300's first two (IC_1,
    IC_4) go to the market too (1020 is left below 20%); IC_0 goes to 2300; the unsold 10% comes
    back to 1020 as the first of the market's list, IC_2."""
    before, now = after("18MS/17510.json", 267, "IC")
    assert before["1020"] == ["IC_0", "IC_2", "IC_3"] and before["2300"] == ["IC_1", "IC_4", "IC_5"]
    assert now["1020"] == ["IC_2"]
    assert now["2300"] == ["IC_5", "IC_0"]
    assert now[MARKET] == ["IC_3", "IC_1", "IC_4"]


def test_1870_partial_sale_returns_the_first_of_the_market() -> None:
    """1870_game_end_bankrupt #115: 7438 sells MKT_1..MKT_4 and MKT_0 as 50%; MKT_1 (first in
    the market's list) comes back to him, 9263's first two (MKT_5, MKT_6) go to the market."""
    before, now = after("1870/1870_game_end_bankrupt.json", 115, "MKT")
    assert before["9263"] == ["MKT_5", "MKT_6", "MKT_7", "MKT_8"]
    assert now["7438"] == ["MKT_1"]
    assert now["9263"] == ["MKT_7", "MKT_8", "MKT_0"]
    assert now[MARKET] == ["MKT_2", "MKT_3", "MKT_4", "MKT_5", "MKT_6"]


def test_18mex_sale_changing_presidency_swaps_to_the_market() -> None:
    """17849 #248: 1787 sells MC_3 and MC_0 (30%); 1230 (MC_4, MC_2, MC_7) takes the presidency
    and hands over his latest two, MC_7 and MC_2, to the market (1787 holds nothing more)."""
    before, now = after("18MEX/17849.json", 248, "MC")
    assert before["1230"] == ["MC_4", "MC_2", "MC_7"]
    assert now["1230"] == ["MC_4", "MC_0"]
    assert now[MARKET] == ["MC_3", "MC_7", "MC_2"]


def _sell(g: Game, corp: Corporation, pid: str, ids: list[str], pct: int) -> None:
    sell_certs(g, corp, pid, [next(x for x in corp.certs if x.id == i) for i in ids], pct)


def test_18mex_uneven_presidency_exchange_is_not_counted_in_later_presidency_checks() -> None:
    """As on the site, the presidency checks count holdings by the transfers made, not by the
    certificates a presidency exchange moves: P2 takes the NdM presidency handing over a 10%
    and a 5% certificate (15%) for the 20% one, and counts 5% less than he holds from then on.
    Holding 30% (counted 25%) after a 5% sale, he loses the presidency to P3 holding 30%
    (sweep 18MEX seed 100: on a plain tie the president would keep it)."""
    g, ndm, _ = game_with("18MEX", "NdM", players=4)
    fives = [c.id for c in ndm.certs if c.percent == 5]
    give(ndm, "P1", "NdM_0", "NdM_1")
    give(ndm, "P2", fives[0], fives[1], "NdM_2")
    _sell(g, ndm, "P1", ["NdM_1", "NdM_0"], 20)  # partial: P2 (20%) takes it with 10% + 5%
    assert shares.president(ndm) == "P2"
    assert holders(g, "NdM")["P2"] == [fives[0], "NdM_0"]
    assert (shares.percent(ndm, "P2"), shares.counted(ndm, "P2")) == (25, 20)
    assert shares.counted(ndm, "P1") == shares.percent(ndm, "P1") == 10
    give(ndm, "P2", "NdM_6", fives[1])  # P2 holds 40%, counts 35%
    give(ndm, "P3", "NdM_3", "NdM_4", "NdM_5")  # P3 30%
    shares.update_presidency(ndm, [p.id for p in g.state.players], "P2", g.title.presidency_swap_pick)
    assert shares.president(ndm) == "P2"
    _sell(g, ndm, "P2", [fives[0]], 5)  # 35% held, 30% counted: a tie with P3, P2 keeps it
    assert shares.president(ndm) == "P2"
    _sell(g, ndm, "P2", [fives[1]], 5)  # 30% held, 25% counted: P3 (30%) takes it
    assert shares.president(ndm) == "P3"
    assert shares.percent(ndm, "P2") == 30 and shares.counted(ndm, "P2") == 25


def test_18mex_partial_sale_getting_a_five_percent_back_counts_the_ten_percent_kept() -> None:
    """As on the site (sweep 18MEX seed 43, #412): P1 sells his 20% president's certificate as
    10%; the 10% he keeps comes back as the first of the market's list, here a 5% NdM
    certificate. He holds 5% but counts the 10% kept."""
    g, ndm, _ = game_with("18MEX", "NdM", players=4)
    fives = [c.id for c in ndm.certs if c.percent == 5]
    give(ndm, MARKET, fives[0])
    give(ndm, "P1", "NdM_0")
    give(ndm, "P2", "NdM_1", "NdM_2")
    _sell(g, ndm, "P1", ["NdM_0"], 10)
    assert shares.president(ndm) == "P2"
    assert holders(g, "NdM")["P1"] == [fives[0]]
    assert (shares.percent(ndm, "P1"), shares.counted(ndm, "P1")) == (5, 10)


def test_18mex_uneven_presidency_exchange_to_the_market_keeps_the_ndm_from_selling_out() -> None:
    """As on the site, a company is sold out when the players' counted holdings make 100%: after
    a new president's 10% + 5% went to the market for the 20%, the players hold every NdM
    certificate but count 95%, so the NdM does not rise at the end of the stock round."""
    g, ndm, _ = game_with("18MEX", "NdM", players=4)
    fives = [c.id for c in ndm.certs if c.percent == 5]
    give(ndm, "P1", "NdM_0", "NdM_1")
    give(ndm, "P2", fives[0], fives[1], "NdM_2")
    _sell(g, ndm, "P1", ["NdM_1", "NdM_0"], 20)  # P2 takes the presidency, 10% + 5% to the market
    assert sum(shares.counted(ndm, p.id) for p in g.state.players) == 30
    for c in ndm.certs:
        if c.owner in (IPO, MARKET):
            shares.move(ndm, c, "P3" if c.percent == 5 or shares.percent(ndm, "P3") < 40 else "P4")
    assert all(c.owner in {"P1", "P2", "P3", "P4"} for c in ndm.certs)
    assert sum(shares.counted(ndm, p.id) for p in g.state.players) == 95
    assert not shares.sold_out(ndm)
    cell = ndm.cell
    g.title.end_of_stock_round(g, g.round)
    assert ndm.cell == cell


@pytest.mark.parametrize(("title", "corp_id"), [("18MS", "GMO"), ("1870", "MKT"), ("18MEX", "MC")])
def test_partial_sale_swap_to_market_and_an_older_market_certificate_back(title: str, corp_id: str) -> None:
    """P1 (c0 president, c1) sells c1, c0 as 20%; P2 (c5, c4, c6) takes the presidency. P1 holds
    no certificate after the move, so P2's two (his first two; 18MEX his latest two) go to the
    market; the unsold 10% comes back to P1 as the first of the market's list: c8, in the market
    since before the sale."""
    g, corp, _ = game_with(title, corp_id)
    c = [f"{corp_id}_{i}" for i in range(9)]
    give(corp, MARKET, c[8])
    give(corp, "P1", c[0], c[1])
    give(corp, "P2", c[5], c[4], c[6])
    _sell(g, corp, "P1", [c[1], c[0]], 20)
    h = holders(g, corp_id)
    assert shares.president(corp) == "P2"
    handed, kept = ([c[6], c[4]], c[5]) if title == "18MEX" else ([c[5], c[4]], c[6])
    assert h["P1"] == [c[8]]
    assert h["P2"] == [kept, c[0]]
    assert h[MARKET] == [c[1], *handed]


@pytest.mark.parametrize(("title", "corp_id"), [("18MS", "GMO"), ("1870", "MKT"), ("18MEX", "MC")])
def test_partial_sale_swap_to_the_old_president_holding_enough(title: str, corp_id: str) -> None:
    """P1 (c0, c1, c2, c3) sells c3, c0 as 20%; P2 (c5, c4, c6, c7) takes the presidency. P1
    still holds 20% in certificates, so P2's two (c5, c4; 18MEX c7, c6) go to him, after which
    the unsold 10% comes back as the first of the market's list (c8)."""
    g, corp, _ = game_with(title, corp_id)
    c = [f"{corp_id}_{i}" for i in range(9)]
    give(corp, MARKET, c[8])
    give(corp, "P1", c[0], c[1], c[2], c[3])
    give(corp, "P2", c[5], c[4], c[6], c[7])
    _sell(g, corp, "P1", [c[3], c[0]], 20)
    h = holders(g, corp_id)
    assert shares.president(corp) == "P2"
    handed, kept = ([c[7], c[6]], [c[5], c[4]]) if title == "18MEX" else ([c[5], c[4]], [c[6], c[7]])
    assert h["P1"] == [c[1], c[2], *handed, c[8]]
    assert h["P2"] == [*kept, c[0]]
    assert h[MARKET] == [c[3]]


# ---------------------------------------------------------------- picking certificates for a sale
@pytest.mark.parametrize(("title", "corp_id"), [("18MS", "GMO"), ("1870", "MKT"), ("18MEX", "MC")])
def test_pick_for_sale_takes_the_first_acquired_then_the_presidents(title: str, corp_id: str) -> None:
    """As the site's sale bundles: ordinary certificates in acquisition order, the president's
    certificate last; a sale falling 10% short of all he holds is all of them, partly sold."""
    _, corp, _ = game_with(title, corp_id)
    give(corp, "P1", f"{corp_id}_4", f"{corp_id}_0", f"{corp_id}_1", f"{corp_id}_3")

    def ids(pct: int) -> list[str]:
        return [c.id for c in shares.pick_for_sale(corp, "P1", pct)]

    assert ids(10) == [f"{corp_id}_4"]
    assert ids(30) == [f"{corp_id}_4", f"{corp_id}_1", f"{corp_id}_3"]
    assert ids(40) == [f"{corp_id}_4", f"{corp_id}_1", f"{corp_id}_3", f"{corp_id}_0"]
    assert ids(50) == ids(40)


def test_18mex_pick_for_sale_sells_a_5_percent_ndm_alone() -> None:
    _, ndm, _ = game_with("18MEX", "NdM")
    five = next(c.id for c in ndm.certs if c.percent == 5)
    give(ndm, "P1", five, "NdM_2", "NdM_1")
    assert [c.id for c in shares.pick_for_sale(ndm, "P1", 20)] == ["NdM_2", "NdM_1"]
    assert [c.id for c in shares.pick_for_sale(ndm, "P1", 5)] == [five]



# ---------------------------------------------------------------- 1870 price protection
def test_1870_protection_buys_back_the_bundle_sold_in_its_order() -> None:
    """40469 #611: 5695 protects 3268's sale of SLSF_2, SLSF_3; they join the end of his list."""
    before, now = after("1870/40469_price_protect_allowed.json", 611, "SLSF")
    assert now["5695"] == before["5695"] + ["SLSF_2", "SLSF_3"]


def test_1870_protection_takes_the_recorded_bundle_whatever_is_named() -> None:
    """As on the site, the protection moves the certificates of the queued sale (in their
    order), not those the action names nor the first of the market's list."""
    from engine.titles.t1870 import protection
    from engine.titles.t1870.state import Sale

    g, corp, _ = game_with("1870", "MKT")
    give(corp, "P1", "MKT_0")
    give(corp, MARKET, "MKT_2", "MKT_7", "MKT_5")
    sale = Sale(corp="MKT", pct=20, president="P1", seller="P2", certs=["MKT_5", "MKT_7"])
    protection.protect(g, sale, "P1", ["MKT_2"])
    assert holders(g, "MKT")["P1"] == ["MKT_0", "MKT_5", "MKT_7"]
    assert holders(g, "MKT")[MARKET] == ["MKT_2"]


def test_18mex_swap_sale_takes_the_named_or_first_pool_5_percent() -> None:
    """Selling a 10% NdM share for 5%: the 5% named by the action (`swap`, as the site's action),
    else the first of the pool's list, comes to the seller before the 10% joins the pool."""
    g, ndm, _ = game_with("18MEX", "NdM")
    fives = [c.id for c in ndm.certs if c.percent == 5]
    give(ndm, MARKET, fives[1], fives[0])
    give(ndm, "P1", "NdM_1", "NdM_2")
    ten = [next(c for c in ndm.certs if c.id == "NdM_1")]
    assert g.title.swap_sale(g, ndm, "P1", ten, 5)
    assert holders(g, "NdM")["P1"] == ["NdM_2", fives[1]]
    assert holders(g, "NdM")[MARKET] == [fives[0], "NdM_1"]
    ten = [next(c for c in ndm.certs if c.id == "NdM_2")]
    give(ndm, MARKET, fives[1])
    assert g.title.swap_sale(g, ndm, "P1", ten, 5, fives[1])
    assert holders(g, "NdM")["P1"] == [fives[1]]
    assert holders(g, "NdM")[MARKET] == [fives[0], "NdM_1", "NdM_2"]
