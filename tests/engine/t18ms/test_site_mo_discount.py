"""The Mobile & Ohio as on the site: its $100 discount counts when the train step decides whether
the company can still buy a train, and the legal answer offers its discounted purchases."""

from __future__ import annotations

from engine.routes.api import best_routes_for
from tests.engine._helpers import do, draft, finish_stock_round, float_three, new_game, pass_


def step_through(g, stop) -> None:
    """Until `stop(g)`: IC lays (cities and towns first) and runs its best routes; the others
    pass and run nothing."""
    while not stop(g):
        lg = g.legal()
        if lg.entity == "IC" and "run_routes" in lg.kinds:
            routes = [r.model_dump(exclude_none=True) for r in best_routes_for(g).routes]
            do(g, "IC", "run_routes", routes=routes)
        elif "run_routes" in lg.kinds:
            do(g, lg.entity, "run_routes", routes=[])
        elif lg.entity == "IC" and "lay_tile" in lg.kinds and lg.tiles:
            hexes = g.title.data.hexes
            hex_name, options = min(lg.tiles.items(), key=lambda kv: (
                {"city": 0, "town": 1}.get(hexes[kv[0]].kind, 2), kv[0]))
            do(g, "IC", "lay_tile", hex=hex_name, tile=options[0][0], rotation=options[0][1][0])
        elif "dividend" in lg.kinds:
            do(g, lg.entity, "dividend", kind="payout")
        else:
            pass_(g, lg.entity)


def fr_train_step_with_mo(cash: int):
    """P3 M&O, P2 MC, P1 BS; SR1 floats IC, Fr, GMO; OR 1: IC buys three 2+, Fr the fourth;
    OR 4 (second of its set): IC's 2+ trains are marked once it has run its routes, so
    no other company's train is for sale when Fr (P3) buys the M&O and reaches its train step."""
    g = new_game(3)
    draft(g, "M&O", "MC", "BS")
    float_three(g)
    finish_stock_round(g)
    for corp, n in (("IC", 3), ("Fr", 1)):
        step_through(g, lambda g, corp=corp: g.legal().entity == corp and "buy_train" in g.legal().kinds)
        for _ in range(n):
            do(g, corp, "buy_train", train=g.legal().trains[0][0], price=80, variant="2+")
    step_through(g, lambda g: g.round.kind == "operating" and g.round.number == 4
                 and g.legal().entity == "Fr")
    do(g, "Fr", "buy_company", company="M&O", price=35)
    fr = g.state.corporations["Fr"]
    g.state.bank.cash += fr.cash - cash
    fr.cash = cash  # as after other spending
    step_through(g, lambda g: g.round.step_name() == "buy_train" or g.legal().entity != "Fr")
    assert g.title.other_trains(g, fr) == []
    return g


def test_discounted_purchase_keeps_the_step_and_is_offered() -> None:
    g = fr_train_step_with_mo(100)  # a 3+ costs $180: affordable only with the M&O's $100 off
    fr = g.state.corporations["Fr"]
    lg = g.legal()
    assert "buy_train" in lg.kinds and "pass" in lg.kinds
    assert ("M&O", "buy_train") in lg.company_abilities
    from engine.legal import candidate_actions

    mo = [a for a in candidate_actions(g) if a["entity"] == "M&O"]
    assert {"entity": "M&O", "entity_type": "company", "type": "buy_train", "train": "3+-0",
            "variant": "3+", "price": 80} in mo
    do(g, "M&O", "buy_train", train="3+-0", price=80, variant="3+")
    assert fr.cash == 20 and g.state.companies["M&O"].closed


def test_without_the_discount_in_reach_the_step_is_skipped() -> None:
    g = fr_train_step_with_mo(79)  # not even the discounted $80
    assert g.legal().entity != "Fr" or g.round.step_name() != "buy_train"
