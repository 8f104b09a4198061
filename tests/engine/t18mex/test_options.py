"""The optional rules of meta.optional_rules, each through a fresh Game("18MEX", players,
options=[...]): the real game 13315 is replayed with the option up to a point the option does
not change yet, and the option is then seen at work (with the same position without it)."""

from __future__ import annotations

from typing import Any

from engine import EngineError, Game
from engine.legal import candidate_actions, legal_moves
from engine.titles.t18mex.state import mex_state
from tests.engine.t18mex._helpers import G13315, at

OR1_TM = 40  # 13315: the first operating round reaches its first company (TM, floated in SR 1)
FIRST_3P, FIRST_6P = 154, 291  # 13315: the first 3' (FCP) and the first 6' (CHI) are bought


def fresh(upto: int, *options: str) -> Game:
    base = at(G13315, upto)
    return Game("18MEX", list(base.players), options=list(options), actions=base.export_actions())


def fixture_action(aid: int) -> dict[str, Any]:
    import json

    from tests.engine.t18mex._helpers import _data

    return next(a for a in json.loads(_data(G13315))["actions"] if a["id"] == aid)


def lay_yellow_tiles(g: Game, corp: str) -> int:
    """Lay as many tiles as the legal answer offers (cheapest hexes first); return how many."""
    laid = 0
    while "lay_tile" in legal_moves(g).kinds and legal_moves(g).entity == corp:
        data = g.title.data
        lays = sorted((a for a in candidate_actions(g, limit_tiles=400) if a["type"] == "lay_tile"
                       and a["entity"] == corp), key=lambda a: data.hexes[a["hex"]].terrain_cost)
        for a in lays:
            try:
                g.apply(a)
                break
            except EngineError:
                continue
        else:
            break
        laid += 1
    return laid


def test_triple_yellow_first_or() -> None:
    g = fresh(OR1_TM, "triple_yellow_first_or")
    assert "TM" in mex_state(g).recently_floated
    assert lay_yellow_tiles(g, "TM") == 3
    plain = fresh(OR1_TM)
    assert lay_yellow_tiles(plain, "TM") == 2
    # only in the OR right after floating
    mex_state(g).recently_floated = []
    assert len(g.title.tile_lays(g, g.round, g.state.corporations["TM"])) == 2


def test_early_buy_of_kcmo() -> None:
    g = fresh(OR1_TM, "early_buy_of_kcmo")
    assert g.state.phase == "2" and g.state.companies["KCMO"].owner == "1048"
    lg = legal_moves(g)
    assert ("KCMO", 1, 40) in lg.companies and "buy_company" in lg.kinds
    cash = g.state.player("1048").cash
    g.apply({"type": "buy_company", "entity": "TM", "entity_type": "corporation", "company": "KCMO", "price": 1})
    assert g.state.companies["KCMO"].owner == "TM" and g.state.player("1048").cash == cash + 1
    assert ("KCMO", "lay_tile") in legal_moves(g).company_abilities  # its tile may now be laid
    # (the site's phase-2 list of privates is then the KCMO alone, in stock rounds too)
    sr = fresh(8, "early_buy_of_kcmo")
    assert [c[0] for c in legal_moves(sr).companies] == ["KCMO"]
    plain = fresh(OR1_TM)
    assert not legal_moves(plain).companies
    try:
        plain.apply({"type": "buy_company", "entity": "TM", "entity_type": "corporation", "company": "KCMO",
                     "price": 1})
        raise AssertionError("bought the KCMO in phase 2 without the option")
    except EngineError as err:
        assert "first 3 train" in str(err)


def test_delay_minor_close() -> None:
    g = fresh(FIRST_3P - 1, "delay_minor_close")
    owners = {m: g.state.corporations[m].owner for m in ("A", "B", "C")}
    g.apply(fixture_action(FIRST_3P))
    assert g.state.phase == "3½"
    assert not any(g.state.corporations[m].closed for m in ("A", "B", "C"))
    assert mex_state(g).minor_close_pending
    # the minors keep operating (their 2-trains do not rust) until the next stock round
    while g.round.kind != "stock":
        acts = candidate_actions(g)
        acts.sort(key=lambda a: (a["type"] != "pass", a["type"] == "bankrupt"))
        for a in acts:
            try:
                g.apply(a)
                break
            except EngineError:
                continue
    st = g.state
    assert all(st.corporations[m].closed for m in ("A", "B", "C"))
    ndm, udy = st.corporations["NdM"], st.corporations["UdY"]
    assert next(c for c in ndm.certs if c.id == "NdM_7").owner == owners["A"]
    assert next(c for c in udy.certs if c.id == "UdY_8").owner == owners["C"]
    plain = fresh(FIRST_3P - 1)
    plain.apply(fixture_action(FIRST_3P))
    assert all(plain.state.corporations[m].closed for m in ("A", "B", "C"))


def test_hard_rust_t4() -> None:
    g = fresh(FIRST_6P - 1, "hard_rust_t4")
    fours = [t.id for t in g.state.trains if t.name == "4" and t.owner and not t.gone]
    assert fours
    g.apply(fixture_action(FIRST_6P))
    assert all(t.gone and t.owner is None for t in g.state.trains if t.id in fours)
    plain = fresh(FIRST_6P - 1)
    plain.apply(fixture_action(FIRST_6P))
    kept = [t for t in plain.state.trains if t.id in fours]
    assert all(not t.gone and t.id in mex_state(plain).obsolete for t in kept)


def test_baja_variant_map_and_company() -> None:
    g = Game("18MEX", ["P1", "P2", "P3"], options=["baja_variant"])
    data = g.title.data
    h3, i4 = data.hexes["H3"], data.hexes["I4"]
    assert h3.color == "gray" and h3.neighbors == {5: "I4"} and not h3.tileable
    assert i4.kind == "offboard" and i4.color == "red" and i4.neighbors[2] == "H3" and not i4.tileable
    assert i4.geometry.cities[0].value("2") == 30 and i4.geometry.cities[0].value("5") == 40
    assert [c.value("2") for c in h3.geometry.cities] == [30] and h3.geometry.towns[0].value("2") == 20
    assert "CdB" in g.state.companies and g.state.companies["CdB"].value == 30
    assert g.round.items == ["MCAR", "CdB", "KCMO", "A", "B", "C", "MIR", "MNR"]  # type: ignore[attr-defined]
    plain = Game("18MEX", ["P1", "P2", "P3"])
    assert "H3" not in plain.title.data.hexes and "CdB" not in plain.state.companies
    assert plain.title.data.hexes["I4"].tileable


def to_first_company_turn(g: Game, seed: int = 1) -> None:
    """Legal play (trains and shares first, few passes) until a company's first operating turn."""
    import random

    rng = random.Random(seed)
    while not (g.round.kind == "operating" and g.round.corp().kind == "corporation"):  # type: ignore[attr-defined]
        acts = candidate_actions(g)
        rng.shuffle(acts)
        acts.sort(key=lambda a: (a["type"] in ("pass", "bankrupt"), a["type"] == "sell_shares"))
        for a in acts:
            try:
                g.apply(a)
                break
            except EngineError:
                continue


def test_baja_cdb_bought_in_phase_2_and_its_free_token() -> None:
    g = Game("18MEX", ["P1", "P2", "P3"], options=["baja_variant"])
    to_first_company_turn(g)
    st = g.state
    corp = g.round.corp()  # type: ignore[attr-defined]
    cdb = st.companies["CdB"]
    assert st.phase == "2" and cdb.owner in {p.id for p in st.players}  # sold in the opening auction
    assert g.title.purchasable_companies(g, g.round, corp) == [cdb]
    assert g.title.company_price_range(g, cdb) == (15, 30)
    assert ("CdB", 15, 30) in legal_moves(g).companies
    g.apply({"type": "buy_company", "entity": corp.id, "entity_type": "corporation", "company": "CdB",
             "price": 15})
    corp = g.state.corporations[corp.id]
    assert g.state.companies["CdB"].owner == corp.id
    lg = legal_moves(g)
    assert ("CdB", "place_token") in lg.company_abilities
    token = next(c for c in lg.choices if c["entity"] == "CdB")
    before = len(corp.tokens)
    g.apply(token)
    corp = g.state.corporations[corp.id]
    assert g.state.city_tokens[("H3", 0)] == [corp.id] and len(corp.tokens) == before  # a charter token
    assert not [c for c in legal_moves(g).choices if c["entity"] == "CdB"]  # used once
