"""Audit against the site's Route step: it has no action (and is skipped) when the company's
network offers no route (Graph route_info :route_available: at least two revenue stops reachable
from its tokens), even with trains; the dividend step is then skipped as a $0 withhold (price
moves left)."""

from __future__ import annotations

from engine.game import Game
from engine.legal import legal_moves
from tests.engine.t18mex.test_options import to_first_company_turn


def _with_train(seed: int) -> tuple[Game, str]:
    g = Game("18MEX", ["P1", "P2", "P3"])
    to_first_company_turn(g, seed)
    corp = g.round.corp()  # type: ignore[attr-defined]
    train = next(t for t in g.state.trains if t.owner is None and not t.gone and t.name == "2")
    train.owner = corp.id
    for _ in range(2):
        if g.round.step_name() in ("track", "token"):  # type: ignore[attr-defined]
            g.apply({"type": "pass", "entity": corp.id, "entity_type": "corporation"})
    return g, corp.id


def test_no_route_skips_the_run() -> None:
    g, cid = _with_train(4)  # CHI at Chihuahua, no track beyond its home city
    corp = g.state.corporations[cid]
    assert not g.title.has_route(g, corp)
    assert g.round.corp().id == cid  # type: ignore[attr-defined]
    assert "run_routes" not in legal_moves(g).kinds
    assert g.round.step_name() == "buy_train"  # type: ignore[attr-defined]


def test_route_available_still_runs() -> None:
    g, cid = _with_train(1)  # UdY at Merida reaches Oaxaca over the printed track
    assert g.title.has_route(g, g.state.corporations[cid])
    assert legal_moves(g).kinds == ("run_routes",) or list(legal_moves(g).kinds) == ["run_routes"]


def test_no_route_price_moves_left() -> None:
    g = Game("18MEX", ["P1", "P2", "P3"])
    to_first_company_turn(g, 4)
    corp = g.round.corp()  # type: ignore[attr-defined]
    before = corp.cell
    train = next(t for t in g.state.trains if t.owner is None and not t.gone and t.name == "2")
    train.owner = corp.id
    for _ in range(2):
        g.apply({"type": "pass", "entity": corp.id, "entity_type": "corporation"})
    assert before is not None
    assert g.state.corporations[corp.id].cell == g.title.market.left(before)
