"""Questions answered by a shorter way give the long way's answer, at every ask of the real games'
replays (each fixture loaded as a stored game, the way the shortcuts are asked):

- the number of a corporation's token cities counted from the token hexes' pieces (without the
  track graph: `reach.token_city_count`) is the number `token_nodes` finds on the graph;
- the paths "beyond" a home city found from the other nodes' ends (`reaches_two_nodes`) are
  the paths with another node on them (`TrackGraph.path_nodes`), for every node of every graph;
- `TokenRules.token_city_ok` is `token_city_error(...) is None` (a fresh look at the cities);
- `TrainRules.affords_a_train` is "the treasury reaches `min_train_price`" (never when None);
- `Market.cells_of("close")` holds a cell exactly when its types hold "close".
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.flow import base as flow_base
from engine.flow.or_tokens import CityLook, TokenRules
from engine.flow.or_trains import TrainRules
from engine.io.export18xx import start_from_export
from engine.routes import graph, reach
from engine.routes.graph import TrackGraph
from engine.routes.types import Board
from tests.engine._helpers import load_fixture
from tests.engine.routes.test_graph_incremental import FIXTURES


def _stored_load(key: str) -> Any:
    game, actions = start_from_export(load_fixture(key))
    game.load_log(actions, accepted=True)
    return game


@pytest.mark.parametrize("key", FIXTURES)
def test_shortcut_answers_are_the_long_answers(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = {"count": 0, "beyond": 0, "city": 0, "afford": 0}
    count = reach.token_city_count

    def counted(board: Board, corp: str) -> int:
        got = count(board, corp)
        assert got == len(reach.token_nodes(board, graph.track_graph(board), corp))
        asked["count"] += 1
        return got

    built = graph._build

    def build(board: Board, tiles_key: Any, prev: TrackGraph | None = None) -> TrackGraph:
        g = built(board, tiles_key, prev)
        for home in range(len(g.nodes)):
            long = frozenset(pid for pid, nodes in enumerate(g.path_nodes)
                             if any(n != home for n in nodes))
            short = frozenset(pid for info in g.nodes if info.id != home
                              for pid in g.ends[info.ref[0]].get((info.ref[1], info.ref[2], None), ()))
            assert short == long
            asked["beyond"] += 1
        return g

    ok = TokenRules.token_city_ok

    def city_ok(self: TokenRules, look: CityLook, hex_name: str, city: int) -> bool:
        got = ok(self, look, hex_name, city)
        fresh = CityLook(self, look.game, look.corp)
        assert got == (self.token_city_error(look.game, look.corp, hex_name, city, None, None,
                                              fresh) is None)
        asked["city"] += 1
        return got

    affords = TrainRules.affords_a_train

    def afford(self: TrainRules, game: Any, corp: Any) -> bool:
        got = affords(self, game, corp)
        low = self.min_train_price(game, corp)
        assert got == (low is not None and corp.cash >= low)
        asked["afford"] += 1
        return got

    monkeypatch.setattr(TrainRules, "affords_a_train", afford)
    monkeypatch.setattr(reach, "token_city_count", counted)
    monkeypatch.setattr(graph, "_build", build)
    monkeypatch.setattr(TokenRules, "token_city_ok", city_ok)
    # (the rules asked too where the next move tells a step's answer, engine/flow/base.py: a
    # short game's every token question may be told)
    monkeypatch.setattr(flow_base, "CHECK_TOLD", True)
    graph._CACHE.clear()
    graph._LAST.clear()
    game = _stored_load(key)
    assert asked["count"] > 0 and asked["beyond"] > 0 and asked["city"] > 0 and asked["afford"] > 0
    market = game.title.market
    assert market.cells_of("close") == {c for c, types in market.cell_types.items()
                                        if "close" in types}
