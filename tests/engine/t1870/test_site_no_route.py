"""Audit against the site's Route step: a corporation with trains whose network offers no route
(fewer than two revenue stops reachable from its tokens) does not run; the route step is
skipped and so is the dividend, which withholds nothing and moves the price left."""

from __future__ import annotations

from engine.legal import legal_moves
from tests.engine.t1870._util import SMALL, replay


def _slsf_with_a_train():  # type: ignore[no-untyped-def]
    g = replay(SMALL, 45)  # first OR: SLSF (home E12, no track yet) is at its track step
    assert g.round.current() == ("SLSF", "corporation")
    train = next(t for t in g.state.trains if t.owner is None and t.name == "2")
    train.owner = "SLSF"
    return g


def test_no_route_skips_run_and_withholds() -> None:
    g = _slsf_with_a_train()
    slsf = g.state.corporations["SLSF"]
    assert not g.title.has_route(g, slsf)
    cell = slsf.cell
    g.apply({"type": "pass", "entity": "SLSF", "entity_type": "corporation"})
    assert "run_routes" not in legal_moves(g).kinds
    assert g.round.step_name() != "route"  # type: ignore[attr-defined]
    assert cell is not None
    assert slsf.cell == g.title.market.left(cell)


def test_with_a_route_it_still_runs() -> None:
    g = replay(SMALL, 85)  # second OR: SLSF reaches B11 from E12 and has its 2
    assert g.title.has_route(g, g.state.corporations["SLSF"])
    assert g.round.step_name() == "route"  # type: ignore[attr-defined]
    assert "run_routes" in legal_moves(g).kinds
