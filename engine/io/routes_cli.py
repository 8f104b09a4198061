"""`python -m engine routes PATH --json`: the best routes at every run_routes of an export."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.io.export18xx import import_game

if TYPE_CHECKING:
    from engine.game import Game
    from engine.routes.solver import Solution


def positions(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Solve each run_routes position of an export (the state just before the action)."""
    from engine.routes.api import best_routes_for

    out: list[dict[str, Any]] = []

    def before(game: Any, act: Any) -> None:
        if act.type != "run_routes":
            return
        t0 = time.perf_counter()
        try:
            sol = best_routes_for(game)
        except EngineError as err:
            out.append({"action_id": act.id, "entity": act.entity, "error": str(err)})
            return
        ms = (time.perf_counter() - t0) * 1000
        played = (sum(r.revenue or 0 for r in act.routes)
                  if all(r.revenue is not None for r in act.routes) else _score_logged(game, act))
        out.append({
            "action_id": act.id,
            "entity": act.entity,
            "played_revenue": played,
            "best_revenue": sol.revenue,
            "routes": [{"train": r.train, "hexes": r.hexes, "connections": r.connections,
                        "revenue": r.revenue} for r in sol.routes],
            "ms": round(ms, 3),
            "exact": sol.exact,
            "accepted": _accepted(game, sol),
        })

    import_game(data, before=before)
    return out


def run_routes_cli(data: dict[str, Any], *, as_json: bool) -> int:
    for line in positions(data):
        if as_json:
            print(json.dumps(line))
        elif "error" in line:
            print(f"{line['action_id']} {line['entity']}: {line['error']}")
        else:
            print(f"{line['action_id']} {line['entity']}: played {line['played_revenue']}, "
                  f"best {line['best_revenue']} ({line['ms']:.1f} ms, exact={line['exact']})")
    return 0


def _accepted(game: Game, sol: Solution) -> bool:
    """The engine's own judge accepts the solver's run at exactly its revenue."""
    from engine.routes.api import operating_corporation
    from engine.routes.revenue import score_routes

    if not sol.routes:
        return sol.revenue == 0
    t = game.title
    corp = operating_corporation(game)
    if t.run_error(game, corp, sol.routes):  # e.g. an 1870 connection run's home-destination train
        return False
    trains = {tr.id: tr for tr in t.active_trains(game, corp)}
    try:
        got = score_routes(t.board(game), corp.id,
                           {r.train: t.train_spec(game, trains[r.train]) for r in sol.routes},
                           sol.routes, t.route_rules(game, corp))
    except EngineError:
        return False
    return sum(got) == sol.revenue


def _score_logged(game: Any, act: Any) -> int | None:
    from engine.routes.api import operating_corporation
    from engine.routes.revenue import score_routes

    t = game.title
    corp = operating_corporation(game)
    trains = {tr.id: tr for tr in t.active_trains(game, corp)}
    try:
        return sum(score_routes(t.board(game), corp.id,
                                {r.train: t.train_spec(game, trains[r.train]) for r in act.routes},
                                act.routes, t.route_rules(game, corp)))
    except (EngineError, KeyError):
        return None
