"""The reach walk as on the site: a depth-first walk from each token that never turns back at
a node or at a junction of track, and never crosses an edge twice on the way."""

from __future__ import annotations

from engine.routes.reach import reachable

from ._boards import MS_PASS, ms_board

# Jackson (E1, Fr's token) - D2 straight - C3 green #28 (two paths sharing exit 2, towards B2)
# - B2 town. From D2 the walk enters C3 at edge 0 and goes on to B2; C3's other branch (2-1,
# towards C1) starts at the junction the walk came through: reaching it would mean turning back
# at the B2 town and re-entering C3 through the edge just crossed.
JUNCTION = {"D2": ("9", 0), "C3": ("28", 2), "B2": ("204", 2)}


def test_no_turning_back_at_a_town_into_a_junction() -> None:
    reach = reachable(ms_board(JUNCTION, {("E1", 0): ("Fr",)}), "Fr", MS_PASS)
    assert ("B2", "town", 0) in reach.nodes
    assert ("C3", 0) in reach.edges and ("C3", 2) in reach.edges
    assert ("C3", 1) not in reach.edges and ("C1", 4) not in reach.edges


def test_a_junction_entered_from_its_shared_exit_reaches_both_branches() -> None:
    # the same track, but the walk comes from B2's side (a token in B4, its city facing B2):
    # from the shared exit both branches go on
    tiles = {**JUNCTION, "B4": ("57", 1)}
    reach = reachable(ms_board(tiles, {("B4", 0): ("Fr",)}), "Fr", MS_PASS)
    assert ("B2", "town", 0) in reach.nodes
    assert {("C3", 0), ("C3", 1), ("C3", 2), ("C1", 4)} <= reach.edges
