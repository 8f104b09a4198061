"""Operating-round rules checked at positions of the real 18MS games (prefix replays)."""

from __future__ import annotations

import math

import pytest

from engine import EngineError
from engine.core import shares
from engine.io.export18xx import import_game
from engine.state import MARKET
from engine.titles.t18ms.state import ms_state
from tests.engine._helpers import load_fixture

F1, F2 = "18MS/14375.json", "18MS/17510.json"
IC = {"entity": "IC", "entity_type": "corporation"}


@pytest.fixture(scope="module")
def f1() -> dict:
    return load_fixture(F1)


@pytest.fixture(scope="module")
def f2() -> dict:
    return load_fixture(F2)


def rejected(g, act: dict, rule: str, match: str) -> EngineError:
    n = len(g.log)
    with pytest.raises(EngineError, match=match) as err:
        g.apply(act)
    assert err.value.rule == rule
    assert len(g.log) == n
    return err.value


def test_operating_order_and_private_revenue(f1) -> None:
    sr = import_game(f1, upto=20)
    g = import_game(f1, upto=21)  # the last SR1 buy (680: IC_5 at $90); OR 1 starts
    assert g.round.order == ["IC", "Fr", "GMO"]  # $90 IC (parred first), $90 Fr, $80 GMO
    st0, st = sr.state, g.state
    assert st.player("680").cash == st0.player("680").cash - 90 + 15  # M&M
    assert st.player("4861").cash == st0.player("4861").cash + 10  # BS
    assert st.player("686").cash == st0.player("686").cash + 5  # M&O
    assert st.phase == "2"


def test_track_rejections_in_phase_2(f1) -> None:
    g = import_game(f1, upto=21)
    lay = {**IC, "type": "lay_tile", "rotation": 0}
    rejected(g, {**lay, "hex": "E1", "tile": "57-0"}, "track.tile", r"No tile may be laid on E1 \(Jackson\)")
    rejected(g, {**lay, "hex": "I1", "tile": "57-0"}, "track.tile", "No tile may be laid on I1")
    rejected(g, {**lay, "hex": "B2", "tile": "14-0"}, "track.tile", "Green tiles are not available")
    rejected(g, {**IC, "type": "buy_train", "train": "2+-0", "price": 80, "variant": "2+"},
             "operating.order", "must first finish its track step")


def test_not_connected_lay_rejected(f1) -> None:
    g = import_game(f1, upto=21)
    options = g.legal().tiles
    far = ["H4", "G5", "F4", "E5", "D6", "H8", "G7"]
    for hex_name in far:
        if hex_name in options:
            continue
        for rot in range(6):
            try:
                g.apply({**IC, "type": "lay_tile", "hex": hex_name, "tile": "9-0", "rotation": rot})
            except EngineError as err:
                if err.rule == "track.connection":
                    assert "cannot reach" in str(err)
                    return
                continue
            pytest.fail(f"unconnected lay on {hex_name} accepted")
    pytest.fail("no unconnected hex found")


def test_first_turn_two_lays_later_one(f1, f2) -> None:
    g = import_game(f1, upto=58)  # Fr's first lay in OR 1 (F2, water $20)
    before = import_game(f1, upto=57)
    assert g.state.corporations["Fr"].cash == before.state.corporations["Fr"].cash - 20  # river
    assert "lay_tile" in g.legal().kinds  # the extra yellow lay of its first turn
    g = import_game(f1, upto=88)  # IC in OR 2 has laid its one tile
    assert "lay_tile" not in g.legal().kinds
    rejected(g, {**IC, "type": "lay_tile", "hex": "B8", "tile": "9-4", "rotation": 1},
             "operating.kind", "IC cannot lay tile now")


def test_terrain_cost_paid_only_once(f1, f2) -> None:
    upgrades = 0
    for data in (f1, f2):
        water = {h for h, x in import_game(data, upto=0).title.data.hexes.items() if x.terrain_cost}
        seen: list[tuple[int, int]] = []

        def before(g, act, seen=seen, water=water):
            if act.type == "lay_tile" and act.hex in water and act.entity_type == "corporation":
                corp = g.state.corporations[act.entity]
                seen.append((act.id, corp.cash, act.hex in g.state.tiles))

        import_game(data, before=before)
        upgrades += sum(1 for _, _, up in seen if up)
        for aid, cash_before, upgrade in seen:
            after = import_game(data, upto=aid)
            corp = after.state.corporations[next(a for a in data["actions"] if a["id"] == aid)["entity"]]
            cost = 0 if upgrade else after.title.data.hexes[
                next(a for a in data["actions"] if a["id"] == aid)["hex"]].terrain_cost
            assert corp.cash == cash_before - cost - _bonus(after, aid, data), aid
    assert upgrades, "no upgrade of a water hex in the fixtures"


def _bonus(g, aid: int, data: dict) -> int:
    """The Chattanooga bonus is paid by a lay in B10 only."""
    act = next(a for a in data["actions"] if a["id"] == aid)
    return -50 if act["hex"] == "B10" and ms_state(g).chattanooga else 0


def test_bs_lays_twice_in_one_or_and_chattanooga_bonus(f1) -> None:
    g = import_game(f1, upto=89)
    assert not ms_state(g).chattanooga
    cash = g.state.corporations["IC"].cash
    g.apply({"entity": "BS", "entity_type": "company", "type": "lay_tile", "hex": "B10",
             "tile": "9-5", "rotation": 1})
    assert ms_state(g).chattanooga and g.state.corporations["IC"].cash == cash + 50
    assert g.state.bank.cash == import_game(f1, upto=89).state.bank.cash - 50
    rejected(g, {"entity": "BS", "entity_type": "company", "type": "lay_tile", "hex": "C11",
                 "tile": "9-7", "rotation": 1}, "company.used", "extra tile lays are used up")


def test_new_orleans_token_pays_100_and_route_bonus(f1) -> None:
    g = import_game(f1, upto=94)
    cash = g.state.corporations["Fr"].cash
    assert ("I1-0-0", 40) in g.legal().token_cities
    g.apply({"entity": "Fr", "entity_type": "corporation", "type": "place_token", "city": "I1-0-0", "slot": 0})
    assert g.state.corporations["Fr"].cash == cash - 40 + 100
    assert ms_state(g).no_bonus == ["Fr"]  # phase 3: the $10 route bonus too
    # one token per turn
    assert "place_token" not in g.legal().kinds
    # the first 6-train (action 263) removes the route bonus and closes the privates
    g = import_game(f1, upto=263)
    assert g.state.phase == "6" and ms_state(g).no_bonus == []
    assert all(c.closed for c in g.state.companies.values())


def test_mm_half_price_token(f1) -> None:
    g = import_game(f1, upto=237)
    gmo = g.state.corporations["GMO"]
    cost = g.title.next_token_cost(g, gmo)
    cash = gmo.cash
    g = import_game(f1, upto=238)  # M&M places GMO's token in 15-0-0
    assert g.state.corporations["GMO"].cash == cash - math.ceil(cost / 2)
    assert g.state.companies["M&M"].uses == 1


def test_train_order_and_price(f1) -> None:
    g = import_game(f1, upto=55)  # IC has a route and no train: it must buy
    assert "pass" not in g.legal().kinds and "buy_train" in g.legal().kinds
    buy = {**IC, "type": "buy_train"}
    rejected(g, {**buy, "train": "3+-0", "price": 180, "variant": "3+"}, "train.order",
             "the 2\\+ trains are not sold out")
    rejected(g, {**buy, "train": "2+-0", "price": 70, "variant": "2+"}, "train.price",
             r"costs \$80, not \$70")
    rejected(g, {**IC, "type": "pass"}, "operating.pass", "must buy one")
    # 2+-4 is set aside for the MC exchange and never sold by the bank
    assert all(t[0] != "2+-4" for t in g.legal().trains)


def test_first_six_opens_2d_and_5d(f1) -> None:
    g = import_game(f1, upto=262)
    names = {t.name for t in g.title.depot_trains(g)}
    assert "6" in names and "2D" not in names
    g = import_game(f1, upto=263)
    names = {t.name for t in g.title.depot_trains(g)}
    assert {"6", "2D", "5D"} <= names
    assert g.state.phase == "6"
    g = import_game(f1, upto=325)  # first 2D (bought as a 4D)
    assert g.state.phase == "D"
    assert "gray" in g.title.tile_colors(g)


def test_buying_from_another_corporation(f2) -> None:
    g0 = import_game(f2, upto=242)
    train = next(t for t in g0.state.trains if t.id == "3+-2")
    seller = train.owner
    s_cash, b_cash = g0.state.corporations[seller].cash, g0.state.corporations["IC"].cash
    g = import_game(f2, upto=243)  # IC buys 3+-2 from another corporation for $800
    # that purchase ends OR 5: the next OR starts by paying the private companies
    assert g.round.number == g0.round.number + 1
    revenue = sum(c.revenue for c in g.state.companies.values() if c.owner == seller and not c.closed)
    assert g.state.corporations[seller].cash == s_cash + 800 + revenue
    assert g.state.corporations["IC"].cash == b_cash - 800
    assert next(t for t in g.state.trains if t.id == "3+-2").owner == "IC"


def test_forced_purchase_with_emergency_sales(f2) -> None:
    g = import_game(f2, upto=315)
    lg = g.legal()
    assert lg.entity == "IC" and "sell_shares" in lg.kinds and "pass" not in lg.kinds
    pres = lg.player
    before = {c.id: shares.president(c) for c in g.state.corporations.values()}
    g = import_game(f2, upto=318)  # the president has sold three times
    after = {c.id: shares.president(c) for c in g.state.corporations.values()}
    assert before == after  # no presidency changed
    assert g.state.corporations["IC"].cash == 30 or g.state.player(pres).cash >= 0


def test_emergency_sale_may_not_change_presidency(f2) -> None:
    g = import_game(f2, upto=315)
    pres = g.legal().player
    st = g.state
    for corp in st.corporations.values():
        held = shares.percent(corp, pres)
        if shares.president(corp) != pres or not held:
            continue
        others = max(shares.percent(corp, p.id) for p in st.players if p.id != pres)
        pct = held - others + 10
        if pct <= 0 or pct > held or shares.percent(corp, MARKET) + pct > 50:
            continue
        certs = [c.id for c in corp.certs if c.owner == pres and not c.president]
        picked, total = [], 0
        for cid in certs:
            if total >= pct:
                break
            picked.append(cid)
            total += 10
        if total < pct:
            continue
        rejected(g, {"entity": pres, "entity_type": "player", "type": "sell_shares",
                     "shares": picked, "percent": pct}, "ebuy.presidency", "change the presidency")
        return
    pytest.skip("no presidency-changing sale available at this position")


def test_dividends_payout_and_price_moves(f1) -> None:
    data = f1
    divs = [a for a in data["actions"] if a["type"] == "dividend" and not a.get("skip")]
    checked = 0
    for a in divs[:12]:
        g0 = import_game(data, upto=a["id"] - 1)
        corp0 = g0.state.corporations[a["entity"]]
        revenue = g0.round.turn.revenue
        cell0 = corp0.cell
        g = import_game(data, upto=a["id"])
        corp = g.state.corporations[a["entity"]]
        mk = g.title.market
        if a["kind"] == "payout":
            for p in g.state.players:
                pct = shares.percent(corp0, p.id)
                want = g0.state.player(p.id).cash + math.ceil(pct * revenue / 100)
                assert g.state.player(p.id).cash == want
            in_market = shares.percent(corp0, MARKET)
            assert corp.cash == corp0.cash + math.ceil(in_market * revenue / 100)
            assert corp.cell == mk.right(cell0)
        else:
            assert corp.cash == corp0.cash + revenue
            assert corp.cell == mk.left(cell0)
        checked += 1
    assert checked >= 10


def test_game_ends_after_or_10_with_scores(f1) -> None:
    g = import_game(f1)
    assert g.finished and g.or_number == 10 and g.state.end_reason == "fixed_round"
    t = g.title
    for p in g.state.players:
        value = p.cash + sum(shares.percent(c, p.id) * t.share_price(c) // 10
                             for c in g.state.corporations.values() if c.cell)
        assert g.result()[p.id] == value
    rejected(g, {**IC, "type": "pass"}, "game.over", "The game is over")
    assert g.acting_players() == ()


def test_lay_names_a_free_copy_of_the_tile(f1) -> None:
    """A lay names the tile copy it lays: a free copy other than the first is taken as named;
    a copy the title does not have, or one already on the map, is refused (not replaced by a
    free copy), as on the site."""
    g = import_game(f1, upto=21)
    lay = {**IC, "type": "lay_tile", "hex": "B2", "rotation": 2}
    rejected(g, {**lay, "tile": "58-3"}, "track.tile_copy", "There is no tile 58-3")
    g.apply({**lay, "tile": "58-2"})
    assert g.state.tiles["B2"].copy_id == "58-2"
    assert g.state.tile_supply["58"] == ["58-0", "58-1"]


def test_lay_of_a_copy_on_the_map_refused(f1) -> None:
    g = import_game(f1, upto=30)  # IC laid 58-0 on B2; Fr lays next
    assert g.state.tiles["B2"].copy_id == "58-0"
    fr = {"entity": "Fr", "entity_type": "corporation", "type": "lay_tile"}
    rejected(g, {**fr, "hex": "G3", "tile": "58-0", "rotation": 0}, "track.tile_copy",
             "58-0 is already on B2")


def test_train_from_another_corporation_keeps_its_face(f1) -> None:
    """A train bought from another corporation is bought as it is: a move naming another
    variant (a 3+ card as a 4+) is refused, not bought as the card's face."""
    g = import_game(f1, upto=234)  # L&N bought 3+-3 from the bank; 3+-1 is another corporation's
    t = next(t for t in g.state.trains if t.id == "3+-1")
    assert t.owner not in (None, "L&N") and t.face == "3+"
    ln = {"entity": "L&N", "entity_type": "corporation", "type": "buy_train", "train": "3+-1"}
    rejected(g, {**ln, "price": 300, "variant": "4+"}, "train.variant", "3\\+-1 is a 3\\+ train")
    g.apply({**ln, "price": 300, "variant": "3+"})
    t = next(t for t in g.state.trains if t.id == "3+-1")
    assert t.owner == "L&N" and t.face == "3+"
