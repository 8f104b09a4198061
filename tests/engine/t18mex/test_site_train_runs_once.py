"""A train runs once an operating round, as on the site: the dividend step (taken or skipped)
marks all the company's trains as having operated, and the mark goes with the train (a merged
company's trains in the NdM, one bought from a company or the open market after it ran) until
the next round; a company whose trains have all run skips its route step."""

from __future__ import annotations

from engine.game import Game
from engine.legal import legal_moves
from tests.engine.t18mex._helpers import G13315, act, at, rejected


def _chi_at_route() -> Game:
    g = at(G13315, 432)  # CHI (6' and 4D) is to run its routes
    assert legal_moves(g).kinds == ("run_routes",)
    return g


def _ran(g: Game, train: str) -> None:
    next(t for t in g.state.trains if t.id == train).operated = True  # e.g. it ran for its seller


def test_a_train_that_ran_is_not_run_again() -> None:
    g = _chi_at_route()
    _ran(g, "4D-4")
    sol = g.title.best_run(g, g.state.corporations["CHI"])
    assert [r.train for r in sol.routes] == ["6'-0"]
    rejected(g, "CHI", "run_routes", "route.operated", "already run",
             routes=[{"train": "4D-4", "connections": [["M10", "O10"], ["P11", "O10"],
                                                       ["S12", "Q12", "P11"], ["S12", "R13", "Q14"]]}])


def test_route_step_skipped_when_every_train_has_run() -> None:
    g = at(G13315, 431)  # CHI places a token, then would run its 6' and 4D
    _ran(g, "4D-4")
    _ran(g, "6'-0")
    act(g, "CHI", "place_token", city="482-0-0", slot=1)
    assert "run_routes" not in legal_moves(g).kinds


def test_the_dividend_marks_every_train() -> None:
    g = at(G13315, 424)  # FCP has run its 5
    idle = next(t for t in g.state.trains if t.id == "4D-6")
    idle.owner = "FCP"  # a second train, that did not run
    held = [t for t in g.state.trains if t.owner == "FCP" and not t.gone]
    assert [t.operated for t in held].count(False) == 1
    act(g, "FCP", "dividend", kind="payout")
    assert all(t.operated for t in held)
