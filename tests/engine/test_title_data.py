"""The engine's data files equal what tools/convert_reference.py makes from the published
reference, and spot checks of the 18MS facts that need no reference."""

from __future__ import annotations

import json
import sys

import pytest

from engine.core.data import TITLE_DIRS, TITLES_ROOT, load_title_data
from tests.engine._helpers import REPO, SHARED, SKIP_MSG

sys.path.insert(0, str(REPO / "tools"))
from convert_reference import TITLES, convert  # noqa: E402


@pytest.mark.parametrize("title", sorted(TITLES))
def test_data_files_match_the_reference(title: str) -> None:
    ref_path = SHARED / "reference" / f"{title}.json"
    if not ref_path.is_file():
        pytest.skip(SKIP_MSG)
    expected = convert(json.loads(ref_path.read_text(encoding="utf-8")))
    if title == "18MEX":
        # a fact the reference omits: Copper Canyon's town (tile 470) sits off-centre, at edge 0,
        # so its other edges share one stub of track (as on the site)
        tiles = expected["tiles.json"]
        tile = next(t for t in (tiles if isinstance(tiles, list) else tiles.values())
                    if t.get("name") == "470")
        tile["towns"][0]["loc"] = 0
    target = TITLES_ROOT / TITLES[title]
    for name, content in expected.items():
        on_disk = json.loads((target / name).read_text(encoding="utf-8"))
        assert on_disk == content, f"{TITLES[title]}/{name} differs from the reference"


def test_title_dirs_agree() -> None:
    assert TITLE_DIRS == TITLES


def test_18ms_map_and_market() -> None:
    d = load_title_data("18MS")
    assert len(d.hexes) == 47
    assert [p["price"] for p in d.market["par_cells"]] == [70, 75, 80, 90]
    assert d.meta["cert_limit"] == {"2": 20, "3": 14, "4": 10}
    assert d.meta["starting_cash"] == {"2": 900, "3": 625, "4": 525}
    assert not d.hexes["E1"].tileable  # Jackson (gray)
    assert not d.hexes["I1"].tileable and not d.hexes["A1"].tileable  # red cities
    assert {h for h, x in d.hexes.items() if getattr(x, "terrain_cost", 0)} == {
        "E7", "F2", "F6", "F8", "G1", "G7", "H2", "H8"}


def test_18ms_trains() -> None:
    d = load_title_data("18MS")
    names = [t["name"] for t in d.trains]
    assert names == ["2+", "3+", "4+", "5", "6", "2D", "5D"]
    counts = {t["name"]: t["count"] for t in d.trains}
    assert counts == {"2+": 5, "3+": 4, "4+": 3, "5": 2, "6": 2, "2D": 4, "5D": 1}
    for t in d.trains:
        assert len(t["ids"]["ids"]) == t["count"]
        assert t["ids"]["ids"] == [f"{t['name']}-{i}" for i in range(t["count"])]
    prices = {t["name"]: t["price"] for t in d.trains}
    assert prices == {"2+": 80, "3+": 180, "4+": 300, "5": 500, "6": 550, "2D": 500, "5D": 850}


def test_tile_copy_ids_match_counts() -> None:
    for title in TITLES:
        d = load_title_data(title)
        for name, tile in d.tiles.items():
            assert len(tile.copy_ids) == tile.count, f"{title} tile {name}"
            assert len(set(tile.copy_ids)) == tile.count
            assert all(cid.rsplit("-", 1)[0] == name for cid in tile.copy_ids)
            for cid in tile.copy_ids:
                assert d.tile_by_copy_id(cid).name == name


def test_18ms_corporations_and_companies() -> None:
    d = load_title_data("18MS")
    assert [c["id"] for c in d.corporations] == ["GMO", "IC", "L&N", "Fr", "WRA"]
    for c in d.corporations:
        assert sum(s["percent"] for s in c["shares"]) == 100
        assert [s["percent"] for s in c["shares"] if s.get("president")] == [20]
    assert {c["id"]: (c["value"], c["revenue"]) for c in d.companies} == {
        "AGS": (30, 15), "BS": (40, 10), "M&M": (50, 15), "MC": (60, 5), "M&O": (70, 5)}
