"""Station tokens (cost, home reservation, connection) and the AGS extra lay; a $0 run moves
the price left."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.io.export18xx import import_game
from tests.engine._helpers import (
    draft,
    finish_stock_round,
    float_three,
    load_fixture,
    new_game,
    pass_operating_round,
)


@pytest.fixture(scope="module")
def f1() -> dict:
    return load_fixture("18MS/14375.json")


def token(corp: str, city: str) -> dict:
    return {"entity": corp, "entity_type": "corporation", "type": "place_token", "city": city, "slot": 0}


def test_token_costs_follow_the_charter(f1) -> None:
    # every corporation token placed in the game cost $40, then $100 (New Orleans pays $100 back)
    for a in f1["actions"]:
        if a["type"] != "place_token" or a.get("skip") or a["entity_type"] != "corporation":
            continue
        g0 = import_game(f1, upto=a["id"] - 1)
        corp0 = g0.state.corporations[a["entity"]]
        placed = sum(1 for t in corp0.tokens if t.hex)
        cost = corp0.tokens[placed].cost if placed < len(corp0.tokens) else None
        assert cost == [0, 40, 100, 100][placed]
        g = import_game(f1, upto=a["id"])
        bonus = 100 if a["city"].startswith("I1") else 0
        assert g.state.corporations[a["entity"]].cash == corp0.cash - cost + bonus, a["id"]


def test_home_slots_are_reserved_and_tokens_need_a_route(f1) -> None:
    g = import_game(f1, upto=94)  # Fr's token step, L&N and WRA not yet floated
    with pytest.raises(EngineError, match="kept for home tokens") as err:
        g.apply(token("Fr", g.title.city_id(g, "C9", 0)))  # L&N's home, Birmingham
    assert err.value.rule == "token.city"
    reach = g.title.reach(g, g.state.corporations["Fr"])
    data = g.title.data
    for hex_name, h in sorted(data.hexes.items()):
        if not h.geometry.cities or (hex_name, "city", 0) in reach.cities:
            continue
        if g.title.token_city_error(g, g.state.corporations["Fr"], hex_name, 0, None, None):
            continue  # full or reserved: not what this test is about
        with pytest.raises(EngineError, match="has no route to the city") as err:
            g.apply(token("Fr", g.title.city_id(g, hex_name, 0)))
        assert err.value.rule == "token.city"
        return
    pytest.fail("no free unconnected city found")


def test_ags_lays_one_extra_tile() -> None:
    f2 = load_fixture("18MS/17510.json")
    g = import_game(f2, upto=82)  # GMO bought AGS (80) and AGS laid H2 (82)
    ags = g.state.companies["AGS"]
    assert ags.owner == "GMO" and ags.uses == 1
    with pytest.raises(EngineError, match="AGS's extra tile lays are used up") as err:
        g.apply({"entity": "AGS", "entity_type": "company", "type": "lay_tile", "hex": "H4",
                 "tile": "9-9", "rotation": 0})
    assert err.value.rule == "company.used"


def test_no_run_withholds_nothing_and_moves_left() -> None:
    g = new_game(3)
    draft(g, "M&O", "BS", "M&M")
    float_three(g)
    finish_stock_round(g)
    cells = {c: g.state.corporations[c].cell for c in ("IC", "Fr", "GMO")}
    cash = {c: g.state.corporations[c].cash for c in ("IC", "Fr", "GMO")}
    pass_operating_round(g)
    mk = g.title.market
    for c in cells:
        assert g.state.corporations[c].cell == mk.left(cells[c])
        assert g.state.corporations[c].cash == cash[c]
