"""The best run offered by `engine.routes.api.best_routes_for` (the bot's /run default and
`python -m engine routes`) in a connection run obeys its rule: one train runs from home to the
destination. The solver's free optimum is often worth more but refused (by the site and by the
engine); the CLI's `accepted` says no to such a run."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from engine.io.routes_cli import _accepted
from engine.routes.api import best_routes_for, operating_corporation
from engine.routes.solver import best_routes
from tests.engine.t1870._util import BANK, replay


@pytest.mark.parametrize("upto", [622, 914])  # FW (free optimum 250 > 230), TP (220 > 120)
def test_best_run_is_a_connection_run(upto: int) -> None:
    g: Any = replay(BANK, upto)
    corp = operating_corporation(g)
    sol = best_routes_for(g, time_limit_ms=3000)
    assert g.title.connection_route_error(g, corp, SimpleNamespace(routes=sol.routes)) is None
    offer = next(c for c in g.legal().choices if c["type"] == "run_routes")
    assert sol.revenue == sum(r["revenue"] for r in offer["routes"])
    g.apply({"entity": corp.id, "entity_type": "corporation", "type": "run_routes",
             "routes": [r.model_dump(exclude_none=True) for r in sol.routes]})
    assert g.round.conn_revenue == sol.revenue


def test_cli_does_not_accept_a_run_without_the_connecting_train() -> None:
    g: Any = replay(BANK, 622)
    corp = operating_corporation(g)
    t = g.title
    trains = {tr.id: t.train_spec(g, tr) for tr in t.active_trains(g, corp)}
    free = best_routes(t.board(g), corp.id, trains, t.route_rules(g, corp))  # the rule ignored
    assert t.connection_route_error(g, corp, SimpleNamespace(routes=free.routes)) is not None
    assert not _accepted(g, free)
    assert _accepted(g, best_routes_for(g, time_limit_ms=3000))
