"""The replay caches are what a fresh computation gives, at every step of the real games:

- a track graph built from the previous one (`graph._build` with `prev`: the hexes before the
  first changed one taken over, the rest numbered on) is the graph built from nothing, at every
  graph a fixture's replay builds (every lay, and each candidate board a lay is checked on);
- the board a game keeps (`Game.board_memo`, given again while the tiles and tokens are
  unchanged) is the board made afresh from the state, before every action.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.io.export18xx import import_game
from engine.routes import graph
from engine.routes.graph import TrackGraph
from engine.routes.types import Board
from tests.engine._helpers import load_fixture

FIXTURES = (
    "1870/1870_game_end_bank.json", "1870/1870_game_end_bankrupt.json", "1870/34110.json",
    "1870/40469_price_protect_allowed.json", "1870/40469_price_protect_over_cert_limit_fails.json",
    "18MEX/13315.json", "18MEX/17849.json", "18MEX/18MEX_game_end_stock_market.json",
    "18MEX/hotseat01.json", "18MS/14375.json", "18MS/17510.json",
)


def _picture(g: TrackGraph) -> dict[str, Any]:
    """Everything a graph holds, and what is made from it on first use."""
    return {
        "nodes": list(g.nodes), "node_ids": list(g.node_ids.items()), "paths": list(g.paths),
        "ends": [(h, list(e.items())) for h, e in g.ends.items()],
        "placed": [(h, p[:4]) for h, p in g.placed.items()],
        "pieces": [(h, id(p)) for h, p in g.pieces.items()],
        "stubs": list(g.stubs), "part_order": list(g.part_order),
        "part_starts": list(g.part_starts), "tiles": g.tiles,
        "bits": (sorted(g.crossing_bits.items()), sorted(g.path_bits.items()), g.nbits),
        "path_nodes": g.path_nodes,
        "links": [[(k.a, k.b, k.mask, k.chain) for k in links] for links in g.links_from],
    }


def _boards(key: str, every: int) -> list[Any]:
    """The fixture's board before every `every`-th action."""
    boards = []

    def before(game: Any, act: Any) -> None:
        if act.id % every == 0:
            boards.append(game.title.board(game))

    import_game(load_fixture(key), before=before)
    assert boards
    return boards


@pytest.mark.parametrize("key", FIXTURES)
def test_every_graph_built_from_the_previous_one_is_the_fresh_graph(
        key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data = load_fixture(key)
    built = graph._build
    seen = {"from_prev": 0}

    def checked(board: Board, tiles_key: Any, prev: TrackGraph | None = None) -> TrackGraph:
        got = built(board, tiles_key, prev)
        if prev is not None:
            seen["from_prev"] += 1
            fresh = built(board, tiles_key, None)
            assert _picture(got) == _picture(fresh), f"graph {seen['from_prev']} of {key}"
        return got

    monkeypatch.setattr(graph, "_build", checked)
    graph._CACHE.clear()
    graph._LAST.clear()
    game = import_game(data)
    lays = sum(1 for a in game.log if a.type == "lay_tile")
    assert seen["from_prev"] >= lays // 2 > 0  # (most lays build a graph from the last one)


@pytest.mark.parametrize("key", FIXTURES)
def test_the_kept_board_is_the_fresh_board_before_every_action(key: str) -> None:
    data = load_fixture(key)
    checked = {"n": 0}

    def before(game: Any, act: Any) -> None:
        st = game.state
        fresh = Board(game.title.data, {h: (p.tile, p.rotation) for h, p in st.tiles.items()},
                      {k: tuple(v) for k, v in st.city_tokens.items()})
        kept = game.board_memo[2] if game.board_memo is not None else None
        game.title.board(game)
        base = game.board_memo[2]
        assert (base.tiles, base.tokens) == (fresh.tiles, fresh.tokens)
        if kept is not None and kept is base:
            checked["n"] += 1  # given again: it still is the state's board

    import_game(data, before=before)
    assert checked["n"] > 0


@pytest.mark.parametrize("key", [pytest.param("1870/1870_game_end_bank.json", marks=pytest.mark.slow),  # ~12 s
                                 "1870/34110.json",
                                 "18MEX/18MEX_game_end_stock_market.json"])
def test_a_walk_bounded_late_gives_the_answers_of_one_bounded_first(
        key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reach walk reckons its closure after as many steps as the graph has paths; with the
    closure reckoned before its first step, or never, every answer is the same (before every
    lay, for the corporation laying: its reach, and whether it reaches each hex's paths)."""
    from engine.routes import reach

    data = load_fixture(key)
    init = reach._ReachWalk.__init__
    asked = {"n": 0}

    def answers(game: Any, corp: str, budget: int | None) -> Any:
        def patched(self: Any, *a: Any) -> None:
            init(self, *a)
            self.steps_left = budget if budget is not None else self.steps_left

        monkeypatch.setattr(reach._ReachWalk, "__init__", patched)
        reach._REACH_CACHE.clear()
        reach._REACHES_CACHE.clear()
        try:
            board = game.title.board(game)
            g = graph.track_graph(board)
            pt = game.title.pass_through_offboards
            full = reach.reachable(board, corp, pt)
            hexes = [reach.reaches_any(board, corp, pt, [p.id for p in g.hex_paths(h)])
                     for h in sorted(g.ends)]
            return full, hexes, reach.reaches_two_nodes(board, corp, pt)
        finally:
            monkeypatch.setattr(reach._ReachWalk, "__init__", init)
            reach._REACH_CACHE.clear()
            reach._REACHES_CACHE.clear()

    def before(game: Any, act: Any) -> None:
        if act.type != "lay_tile" or act.entity not in game.state.corporations:
            return
        asked["n"] += 1
        late = answers(game, act.entity, None)
        assert answers(game, act.entity, 1) == late
        assert answers(game, act.entity, 10**9) == late

    import_game(data, before=before)
    assert asked["n"] > 20


@pytest.mark.parametrize("key", ["1870/1870_game_end_bank.json", "18MEX/18MEX_game_end_stock_market.json",
                                 "18MS/17510.json"])
def test_hex_targets_are_the_paths_whose_step_touches_the_hex_or_its_edges(key: str) -> None:
    """reach.hex_targets, read from the hexes' ends, is what the walk's steps say: the paths
    whose step touches one of the hex's wanted edges, or that lie in the hex (every hex, every
    edge, on the board at each hundredth action)."""
    from engine.routes import reach
    from engine.routes.steps import _path_step

    boards = _boards(key, 100)
    for board in boards:
        g = graph.track_graph(board)
        for hex_name in board.data.hexes:
            for edge in range(6):
                want = {(hex_name, edge)}
                by_steps = {p.id for p in g.paths if p.hex == hex_name
                            or not want.isdisjoint(_path_step(g, p.id).edges)}
                assert set(reach.hex_targets(g, hex_name, {edge})) == by_steps, (hex_name, edge)


@pytest.mark.parametrize("key", ["1870/34110.json", "18MEX/13315.json", "18MS/17510.json",
                                 pytest.param("1870/1870_game_end_bank.json", marks=pytest.mark.slow)])
def test_links_along_a_chain_are_the_whole_index_s(key: str) -> None:
    """TrackGraph.along (made from the chain's first hex, the walk kept on the chain) gives
    by_chain's links in by_chain's order, for every chain of the index, its reverse and its
    first part (on the board at every twentieth action); and links_of is links_from's."""
    boards = _boards(key, 20)
    asked = 0
    for board in boards:
        graph._CACHE.clear()
        graph._LAST.clear()
        lazy = graph.track_graph(board)
        graph._CACHE.clear()
        whole = graph.track_graph(board)
        assert lazy is not whole
        index = whole.by_chain
        for chain in list(index):
            for c in (chain, chain[::-1], chain[:-1]):
                assert lazy.along(c) == index.get(c, []), (key, c)
                asked += 1
        assert [lazy.links_of(i) for i in range(len(lazy.nodes))] == whole.links_from
    assert asked > 100
