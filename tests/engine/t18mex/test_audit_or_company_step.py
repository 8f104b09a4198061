"""Audit against the site's operating round (g_18_mex operating_round): the last step is the
base BuyCompany with blocks: true, which waits for a pass only with the phase status
`can_buy_companies` (from the first 3) and a private the company can afford, or while the company
owns a private with an unused ability timed `owning_corp_or_turn` (the Baja CdB token, usable
while the company has a charter token left and none in Santa Rosalia). Earlier privates (the KCMO
with early_buy_of_kcmo, the Baja CdB) are bought any time in phase 2 without blocking. The track
step stays open (Tracker#can_lay_tile?) while the company owns the KCMO, or when it could buy the
KCMO and the phase has `can_buy_companies`; not once F5 is built (a real log shows the site
accepting the owner's token after F5 was built with another tile: test_undone_branches)."""

from __future__ import annotations

from typing import Any

from engine.core import tiles
from engine.game import Game
from engine.legal import legal_moves
from tests.engine.t18mex.test_options import to_first_company_turn


def _turn(opt: str) -> tuple[Game, Any]:
    g = Game("18MEX", ["P1", "P2", "P3"], options=[opt])
    to_first_company_turn(g)
    return g, g.round.corp()  # type: ignore[attr-defined]


def test_phase_2_early_kcmo_buyable_any_time_without_blocking() -> None:
    g, corp = _turn("early_buy_of_kcmo")
    t, rnd = g.title, g.round
    assert g.state.phase == "2" and g.state.companies["KCMO"].owner in {p.id for p in g.state.players}
    assert "buy_company" in legal_moves(g).kinds  # the site's G18MEX BuyCompany step, any time
    assert t.blocking_company_kinds(g, rnd, corp) == []  # no pass at the end of the turn
    assert not t.track_abilities_block(g, rnd, corp)  # no open track step for buying it


def test_phase_2_baja_cdb_buyable_any_time_without_blocking() -> None:
    g, corp = _turn("baja_variant")
    t, rnd = g.title, g.round
    assert g.state.phase == "2" and g.state.companies["CdB"].owner in {p.id for p in g.state.players}
    assert "buy_company" in legal_moves(g).kinds
    assert t.blocking_company_kinds(g, rnd, corp) == []


def test_phase_3_affordable_private_blocks() -> None:
    g, corp = _turn("early_buy_of_kcmo")
    g.state.phase = "3"
    assert g.title.blocking_company_kinds(g, g.round, corp) == ["buy_company", "pass"]
    assert g.title.track_abilities_block(g, g.round, corp)  # it could buy the KCMO for its tile


def test_cdb_owner_waits_for_a_pass_until_the_token_is_placed() -> None:
    g, corp = _turn("baja_variant")
    t = g.title
    g.apply({"type": "buy_company", "entity": corp.id, "entity_type": "corporation", "company": "CdB",
             "price": 15})
    assert t.blocking_company_kinds(g, g.round, corp) == ["pass"]
    token = next(c for c in legal_moves(g).choices if c["entity"] == "CdB")
    g.apply(token)
    assert t.blocking_company_kinds(g, g.round, g.state.corporations[corp.id]) == []


def test_cdb_owner_turn_ends_with_a_pass() -> None:
    g, corp = _turn("baja_variant")
    g.apply({"type": "buy_company", "entity": corp.id, "entity_type": "corporation", "company": "CdB",
             "price": 15})
    for _ in range(10):  # pass through the turn: it stops at the company step
        kinds = legal_moves(g).kinds
        if g.round.corp().id != corp.id or "run_routes" in kinds or "pass" not in kinds:  # type: ignore[attr-defined]
            break
        step = g.round.step_name()  # type: ignore[attr-defined]
        if step == "buy_company":
            break
        g.apply({"type": "pass", "entity": corp.id, "entity_type": "corporation"})
    assert g.round.corp().id == corp.id  # type: ignore[attr-defined]
    assert g.round.step_name() == "buy_company"  # type: ignore[attr-defined]
    assert legal_moves(g).kinds == ("pass",) or list(legal_moves(g).kinds) == ["pass"]


def test_cdb_without_charter_token_does_not_block() -> None:
    g, corp = _turn("baja_variant")
    g.apply({"type": "buy_company", "entity": corp.id, "entity_type": "corporation", "company": "CdB",
             "price": 15})
    corp = g.state.corporations[corp.id]
    for tok in corp.tokens:
        if tok.hex is None:
            tok.hex = "X"
    assert g.title.blocking_company_kinds(g, g.round, corp) == []


def test_kcmo_owner_track_step_closes_once_f5_is_built() -> None:
    g, corp = _turn("early_buy_of_kcmo")
    st = g.state
    g.apply({"type": "buy_company", "entity": corp.id, "entity_type": "corporation", "company": "KCMO",
             "price": 1})
    assert g.title.track_abilities_block(g, g.round, st.corporations[corp.id])
    tile = g.title.data.tiles["9"]
    copy = st.tile_supply["9"][0]
    tiles.place_tile(st, g.title.data, "F5", tile, copy, 0)
    assert not g.title.track_abilities_block(g, g.round, st.corporations[corp.id])


def test_buyer_track_step_open_in_phase_3_until_f5_is_built() -> None:
    g, corp = _turn("early_buy_of_kcmo")
    st = g.state
    st.phase = "3"
    assert g.title.track_abilities_block(g, g.round, corp) == (
        g.title.company_price_range(g, st.companies["KCMO"])[0] <= corp.cash)
    tiles.place_tile(st, g.title.data, "F5", g.title.data.tiles["9"], st.tile_supply["9"][0], 0)
    assert not g.title.track_abilities_block(g, g.round, corp)
