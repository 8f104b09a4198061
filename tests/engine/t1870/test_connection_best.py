"""The best 1870 connection run (engine/titles/t1870/connection.py): one train from home to the
destination, every other train free.

On the connection runs of the shared games it is accepted by the engine, pays at least what the
players logged and at least the single walk route the legal answer offers today; on hand-built
boards it matches an exhaustive search."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from engine.actions import parse_action
from engine.core.data import load_title_data
from engine.game import Game
from engine.routes.reach import reachable
from engine.routes.revenue import check_line, route_context, score_routes, train_spec
from engine.routes.solver import best_routes
from engine.routes.types import Board, NodeRef, RouteRules, TrainSpec
from engine.titles.t1870.connection import best_connection
from engine.titles.t1870.connection_offer import best_connection_routes, best_connection_solution
from engine.titles.t1870.state import corp1870
from tests.engine.routes._boards import all_lines
from tests.engine.t1870._util import ALLOWED, BANK, BANKRUPT, SMALL, fixture, replay

D = load_title_data("1870")

# (fixture, id of the `choose` that starts a connection run, id of the logged run)
RUNS = [
    (BANK, 622, 623), (BANK, 652, 653), (BANK, 668, 669), (BANK, 853, 854), (BANK, 856, 857),
    (BANK, 874, 875), (BANK, 914, 915), (BANK, 1034, 1035), (BANK, 1109, 1110),
    (BANK, 1136, 1137),
    (BANKRUPT, 398, 399), (BANKRUPT, 452, 453), (BANKRUPT, 462, 463), (BANKRUPT, 472, 473),
    (BANKRUPT, 550, 551), (BANKRUPT, 653, 655), (BANKRUPT, 798, 799), (BANKRUPT, 822, 823),
    (BANKRUPT, 842, 843),
    (ALLOWED, 433, 434), (ALLOWED, 559, 560), (ALLOWED, 605, 606), (ALLOWED, 778, 779),
    (ALLOWED, 801, 802), (ALLOWED, 812, 813), (ALLOWED, 830, 831),
]  # fmt: skip


def _run(game: Game, corp: str, routes: list[dict[str, Any]]) -> int:
    """Apply the connection run without logged revenues (the engine scores every route and
    checks the connection rule); return the revenue the engine credits."""
    bare = [{k: v for k, v in r.items() if k != "revenue"} for r in routes]
    act = {"type": "run_routes", "entity": corp, "entity_type": "corporation", "routes": bare}
    t: Any = game.title
    assert t.connection_route_error(game, game.state.corporations[corp], parse_action(act)) is None
    game.apply(act)
    assert game.legal().kinds == ("dividend",)
    return int(game.round.conn_revenue)  # type: ignore[attr-defined]


def _logged_revenue(name: str, run_id: int) -> int:
    act = next(a for a in fixture(name)["actions"] if a.get("id") == run_id)
    return sum(int(r.get("revenue") or 0) for r in act["routes"])


def _check_position(game: Game) -> tuple[int, int]:
    """(best revenue, walk revenue) of the connection run waiting in `game`, both applied."""
    corp_id = game.round.conn_runs[0]  # type: ignore[attr-defined]
    corp = game.state.corporations[corp_id]
    assert game.legal().kinds == ("run_routes",)
    sol = best_connection_solution(game, corp)
    assert sol is not None and sol.exact
    routes = best_connection_routes(game, corp)
    assert routes is not None and routes == [r.model_dump(exclude_none=True) for r in sol.routes]
    home, dest = corp.home[0], corp1870(corp).destination_run_hex
    assert (routes[0]["hexes"][0], routes[0]["hexes"][-1]) == (dest, home)
    assert len({r["train"] for r in routes}) == len(routes)
    walk = game.title.connection_route(game, corp)  # type: ignore[attr-defined]
    walk_revenue = _run(copy.deepcopy(game), corp_id, [walk]) if walk is not None else 0
    assert _run(game, corp_id, routes) == sol.revenue
    return sol.revenue, walk_revenue


@pytest.mark.parametrize(("name", "choose_id", "run_id"), RUNS)
def test_best_connection_run_on_logged_positions(name: str, choose_id: int, run_id: int) -> None:
    game = replay(name, run_id - 1)
    best, walk = _check_position(game)
    assert best >= walk
    assert best >= _logged_revenue(name, run_id)


def test_no_route_when_the_trains_cannot_connect() -> None:
    """34110 (March 2021, the site's walk then allowed one node more): MP chose Map, but its 3-
    and 4-trains cannot run from St. Louis to Dallas; neither the walk nor the best run exists."""
    game = replay(SMALL, 227)
    mp = game.state.corporations["MP"]
    assert game.title.connection_route(game, mp) is None  # type: ignore[attr-defined]
    assert best_connection_routes(game, mp) is None


@pytest.mark.parametrize(("name", "choose_id", "run_id"), RUNS[::3])
def test_best_connection_run_after_charter(name: str, choose_id: int, run_id: int) -> None:
    """The same runs with the token kept on the charter (the destination is not doubled)."""
    game = replay(name, choose_id - 1)
    corp = game.round.conn_runs[0]  # type: ignore[attr-defined]
    game.apply({"type": "choose", "entity": corp, "entity_type": "corporation", "choice": "Charter"})
    best, walk = _check_position(game)
    assert best >= walk


def test_best_run_uses_every_train_where_the_walk_runs_one() -> None:
    """FW's run in the bank game: the walk offers the 4-train A2-D5-F5-J3 ($160); the best run
    adds the 3-train F5-B9 ($70), which the players also ran."""
    game = replay(BANK, 622)
    fw = game.state.corporations["FW"]
    walk = game.title.connection_route(game, fw)  # type: ignore[attr-defined]
    routes = best_connection_routes(game, fw)
    assert walk is not None and routes is not None
    assert [r["hexes"] for r in routes] == [["A2", "D5", "F5", "J3"], ["F5", "B9"]]
    assert [r["train"] for r in routes] == ["4-2", "3-5"] and walk["train"] == "4-2"
    assert [r["revenue"] for r in routes] == [160, 70]


# ---------------------------------------------------------------------------------------------
# Hand-built boards

# B7 town - B9 city (home, a token) - B11 city (destination) - B13 town, yellow, in a line
LINE = {"B7": ("4", 1), "B9": ("57", 1), "B11": ("57", 1), "B13": ("4", 1)}
PLAIN = RouteRules(phase="2")


def _specs(*ids: str) -> dict[str, TrainSpec]:
    return {t: train_spec(D, t) for t in ids}


def test_constructed_line_best_set_differs_from_single_walk() -> None:
    board = Board(D, LINE, {("B9", 0): ("ATSF",)})
    trains = _specs("3-0", "2-0")
    # the only home-destination route is B11-B9 ($40): the walk's answer, one train
    alone = best_connection(board, "ATSF", _specs("3-0"), PLAIN, "B9", "B11")
    assert alone is not None and alone.exact
    assert [(r.train, r.hexes, r.revenue) for r in alone.routes] == [("3-0", ["B11", "B9"], 40)]
    # the other train runs on the track the connecting route leaves free ($30 more)
    sol = best_connection(board, "ATSF", trains, PLAIN, "B9", "B11")
    assert sol is not None and sol.exact and sol.revenue == 70
    assert len(sol.routes) == 2 and sol.routes[0].hexes == ["B11", "B9"]
    assert set(sol.routes[1].hexes) in ({"B7", "B9"}, {"B11", "B13"})  # $30 either way
    # without the rule the best run is $80 (B7-B9-B11 + B11-B13), which has no such route
    free = best_routes(board, "ATSF", trains, PLAIN)
    assert free.revenue == 80
    assert not any({r.hexes[0], r.hexes[-1]} == {"B9", "B11"} for r in free.routes)
    assert score_routes(board, "ATSF", trains, sol.routes, PLAIN) == [40, 30]


# B9 (green, home) forks to B11 (green, destination): directly, and through the A10 town;
# towns B7 and B13 at the two ends
FORK = {"B7": ("4", 1), "B9": ("14", 0), "A10": ("3", 5), "B11": ("15", 1), "B13": ("4", 1)}


def test_constructed_connector_is_not_the_best_connecting_route() -> None:
    """The best connecting route is the 5-train's B11-A10-B9 ($70); the best run gives the
    connection to the 2-train (B11-B9 direct, $60) so the 5-train runs B13-B11-A10-B9-B7."""
    board = Board(D, FORK, {("B9", 0): ("ATSF", None)})
    rules = RouteRules(phase="3")
    alone = best_connection(board, "ATSF", _specs("5-0"), rules, "B9", "B11")
    assert alone is not None and [r.hexes for r in alone.routes] == [["B11", "A10", "B9"]]
    assert alone.revenue == 70
    sol = best_connection(board, "ATSF", _specs("5-0", "2-0"), rules, "B9", "B11")
    assert sol is not None and sol.exact and sol.revenue == 150
    assert [(r.train, r.hexes, r.revenue) for r in sol.routes] == [
        ("2-0", ["B11", "B9"], 60), ("5-0", ["B13", "B11", "A10", "B9", "B7"], 90)]


def test_constructed_no_connection() -> None:
    board = Board(D, {"B7": ("4", 1), "B9": ("57", 1)}, {("B9", 0): ("ATSF",)})
    assert best_connection(board, "ATSF", _specs("3-0"), PLAIN, "B9", "B11") is None
    line = Board(D, LINE, {("B9", 0): ("ATSF",)})
    assert best_connection(line, "ATSF", {}, PLAIN, "B9", "B11") is None
    # a 2-train cannot reach a destination three stops away
    assert best_connection(line, "ATSF", _specs("2-0"), PLAIN, "B9", "B13") is None


def _dest_bonus(dest: str) -> Any:
    """1870's destination doubling: the value of the destination stop again at a route end."""

    def bonus(board: Board, corp: str, stops: list[NodeRef]) -> int:
        ends = [s for s in (stops[0], stops[-1]) if s[0] == dest] if len(stops) >= 2 else []
        if not ends:
            return 0
        laid = board.tiles.get(dest)
        geo = D.tiles[laid[0]].geometry if laid else D.hexes[dest].geometry
        return int(geo.node(ends[0][1], ends[0][2]).value("3"))

    return bonus


def _brute_force(board: Board, corp: str, trains: dict[str, TrainSpec], rules: RouteRules,
                 home: str, dest: str) -> int | None:
    """Every line of links (check_line judges it), every assignment with a connecting route."""
    ctx = route_context(board, corp, rules)
    g = ctx.graph
    lines = all_lines(g, 7)
    options: list[list[tuple[int, int, bool]]] = []
    for spec in trains.values():
        opts = []
        for ln in lines:
            try:
                rev, mask = check_line(ctx, spec, ln)
            except Exception:  # noqa: BLE001 - an illegal line
                continue
            ends = {g.nodes[ln[0].a].hex, g.nodes[ln[-1].b].hex}
            opts.append((rev, mask, ends == {home, dest}))
        options.append(opts)
    best: int | None = None

    def pick(i: int, used: int, total: int, connected: bool) -> None:
        nonlocal best
        if i == len(options):
            if connected and (best is None or total > best):
                best = total
            return
        pick(i + 1, used, total, connected)
        for rev, mask, conn in options[i]:
            if not mask & used:
                pick(i + 1, used | mask, total + rev, connected or conn)

    pick(0, 0, 0, False)
    return best


def _random_board(rng: random.Random) -> Board:
    hexes = [h for h, x in D.hexes.items()
             if x.tileable and x.x <= 12 and x.y <= 6 and x.possible_tiles.get("yellow") and h != "B9"]
    tiles: dict[str, tuple[str, int]] = {}
    for h in ["B9"] + rng.sample(hexes, k=rng.randint(20, 32)):
        colour = "green" if rng.random() < 0.6 and D.hexes[h].possible_tiles.get("green") else "yellow"
        options = D.hexes[h].possible_tiles[colour]
        name = rng.choice(sorted(options))
        tiles[h] = (name, rng.choice(list(options[name] or (0,))))
    tokens: dict[tuple[str, int], tuple[str | None, ...]] = {}
    for h, (name, _) in tiles.items():
        for city in D.tiles[name].geometry.cities:
            slots = max(city.slots, 1)
            r = rng.random()
            if h == "B9":
                tokens[(h, city.index)] = ("ATSF",) + (None,) * (slots - 1)
            elif r < 0.25:
                tokens[(h, city.index)] = ("GMO",) * slots
            elif r < 0.4:
                tokens[(h, city.index)] = ("ATSF",) + (None,) * (slots - 1)
    return Board(D, tiles, tokens)


TRAIN_SETS = [("2-0",), ("2-0", "2-1"), ("3-0", "2-0"), ("4-0", "3-0"), ("5-0", "3-0", "2-0"),
              ("3-0", "3-1")]


def test_matches_brute_force_on_random_networks() -> None:
    rng = random.Random(1870)
    compared = several = 0
    for trial in range(600):
        board = _random_board(rng)
        reach = reachable(board, "ATSF")
        dests = sorted({ref[0] for ref in reach.nodes} - {"B9"})
        if not dests:
            continue
        dest = rng.choice(dests)
        trains = _specs(*TRAIN_SETS[trial % len(TRAIN_SETS)])
        bonus = trial % 3 != 0
        rules = RouteRules(phase="3", route_bonus=_dest_bonus(dest) if bonus else None,
                           route_bonus_max=(60 if trial % 2 else None) if bonus else None)
        expected = _brute_force(board, "ATSF", trains, rules, "B9", dest)
        sol = best_connection(board, "ATSF", trains, rules, "B9", dest)
        if expected is None:
            assert sol is None, (trial, board.tiles, dest)
            continue
        assert sol is not None and sol.exact
        assert sol.revenue == expected, (trial, board.tiles, board.tokens, dest, sorted(trains))
        assert {sol.routes[0].hexes[0], sol.routes[0].hexes[-1]} == {"B9", dest}
        assert score_routes(board, "ATSF", trains, sol.routes, rules) == [r.revenue for r in sol.routes]
        compared += 1
        several += len(sol.routes) > 1
    assert compared >= 150 and several >= 30, (compared, several)


def test_time_limit_gives_a_legal_run_marked_inexact() -> None:
    """ATSF's run in 40469 (action 813) under budgets too small to finish: whatever is found is
    a legal connection run, marked inexact; a large enough budget gives the exact answer."""
    game = replay(ALLOWED, 812)
    atsf = game.state.corporations["ATSF"]
    full = best_connection_solution(game, atsf)
    assert full is not None and full.exact and full.revenue == 480
    partial = 0
    for ms in (1, 2, 5):
        sol = best_connection_solution(game, atsf, time_limit_ms=ms)
        assert sol is not None and not sol.exact and sol.revenue <= full.revenue
        if sol.routes:
            partial += 1
            routes = [r.model_dump(exclude_none=True) for r in sol.routes]
            assert _run(copy.deepcopy(game), "ATSF", routes) == sol.revenue
        else:
            assert best_connection_routes(game, atsf, time_limit_ms=ms) is None
    assert partial >= 1
    assert best_connection_solution(game, atsf, time_limit_ms=2000) == full
