"""The Copper Canyon tile (470): its town sits off-centre, by the tile's edge 0 (rotated with the
tile). Track from the other two edges meets the town on one shared stub, so, as on the site
("Route cannot reuse track on F5"), no route may come in on one of those edges and leave on the
other through the town, and two routes of a company may not both use that stub."""

from __future__ import annotations

import pytest

from engine.actions import Route
from engine.core.data import load_title_data
from engine.errors import EngineError
from engine.routes.graph import track_graph
from engine.routes.revenue import score_routes, train_spec
from engine.routes.types import Board, RouteRules

MEX = load_title_data("18MEX")
# F5 at rotation 0: edges 0 (to H5: the town's own side), 3 (to D5) and 4 (to Chihuahua, E6);
# a straight city tile (57) on D5 and on H5 meets it
TILES = {"F5": ("470", 0), "D5": ("57", 0), "H5": ("57", 0)}
TOKENS = {("E6", 0): ("CHI",)}


def _run(tiles: dict[str, tuple[str, int]], routes: list[list[list[str]]],
         tokens: dict[tuple[str, int], tuple[str | None, ...]] = TOKENS) -> list[int]:
    board = Board(MEX, tiles, tokens)
    ids = ["3-0", "3-1"][: len(routes)]
    specs = {t: train_spec(MEX, t) for t in ids}
    return score_routes(board, "CHI", specs, [Route(train=t, connections=c) for t, c in zip(ids, routes, strict=True)],
                        RouteRules(phase="3"))


def test_the_towns_own_edge_is_free_track() -> None:
    # Chihuahua -> (edge 4) Copper Canyon -> (edge 0) H5: the stub and the town's own track
    assert _run(TILES, [[["E6", "F5"], ["F5", "H5"]]]) == [20 + 20 + 20]


def test_in_and_out_through_the_shared_stub_is_reused_track() -> None:
    with pytest.raises(EngineError, match="reuses track") as err:
        _run(TILES, [[["E6", "F5"], ["F5", "D5"]]])
    assert err.value.rule == "route.track_reused"


def test_two_routes_may_not_share_the_stub() -> None:
    with pytest.raises(EngineError) as err:
        _run(TILES, [[["E6", "F5"]], [["F5", "D5"]]], {**TOKENS, ("D5", 0): ("CHI",)})
    assert err.value.rule in ("route.track_shared", "route.track_reused")


def test_the_stub_turns_with_the_tile() -> None:
    # rotation 3: edges 3 (the town's side, to D5), 0 (to H5) and 1 (to G4): H5 and G4 share
    # the stub, D5 does not
    tiles = {**TILES, "F5": ("470", 3), "G4": ("57", 1)}
    g = track_graph(Board(MEX, tiles, TOKENS))
    town = g.node_ids[("F5", "town", 0)]
    ends = {g.nodes[lk.b].ref[0]: lk.mask for lk in g.links_from[town]}
    assert set(ends) == {"D5", "G4", "H5"}
    assert ends["H5"] & ends["G4"]
    assert not ends["D5"] & ends["H5"] and not ends["D5"] & ends["G4"]
