"""1870 connection run, the game's side: the ends of a corporation's connection run, its best
run in the current state (connection.py's search on the corporation's board) and the run the
engine offers, scored by the engine's judge."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.routes.revenue import check_routes
from engine.routes.solver import Solution
from engine.titles.t1870.connection import best_connection
from engine.titles.t1870.state import corp1870

if TYPE_CHECKING:
    from engine.game import Game
    from engine.state import Corporation


def connection_ends(game: Game, corp: Corporation) -> tuple[str, str] | None:
    """(home hex, destination hex) of a connection run: the destination of the run under way
    (after Map/Charter), else the corporation's destination marker; None without either."""
    t: Any = game.title
    dest = corp1870(corp).destination_run_hex or t.destination_hex(corp)
    if corp.home is None or not isinstance(dest, str):
        return None
    return corp.home[0], dest


def best_connection_solution(
    game: Game, corp: Corporation, *, time_limit_ms: int | None = None
) -> Solution | None:
    """The best connection run of `corp` in the current state, as a solver Solution."""
    t: Any = game.title
    ends = connection_ends(game, corp)
    trains = {tr.id: t.train_spec(game, tr) for tr in t.active_trains(game, corp)}
    if ends is None or not trains or corp.closed:
        return None
    saved = getattr(t, "_board_for", None)
    t._board_for = corp.id  # the board as this corporation sees it (its destination token)
    try:
        board = t.board(game)
    finally:
        t._board_for = saved
    return best_connection(board, corp.id, trains, t.route_rules(game, corp), ends[0], ends[1],
                           time_limit_ms=time_limit_ms)


def best_connection_routes(
    game: Game, corp: Corporation, *, time_limit_ms: int | None = None
) -> list[dict[str, Any]] | None:
    """The routes of the best connection run, ready for a run_routes action (train,
    connections, hexes, nodes, revenue); the connecting route comes first and runs from the
    destination to home. None when no train can run from home to the destination (or, with a
    time limit, when none was found in time)."""
    sol = best_connection_solution(game, corp, time_limit_ms=time_limit_ms)
    if sol is None or not sol.routes:
        return None
    return [r.model_dump(exclude_none=True) for r in sol.routes]


def connection_run(
    game: Game, corp: Corporation, *, time_limit_ms: int | None = None
) -> list[dict[str, Any]] | None:
    """The run offered for a connection run: the best one, or (out of budget before any
    connecting route was met) the connection walk's route alone; None when there is neither."""
    routes = best_connection_routes(game, corp, time_limit_ms=time_limit_ms)
    if routes is None:
        t: Any = game.title
        route = t.connection_route(game, corp)
        routes = [route] if route is not None else None
    return routes


def connection_run_solution(
    game: Game, corp: Corporation, *, time_limit_ms: int | None = None
) -> Solution:
    """`connection_run` as a solver Solution, each route scored by the engine's judge (no
    routes at all when there is no connection run)."""
    from engine.actions import Route

    sol = best_connection_solution(game, corp, time_limit_ms=time_limit_ms)
    if sol is not None and sol.routes:
        return sol
    routes = connection_run(game, corp, time_limit_ms=time_limit_ms)
    if not routes:
        return Solution([], 0, sol.exact if sol is not None else True)
    t: Any = game.title
    trains = {tr.id: t.train_spec(game, tr) for tr in t.active_trains(game, corp)}
    saved = getattr(t, "_board_for", None)
    t._board_for = corp.id
    try:
        board = t.board(game)
    finally:
        t._board_for = saved
    objs = [Route.model_validate(r) for r in routes]
    scored = check_routes(board, corp.id, trains, objs, t.route_rules(game, corp))
    final = [r.model_copy(update={"revenue": x.revenue}) for r, x in zip(objs, scored, strict=True)]
    return Solution(final, sum(x.revenue for x in scored), False)
