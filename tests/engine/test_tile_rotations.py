"""Rotations that lay the same track (engine.core.tiles.distinct_rotations): what a player is
shown to choose from; the engine still accepts every legal rotation."""

from __future__ import annotations

import pytest

from engine.core.data import load_title_data
from engine.core.tiles import distinct_rotations


@pytest.mark.parametrize("title,tile,expected", [
    ("18MS", "9", [0, 1, 2]),        # a straight: r and r + 3 are the same track
    ("18MS", "57", [0, 1, 2]),       # a city on a straight
    ("18MS", "7", [0, 1, 2, 3, 4, 5]),  # a curve: every rotation differs
    ("18MS", "63", [0]),             # six exits round one city
    ("18MEX", "470", [0, 1, 2, 3, 4, 5]),  # the off-centre town turns with the tile
])
def test_symmetric_tiles_have_fewer_distinct_rotations(title: str, tile: str,
                                                       expected: list[int]) -> None:
    geo = load_title_data(title).tiles[tile].geometry
    assert distinct_rotations(geo, list(range(6))) == expected


def test_only_the_offered_rotations_are_kept_in_order() -> None:
    geo = load_title_data("18MS").tiles["9"].geometry
    assert distinct_rotations(geo, [3, 4, 0, 1]) == [3, 4]
    assert distinct_rotations(geo, []) == []


def test_two_cities_keep_their_places() -> None:
    """A tile whose half turn swaps two cities is not folded: tokens sit in a city (none of
    the three titles has such a tile, so a made-up one)."""
    from engine.core.data import Geometry, Node, Path_

    cities = (Node("city", 0, 0, 30, slots=1), Node("city", 1, 1, 30, slots=1))
    geo = Geometry(cities, (), (), (Path_(("edge", 0), ("city", 0)),
                                    Path_(("edge", 3), ("city", 1))), ())
    assert distinct_rotations(geo, list(range(6))) == [0, 1, 2, 3, 4, 5]
    one_city = Geometry(cities[:1], (), (), (Path_(("edge", 0), ("city", 0)),
                                             Path_(("edge", 3), ("city", 0))), ())
    assert distinct_rotations(one_city, list(range(6))) == [0, 1, 2]
