"""Audit against the site's Baja variant (g_18_mex: CdB ability `token` with `from_owner: true`;
`event_companies_buyable!` resets the privates' price ranges at the first 3 but puts the CdB's
top back at its $30 face): the Compagnie du Boleo's free Santa Rosalia token is the owner's next
charter token, and a company pays $15-$30 for it in every phase."""

from __future__ import annotations

from engine.game import Game
from engine.legal import legal_moves
from tests.engine.t18mex.test_options import to_first_company_turn


def _owned_cdb() -> tuple[Game, str]:
    g = Game("18MEX", ["P1", "P2", "P3"], options=["baja_variant"])
    to_first_company_turn(g)
    corp = g.round.corp()  # type: ignore[attr-defined]
    g.apply({"type": "buy_company", "entity": corp.id, "entity_type": "corporation", "company": "CdB",
             "price": 15})
    return g, corp.id


def test_cdb_token_comes_from_the_charter() -> None:
    g, cid = _owned_cdb()
    corp = g.state.corporations[cid]
    spare = [t for t in corp.tokens if t.hex is None]
    count = len(corp.tokens)
    token = next(c for c in legal_moves(g).choices if c["entity"] == "CdB")
    g.apply(token)
    corp = g.state.corporations[cid]
    assert len(corp.tokens) == count  # no extra token
    assert corp.tokens.index(next(t for t in corp.tokens if t.hex == "H3")) == corp.tokens.index(spare[0])
    assert len([t for t in corp.tokens if t.hex is None]) == len(spare) - 1


def test_cdb_needs_a_charter_token() -> None:
    g, cid = _owned_cdb()
    corp = g.state.corporations[cid]
    for t in corp.tokens:
        if t.hex is None:
            t.hex = "X"  # every charter token already out
    assert not [c for c in legal_moves(g).choices if c["entity"] == "CdB"]


def test_cdb_price_after_the_first_3() -> None:
    g = Game("18MEX", ["P1", "P2", "P3"], options=["baja_variant"])
    cdb = g.state.companies["CdB"]
    assert g.title.company_price_range(g, cdb) == (15, 30)
    g.state.phase = "3"
    assert g.title.company_price_range(g, cdb) == (15, 30)


def test_phase_2_player_trades_only_the_cdb() -> None:
    """The site's purchasable_companies in phase 2 with the Baja variant is the CdB alone (and
    the KCMO with early_buy_of_kcmo), also for private trades between players in a stock turn."""
    g = Game("18MEX", ["P1", "P2", "P3"], options=["baja_variant"])
    while g.round.kind != "stock":
        from engine.legal import candidate_actions
        acts = candidate_actions(g)
        acts.sort(key=lambda a: a["type"] == "pass")
        g.apply(acts[0])
    pid = str(g.legal().entity)
    offered = {c.id for c in g.title.tradeable_companies(g, g.round, pid)}
    assert offered <= {"CdB"}
    others = {c.id for c in g.state.companies.values() if c.owner not in (None, pid)
              and c.id not in ("A", "B", "C", "MNR")}
    assert offered == ({"CdB"} & others)
