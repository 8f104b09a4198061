"""The track step as on the site: it stays open (waits for an explicit pass) while the
operating company could still use or buy a private with a tile lay; the first-OR lays."""

from __future__ import annotations

import pytest

from engine import EngineError
from tests.engine._helpers import (
    buy,
    current,
    do,
    draft,
    finish_stock_round,
    float_three,
    new_game,
    par,
    pass_,
)


def or2_start(picks: tuple[str, ...] = ("M&O", "MC", "BS")):
    """P3 M&O, P2 MC, P1 BS (by default); SR1 floats IC (P2), Fr (P3), GMO (P1); OR 1 passes
    through with each company buying one 2+; the game stands at OR 2 (phase 3)."""
    g = new_game(3)
    draft(g, *picks)
    float_three(g)
    finish_stock_round(g)
    bought: set[str] = set()
    while g.round.number == 1:
        lg = g.legal()
        if "buy_train" in lg.kinds and lg.entity not in bought:
            bought.add(lg.entity)
            tid = lg.trains[0][0]
            do(g, lg.entity, "buy_train", train=tid, price=80, variant="2+")
        elif "run_routes" in lg.kinds:
            do(g, lg.entity, "run_routes", routes=[])
        else:
            pass_(g, lg.entity)
    assert g.state.phase == "3"
    return g


def first_lay(g, corp: str) -> dict:
    lg = g.legal()
    assert lg.entity == corp and "lay_tile" in lg.kinds
    hex_name, options = next(iter(sorted(lg.tiles.items())))
    tile, rotations = options[0]
    return {"hex": hex_name, "tile": tile, "rotation": rotations[0]}


def until_corp(g, corp: str) -> None:
    while g.legal().entity != corp:
        lg = g.legal()
        if "run_routes" in lg.kinds:
            do(g, lg.entity, "run_routes", routes=[])
        else:
            pass_(g, lg.entity)


def test_track_step_waits_while_the_president_holds_a_tile_laying_private() -> None:
    g = or2_start()
    until_corp(g, "GMO")  # P1 (GMO's president) holds the BS, which GMO could buy now
    gmo = g.state.corporations["GMO"]
    do(g, "GMO", "lay_tile", **first_lay(g, "GMO"))
    assert g.round.step_name() == "track"
    lg = g.legal()
    assert lg.entity == "GMO" and "pass" in lg.kinds and "lay_tile" not in lg.kinds
    with pytest.raises(EngineError) as err:
        do(g, "GMO", "buy_train", train=g.state.trains[5].id, price=180, variant="3+")
    assert err.value.rule == "operating.order"
    assert gmo.cash == g.state.corporations["GMO"].cash
    pass_(g, "GMO")
    assert g.round.step_name() != "track"


def test_track_step_moves_on_when_no_tile_laying_private_can_be_bought() -> None:
    g = or2_start(("M&O", "MC", "M&M"))  # P1 holds the M&M: no tile lay to buy
    until_corp(g, "GMO")
    do(g, "GMO", "lay_tile", **first_lay(g, "GMO"))
    assert g.round.step_name() != "track"


def through_or(g) -> None:
    """Every company passes what it may pass, runs nothing, buys the cheapest train if it must."""
    rnd = g.round
    while g.round is rnd:
        lg = g.legal()
        if "run_routes" in lg.kinds:
            do(g, lg.entity, "run_routes", routes=[])
        elif "pass" in lg.kinds:
            pass_(g, lg.entity)
        else:
            tid, face, lo, _hi, _seller = lg.trains[0]
            do(g, lg.entity, "buy_train", train=tid, price=lo, variant=face)


def first_turn_in_phase_3():
    """2 players: SR1 floats GMO (P1) and IC (P2); SR2 floats L&N (P1, with P2's help), whose
    first turn (OR 3, phase 3) is reached."""
    g = new_game(2)
    draft(g, "M&O", "M&M")
    par(g, "P1", "GMO", 80)
    par(g, "P2", "IC", 80)
    for _ in range(4):
        buy(g, "P1", "GMO")
        buy(g, "P2", "IC")
    finish_stock_round(g)
    through_or(g)
    through_or(g)
    par(g, current(g), "L&N", 70)
    pass_(g)
    for _ in range(4):
        p = current(g)
        buy(g, p, "L&N")
        pass_(g, p)
    finish_stock_round(g)
    until_corp(g, "L&N")
    assert g.state.phase == "3" and g.round.number == 3
    return g


def test_first_turn_may_upgrade_after_its_yellow_lay() -> None:
    # the site's first-turn lays: a second lay, which may be an upgrade unless the first was one
    g = first_turn_in_phase_3()
    do(g, "L&N", "lay_tile", hex="C9", tile="57-0", rotation=0)
    lg = g.legal()
    assert "14-0" in [t for t, _ in lg.tiles["C9"]]
    do(g, "L&N", "lay_tile", hex="C9", tile="14-0", rotation=0)
    assert g.state.tiles["C9"].tile == "14"
    assert g.round.step_name() != "track"


def test_first_turn_after_an_upgrade_the_second_lay_is_yellow_only() -> None:
    g = first_turn_in_phase_3()
    rnd, lnn = g.round, g.state.corporations["L&N"]
    rnd.turn.laid, rnd.turn.upgraded = 1, True  # as after an upgrade as the first lay
    assert g.title.next_lay(g, rnd, lnn) == {"lay": True, "upgrade": False}
    rnd.turn.laid, rnd.turn.upgraded = 2, True
    assert g.title.next_lay(g, rnd, lnn) is None


def test_legal_tiles_follow_the_lay_kind_left() -> None:
    # what the legal answer offers is what the engine accepts: after an upgrade as the first
    # lay, no upgrade is offered for the second
    g = first_turn_in_phase_3()
    do(g, "L&N", "lay_tile", hex="C9", tile="57-0", rotation=0)
    rnd = g.round
    rnd.turn.upgraded = True  # as if that first lay had been an upgrade
    lg = g.legal()
    offered = {(h, t) for h, opts in lg.tiles.items() for t, _ in opts}
    assert offered and not any(h == "C9" for h, _ in offered)
