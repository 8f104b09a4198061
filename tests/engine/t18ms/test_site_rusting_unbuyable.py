"""Trains removed at the end of the second OR of a set, as on the site: once their company has
run at least one route in that OR, all its trains of the kind about to go may no longer be
bought (also one that did not run); a company that ran no route keeps them for sale."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.game import Game
from engine.routes.api import best_routes_for
from tests.engine._helpers import do, pass_
from tests.engine.t18ms.test_operating_scripted import game_after_sr1

CITY_FIRST = {"city": 0, "town": 1}


QUOTA = {"IC": 2, "GMO": 1, "Fr": 1}  # bank trains bought in OR 1


def step(g: Game) -> None:
    """One move of a simple script: best run; IC lays on cities and towns first; in
    OR 1 each company buys its quota of bank trains; payout; else pass."""
    lg = g.legal()
    owned = sum(1 for t in g.state.trains if t.owner == lg.entity)
    if g.round.kind == "stock":
        pass_(g)
    elif "run_routes" in lg.kinds:
        routes = [r.model_dump(exclude_none=True) for r in best_routes_for(g).routes]
        do(g, lg.entity, "run_routes", routes=routes)
    elif "lay_tile" in lg.kinds and lg.tiles and lg.entity == "IC":
        hexes = g.title.data.hexes
        hex_name, options = min(lg.tiles.items(),
                                key=lambda kv: (CITY_FIRST.get(hexes[kv[0]].kind, 2), kv[0]))
        tile, rotations = options[0]
        do(g, lg.entity, "lay_tile", hex=hex_name, tile=tile, rotation=rotations[0])
    elif ("buy_train" in lg.kinds and g.or_number == 1 and owned < QUOTA[str(lg.entity)]
          and lg.trains and lg.trains[0][4] == "bank"):
        tid, face, price, _hi, _seller = lg.trains[0]
        do(g, lg.entity, "buy_train", train=tid, price=price, variant=face)
    elif "dividend" in lg.kinds:
        do(g, lg.entity, "dividend", kind="payout")
    else:
        pass_(g, lg.entity)


def gmo_train_step_in_or_4() -> Game:
    """IC (two 2+) reaches a route by OR 2; Fr (one 2+) and GMO (one 2+) lay nothing;
    stands at its train step in OR 4, the second OR of set 2, after IC and Fr."""
    g = game_after_sr1()
    while not (g.or_number == 4 and g.legal().entity == "GMO" and g.round.step_name() == "buy_train"):
        step(g)
    assert g.round.done == ["IC", "Fr"]
    return g


def holds(g: Game, corp: str) -> list[str]:
    return sorted(t.id for t in g.state.trains if t.owner == corp)


def test_a_company_that_ran_marks_all_its_trains_of_the_kind() -> None:
    g = gmo_train_step_in_or_4()
    assert holds(g, "IC") == ["2+-0", "2+-1"]
    offered = [t[0] for t in g.legal().trains]
    for tid in holds(g, "IC"):
        assert tid not in offered
        with pytest.raises(EngineError, match="removed at its end") as err:
            do(g, "GMO", "buy_train", train=tid, price=10, variant="2+")
        assert err.value.rule == "train.other"


def test_a_company_without_a_route_keeps_its_trains_for_sale() -> None:
    g = gmo_train_step_in_or_4()
    assert holds(g, "Fr") == ["2+-2"]
    assert "2+-2" in [t[0] for t in g.legal().trains]  # Fr reached its dividend step, no run
    do(g, "GMO", "buy_train", train="2+-2", price=10, variant="2+")
    assert holds(g, "GMO") == ["2+-2", "2+-3"]
