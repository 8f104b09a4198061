"""1870 operating rounds: connection runs and destination tokens, the bridge and port privates,
half dividends and both game endings."""

from __future__ import annotations

from typing import Any

from engine.core import shares
from engine.state import IPO
from engine.titles.t1870.state import Assignment, corp1870, state1870
from tests.engine.t1870._util import BANK, BANKRUPT, SMALL, logged, rejected, replay


# ---------------------------------------------------------------- connection runs
def test_connection_run_choose_map_run_and_pay() -> None:
    g = replay(BANKRUPT, 549)  # the check after SLSF's discard lists GMO
    assert g.round.current() == ("GMO", "corporation") and g.round.kinds() == ["choose"]
    err = rejected(g, logged(BANKRUPT, 551))
    assert err.rule == "connection.order" and "choose now" in str(err)
    err = rejected(g, {"type": "choose", "entity": "GMO", "entity_type": "corporation", "choice": "Nowhere"})
    assert err.rule == "connection.choice"
    g.apply(logged(BANKRUPT, 550))
    gmo, t = g.state.corporations["GMO"], g.title
    assert any(tok.hex == "C18" and tok.cost == 100 for tok in gmo.tokens)
    slots = t.city_slots(g, "C18", 0)
    assert "GMO" not in t.tokens_in(g, "C18", 0)[:slots]  # the extra slot takes no city space
    assert t.destination_hex(gmo) is None
    g.apply(logged(BANKRUPT, 551))
    assert g.warnings == []  # the doubled destination matches the logged $110
    err = rejected(g, {"type": "dividend", "entity": "GMO", "entity_type": "corporation", "kind": "half"})
    assert err.rule == "connection.dividend" and "never halved" in str(err)
    gmo = g.state.corporations["GMO"]
    before = t.share_price(gmo)
    g.apply(logged(BANKRUPT, 552))
    assert t.share_price(gmo) > before


def test_connection_run_charter_forfeits_the_bonus() -> None:
    g = replay(BANKRUPT, 549)
    g.apply({"type": "choose", "entity": "GMO", "entity_type": "corporation", "choice": "Charter"})
    gmo = g.state.corporations["GMO"]
    assert gmo.tokens[-1].cost == 100 and gmo.tokens[-1].hex is None
    assert corp1870(gmo).destination_hex_reached is None


def test_destination_bonus_doubles_the_destination_at_a_routes_end() -> None:
    g = replay(BANKRUPT, 550)
    t, gmo = g.title, g.state.corporations["GMO"]
    rules, board = t.route_rules(g, gmo), t.board(g)
    assert rules.route_bonus is not None
    ends_there = rules.route_bonus(board, "GMO", [("B19", "city", 0), ("C18", "city", 0)])
    starts_there = rules.route_bonus(board, "GMO", [("C18", "city", 0), ("B19", "city", 0), ("A22", "city", 0)])
    middle = rules.route_bonus(board, "GMO", [("B19", "city", 0), ("C18", "city", 0), ("A22", "city", 0)])
    assert ends_there > 0 and starts_there == ends_there and middle == 0


# ---------------------------------------------------------------- privates
def test_bridge_company_blocks_river_crossings_while_a_player_holds_it() -> None:
    g = replay(SMALL, 49)
    t = g.title
    assert g.state.companies["MRBC"].owner in {p.id for p in g.state.players}
    straight = g.title.data.tiles["9"]
    answers = {r: t.river_error(g, "B17", straight, r) for r in range(3)}
    refused = [m for m in answers.values() if m]
    assert refused and "may not cross the river" in refused[0]
    assert any(m is None for m in answers.values())
    g.apply(logged(SMALL, 50))  # MP buys it: the river is open
    assert all(t.river_error(g, "B17", straight, r) is None for r in range(3))


def test_bridge_company_free_extra_home_lay_and_single_use() -> None:
    g = replay(SMALL, 50)
    mp = g.state.corporations["MP"]
    cash = mp.cash
    g.apply(logged(SMALL, 51))  # MP's first OR: St. Louis for free, as an extra lay
    mp = g.state.corporations["MP"]
    assert mp.cash == cash and g.state.companies["MRBC"].uses == 1
    assert g.round.turn.laid == 0
    err = rejected(g, {"type": "lay_tile", "entity": "MRBC", "entity_type": "company",
                       "hex": "D17", "tile": "3-0", "rotation": 0})
    assert err.rule == "company.used"


def test_port_tokens_open_then_closed() -> None:
    g = replay(SMALL, 185)
    g.apply(logged(SMALL, 186))  # GMO places the open port on Mobile
    t, st = g.title, g.state
    gmo, mp = st.corporations["GMO"], st.corporations["MP"]
    stops = [("M20", "city", 0), ("K16", "city", 0)]

    def bonus(corp: Any) -> int:
        rules = t.route_rules(g, corp)
        return int(rules.route_bonus(t.board(g), corp.id, stops))

    assert state1870(g).assignments["GSC"] == Assignment(hex="M20", corp="GMO", closed=False)
    assert bonus(gmo) == 20 and bonus(mp) == 10
    err = rejected(g, {"type": "assign", "entity": "GSC", "entity_type": "company", "target": "N17"})
    assert err.rule == "company.port"
    g.apply({"type": "assign", "entity": "GSC", "entity_type": "company", "target": "M20"})
    gmo, mp = g.state.corporations["GMO"], g.state.corporations["MP"]
    assert g.state.companies["GSC"].closed
    assert bonus(gmo) == 20 and bonus(mp) == 0


def test_port_token_only_on_a_port_city() -> None:
    g = replay(SMALL, 185)
    err = rejected(g, {"type": "assign", "entity": "GSC", "entity_type": "company", "target": "B9"})
    assert err.rule == "company.assign_hex" and "B9" in str(err)


# ---------------------------------------------------------------- dividends
def test_half_dividend_keeps_half_rounded_down_to_ten() -> None:
    g = replay(BANK, 1168)
    gmo = g.state.corporations["GMO"]
    revenue, cash, cell = g.round.turn.revenue, gmo.cash, gmo.cell
    treasury = shares.percent(gmo, IPO) + shares.percent(gmo, "GMO")
    g.apply(logged(BANK, 1169))
    keep = revenue // 20 * 10
    paid_to_treasury = -(-treasury * (revenue - keep) // 100)
    assert gmo.cash == cash + keep + paid_to_treasury
    assert gmo.cell == cell


# ---------------------------------------------------------------- game end
def test_bank_broken_ends_the_game_after_the_or_set() -> None:
    g = replay(BANK)
    assert g.finished and g.state.end_reason == "bank"
    assert state1870(g).bank_broken and g.state.bank.cash < 0
    assert g.round.kind == "operating"
    err = rejected(g, {"type": "pass", "entity": "9263", "entity_type": "player"})
    assert err.rule == "game.over"


def test_bankruptcy_ends_the_game_at_once_without_price_drops() -> None:
    g = replay(BANKRUPT)
    assert g.finished and g.state.end_reason == "bankrupt"
    broke = next(p for p in g.state.players if p.bankrupt)
    assert broke.id == "14945" and broke.cash == 0
    assert state1870(g).sell_queue  # queued for protection, never resolved


def test_bankruptcy_only_when_forced() -> None:
    g = replay(BANKRUPT, 549)
    err = rejected(g, {"type": "bankrupt", "entity": "GMO", "entity_type": "corporation"})
    assert err.rule == "bankrupt.not_forced"
