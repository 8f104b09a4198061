"""legal_moves / candidate_actions agree with what the engine accepts at fixture positions."""

from __future__ import annotations

import pytest

from engine import EngineError, Game
from engine.io.export18xx import import_game
from engine.legal import candidate_actions, legal_moves
from tests.engine._helpers import FIXTURES_18MS, load_fixture

# candidate_actions documents that some candidates may be unaffordable after all
MAY_FAIL = {"train.cash", "train.emergency_cash", "train.loan_sell_first", "train.loan_affordable",
            "company.cash", "token.cash", "track.cost"}

# (fixture action id to replay up to, the round kind there, a kind expected to be legal)
POSITIONS = [
    (0, "draft", "bid"),
    (2, "draft", "bid"),
    (9, "stock", "buy_shares"),
    (21, "operating", "lay_tile"),
    (55, "operating", "buy_train"),  # IC has a route and no train: must buy
    (88, "operating", "pass"),  # IC laid; BS may still lay (company ability)
    (94, "operating", "place_token"),
    (97, "operating", "buy_train"),
    (106, "stock", "sell_shares"),
]

# a plausible action of each kind, used to show kinds not offered are refused
PROBES = {
    "bid": {"company": "AGS", "price": 30},
    "par": {"corporation": "WRA", "share_price": "70,1,2"},
    "buy_shares": {"shares": ["WRA_1"], "percent": 10},
    "sell_shares": {"shares": ["GMO_1"], "percent": 10},
    "lay_tile": {"hex": "C3", "tile": "57-0", "rotation": 0},
    "place_token": {"city": "I1-0-0", "slot": 0},
    "run_routes": {"routes": []},
    "dividend": {"kind": "payout"},
    "buy_train": {"train": "2+-0", "price": 80, "variant": "2+"},
    "buy_company": {"company": "MC", "price": 60},
    "pass": {},
}


@pytest.fixture(scope="module")
def data() -> dict:
    return load_fixture(FIXTURES_18MS[0])


def at(data: dict, upto: int) -> Game:
    return import_game(data, upto=upto)


@pytest.mark.parametrize("upto,kind,expected", POSITIONS)
def test_every_candidate_applies(data: dict, upto: int, kind: str, expected: str) -> None:
    g = at(data, upto)
    lg = legal_moves(g)
    assert g.round.kind == kind and expected in lg.kinds, (g.round.name(), lg.kinds)
    assert lg.player in g.acting_players()
    cands = candidate_actions(g)
    assert cands
    accepted = 0
    for act in cands:
        company_use = (act["entity"], act["type"]) in lg.company_abilities
        assert act["type"] in lg.kinds or act["entity_type"] == "player" or company_use, act
        trial = at(data, upto)
        try:
            trial.apply(act)
            accepted += 1
        except EngineError as err:
            assert err.rule in MAY_FAIL, f"{act} rejected: {err} ({err.rule})"
    assert accepted


@pytest.mark.parametrize("upto,kind,expected", POSITIONS)
def test_kinds_not_offered_are_refused(data: dict, upto: int, kind: str, expected: str) -> None:
    g = at(data, upto)
    lg = legal_moves(g)
    before = len(g.log)
    for k, payload in PROBES.items():
        if k in lg.kinds:
            continue
        with pytest.raises(EngineError):
            g.apply({"type": k, "entity": lg.entity, "entity_type": lg.entity_type, **payload})
        assert len(g.log) == before


def test_legal_details_match_the_position(data: dict) -> None:
    g = at(data, 94)  # Fr, after its lay in H2, may token New Orleans
    lg = legal_moves(g)
    assert lg.entity == "Fr" and lg.player == "686"
    assert ("I1-0-0", 40) in lg.token_cities
    g = at(data, 2)
    assert {c for c, _ in legal_moves(g).bids} == {"AGS", "M&M", "MC"}
    g = import_game(data)
    assert legal_moves(g).kinds == () and candidate_actions(g) == []
