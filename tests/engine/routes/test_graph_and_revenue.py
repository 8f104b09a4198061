"""Track graph, reach, and route checking/scoring on hand-built boards."""

from __future__ import annotations

import pytest

from engine.actions import Route
from engine.core.data import load_title_data
from engine.errors import EngineError
from engine.routes.graph import track_graph
from engine.routes.reach import reachable
from engine.routes.revenue import score_routes, train_spec
from engine.routes.types import Board, RouteRules, TrainSpec

from ._boards import IC_LINE, MS_PASS, ms_board, ms_rules

MS = load_title_data("18MS")
CHATTANOOGA = ["B2", "B4", "B6", "B8", "B10", "B12"]


def trains(*ids: str, face: str | None = None) -> dict[str, TrainSpec]:
    return {t: train_spec(MS, t, face) for t in ids}


def run(board: Board, corp: str, specs: dict, routes: list[list[list[str]]], rules: RouteRules):
    ids = list(specs)
    return score_routes(
        board,
        corp,
        specs,
        [Route(train=ids[i], connections=c) for i, c in enumerate(routes)],
        rules,
    )


def rejects(rule: str, *args: object) -> str:
    with pytest.raises(EngineError) as err:
        run(*args)  # type: ignore[arg-type]
    assert err.value.rule == rule, str(err.value)
    return str(err.value)


# --- graph and reach -------------------------------------------------------------------------


def test_reach_follows_track_from_tokens() -> None:
    board = ms_board(IC_LINE, {("A1", 0): ("IC",)})
    reach = reachable(board, "IC", MS_PASS)
    assert ("B12", "offboard", 0) in reach.nodes
    assert ("B2", "town", 0) in reach.nodes
    assert reach.cities == {("A1", "city", 0)}
    # the stub of red track A3 points into B4's edge 2; B10's tile points at Chattanooga
    assert ("B4", 2) in reach.edges and ("B12", 1) in reach.edges
    assert {"A1", "A3", "B2", "B4", "B10", "B12"} <= reach.connected_hexes
    assert "C1" not in reach.connected_hexes
    assert reachable(board, "Fr", MS_PASS).edges == frozenset()


def test_reach_stops_at_city_full_of_other_tokens_but_not_own() -> None:
    tiles = dict(IC_LINE, B4=("57", 1))  # a city on the line
    blocked = reachable(ms_board(tiles, {("A1", 0): ("IC",), ("B4", 0): ("Fr",)}), "IC", MS_PASS)
    assert ("B4", "city", 0) in blocked.cities
    assert ("B6", 1) not in blocked.edges
    own = reachable(ms_board(tiles, {("A1", 0): ("IC",), ("B4", 0): ("IC",)}), "IC", MS_PASS)
    assert ("B6", 1) in own.edges and ("B12", "offboard", 0) in own.nodes


def test_reach_does_not_pass_offboards_unless_pass_through() -> None:
    # IC's track leaves Memphis both ways: B2 (edge 5) and A3 (edge 4)
    board = ms_board({"B2": ("58", 2), "B4": ("57", 2)}, {("B4", 0): ("GMO",)})
    assert ("B2", "town", 0) in reachable(board, "GMO", MS_PASS).nodes
    assert ("B2", "town", 0) not in reachable(board, "GMO", frozenset()).nodes


def test_graph_cached_per_layout() -> None:
    a = track_graph(ms_board(IC_LINE, {}))
    b = track_graph(ms_board(dict(IC_LINE), {("A1", 0): ("IC",)}))
    assert a is b


def test_terminal_offboards_by_title() -> None:
    g70 = track_graph(Board(load_title_data("1870"), {}, {}))
    assert g70.node(("A2", "city", 0)).offboard  # Denver: terminal paths
    gmex = track_graph(Board(load_title_data("18MEX"), {}, {}))
    assert gmex.node(("Q14", "city", 0)).offboard  # Merida
    assert not gmex.node(("O10", "city", 0)).offboard


def test_18mex_lanes_double_hex() -> None:
    data = load_title_data("18MEX")
    board = Board(
        data, {"O10": ("485MC", 0), "P11": ("485P", 0), "O12": ("57", 1)}, {("O10", 0): ("NdM",)}
    )
    g = track_graph(board)
    mc = g.node_ids[("O10", "city", 0)]
    ends = {g.nodes[lk.b].ref: lk.chain for lk in g.links_from[mc]}
    assert ends[("P11", "town", 0)] == ("O10", "P11")
    assert ends[("O12", "city", 0)] == ("O10", "P11", "O12")
    rules = RouteRules(phase="5")
    specs = {"4-0": train_spec(data, "4-0")}
    # Puebla town -> Mexico City -> O12: both lanes of the double-hex edge in one route
    rev = score_routes(
        board,
        "NdM",
        specs,
        [Route(train="4-0", connections=[["P11", "O10"], ["O10", "P11", "O12"]])],
        rules,
    )
    assert rev == [10 + 60 + 20]


# --- scoring ---------------------------------------------------------------------------------


def test_logged_example_free_town_and_phase_values() -> None:
    board = ms_board(IC_LINE, {("A1", 0): ("IC",)})
    chains = [CHATTANOOGA, ["B2", "A1"]]  # chains in either direction, as logs write them
    assert run(board, "IC", trains("2+-0"), [chains], ms_rules("2")) == [40 + 10 + 40]
    assert run(board, "IC", trains("2+-0"), [chains], ms_rules("6")) == [50 + 10 + 60]


def test_d_trains_count_towns_and_double() -> None:
    board = ms_board(IC_LINE, {("A1", 0): ("IC",)})
    chains = [CHATTANOOGA, ["B2", "A1"]]
    assert run(board, "IC", trains("2D-0", face="4D"), [chains], ms_rules("D")) == [
        2 * (50 + 10 + 60)
    ]
    msg = rejects("route.too_many_stops", board, "IC", trains("2D-0"), [chains], ms_rules("D"))
    assert "at most 2 stops" in msg and "has 3" in msg
    # 5-trains count towns but do not double
    assert run(board, "IC", trains("5-0"), [chains], ms_rules("6")) == [120]


def test_new_orleans_inside_hex_and_bonus() -> None:
    board = ms_board({}, {("I1", 0): ("Fr",)})
    assert run(board, "Fr", trains("2+-0"), [[["I1"]]], ms_rules("2")) == [50 + 10]
    bonus = RouteRules(
        phase="2",
        pass_through_offboards=MS_PASS,
        route_bonus=lambda b, c, stops: 10 if ("I1", "city", 0) in stops else 0,
    )
    assert run(board, "Fr", trains("2+-0"), [[["I1"]]], bonus) == [70]


def test_rejections_name_the_rule() -> None:
    board = ms_board(IC_LINE, {("A1", 0): ("IC",)})
    chains = [CHATTANOOGA, ["B2", "A1"]]
    rules = ms_rules()
    with pytest.raises(EngineError) as err:
        score_routes(board, "IC", trains("2+-0"), [Route(train="3+-0", connections=chains)], rules)
    assert err.value.rule == "route.unknown_train"
    assert "no track between B2 and B4" in rejects(
        "route.no_track", board, "IC", trains("2+-0"), [[["B2", "B4"]]], rules
    )
    assert "Fr token" in rejects("route.no_token", board, "Fr", trains("2+-0"), [chains], rules)
    assert "twice" in rejects(
        "route.node_twice", board, "IC", trains("2+-0"), [[["A1", "B2"], ["B2", "A1"]]], rules
    )
    assert "same track" in rejects(
        "route.track_shared",
        board,
        "IC",
        trains("2+-0", "2+-1"),
        [[["B2", "A1"]], [["A1", "B2"]]],
        rules,
    )
    assert "not one continuous" in rejects(
        "route.not_continuous", board, "IC", trains("2+-0"), [[["B2", "A1"], ["I1"]]], rules
    )
    with pytest.raises(EngineError) as err2:
        score_routes(board, "IC", trains("2+-0"), [Route(train="2+-0", connections=[])], rules)
    assert err2.value.rule == "route.too_few_stops"


def test_offboard_only_at_route_ends() -> None:
    # B2 town - Memphis - A3 red track - B4 city: Memphis in the middle
    board = ms_board({"B2": ("58", 2), "B4": ("57", 2)}, {("B4", 0): ("GMO",)})
    chains = [["B2", "A1"], ["A1", "A3", "B4"]]
    assert run(board, "GMO", trains("3+-0"), [chains], ms_rules()) == [10 + 40 + 20]
    strict = RouteRules(phase="2")
    msg = rejects("route.offboard_middle", board, "GMO", trains("3+-0"), [chains], strict)
    assert "Memphis (A1)" in msg


def test_blocked_city_cannot_be_passed() -> None:
    tiles = dict(IC_LINE, B4=("57", 1))
    chains = [["A1", "B2"], ["B2", "B4"], ["B4", "B6", "B8", "B10", "B12"]]
    full = ms_board(tiles, {("A1", 0): ("IC",), ("B4", 0): ("Fr",)})
    msg = rejects("route.blocked_city", full, "IC", trains("4+-0"), [chains], ms_rules())
    assert "B4" in msg
    # ending there is fine
    assert run(full, "IC", trains("4+-0"), [chains[:2]], ms_rules()) == [40 + 10 + 20]
    own = ms_board(tiles, {("A1", 0): ("IC",), ("B4", 0): ("IC",)})
    assert run(own, "IC", trains("4+-0"), [chains], ms_rules()) == [40 + 10 + 20 + 40]


def test_track_reused_within_route() -> None:
    # Atlanta's three arrows in E13 all end on edge 4: two routes cannot both reach it
    data = MS
    tiles = {"E11": ("57", 1), "D12": ("9", 0)}
    board = Board(data, tiles, {("E11", 0): ("WRA",)})
    g = track_graph(board)
    e11 = g.node_ids[("E11", "city", 0)]
    assert any(g.nodes[lk.b].ref == ("E15", "offboard", 0) for lk in g.links_from[e11])
    assert "same track" in rejects(
        "route.track_shared",
        board,
        "WRA",
        trains("2+-0", "2+-1"),
        [[["E11", "E13", "E15"]], [["E15", "E13", "E11"]]],
        ms_rules(),
    )
