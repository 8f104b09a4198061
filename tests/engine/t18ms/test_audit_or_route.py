"""Audit against the 18xx.games engine: the 18MS route and dividend steps.

The site's Route step has no action for a company with trains but no route
(can_run_route?: two stops reachable from one token); its Dividend step is then skipped
(withhold, price left) and, in the second OR of a set, still marks the company's trains
removed at the end of the OR as unbuyable (18MS's routes_revenue runs in the dividend step)."""

from __future__ import annotations

from tests.engine._helpers import do, draft, finish_stock_round, float_three, new_game, pass_


def test_company_with_trains_and_no_route_skips_its_run() -> None:
    # the site's Route step offers nothing without a route (can_run_route?), so the run and
    # then the dividend (withheld: price left) are skipped
    g = new_game(3)
    draft(g, "M&O", "MC", "BS")
    float_three(g)
    finish_stock_round(g)
    for _ in range(3):  # IC (Memphis) lays nothing and buys three 2+
        if g.round.step_name() == "track":
            pass_(g, "IC")
        do(g, "IC", "buy_train", train=g.legal().trains[0][0], price=80, variant="2+")
    while not (g.round.number == 2 and g.legal().entity == "IC"):
        lg = g.legal()
        if "run_routes" in lg.kinds:
            do(g, lg.entity, "run_routes", routes=[])
        else:
            pass_(g, lg.entity)
    ic = g.state.corporations["IC"]
    assert not g.title.has_route(g, ic)
    cell = ic.cell
    pass_(g, "IC")  # track
    assert g.legal().entity != "IC" or "run_routes" not in g.legal().kinds
    assert ic.cell != cell  # withheld: moved left
