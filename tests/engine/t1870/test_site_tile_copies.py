"""A lay names the tile copy it lays. Logs of 1870 recorded before 2021-04-23 name copies of #5
and #6 the current manifest no longer has (5-2..5-4, 6-2..6-4): a recorded log naming one
replays (RULES.md, "Older manifests"). A live move, as on the site, must name a copy the
manifest has and the supply holds. Found by tools/variant_probe.py (a live lay of 3-3 where
1870 has 3-0..3-2 was taken)."""

from __future__ import annotations

import pytest

from engine.errors import EngineError
from engine.game import Game
from engine.io.export18xx import import_game, start_from_export
from tests.engine.t1870._util import ALLOWED, SMALL, fixture, logged


def _live(upto: int) -> Game:
    """The fixture's game as the bot holds one: its moves up to `upto` stored, the next live."""
    g, actions = start_from_export(fixture(SMALL))
    g.imported = False
    g.load_log([a for a in actions if a["id"] <= upto], accepted=True)
    return g


def test_live_lay_of_a_copy_the_manifest_lacks_is_refused() -> None:
    g = _live(64)  # ATSF lays 6-0 on B9 next
    lay = logged(SMALL, 65)
    assert lay["tile"] == "6-0"
    for copy in ("6-3", "6-9"):
        with pytest.raises(EngineError, match=f"There is no tile {copy}") as err:
            g.apply({**lay, "tile": copy})
        assert err.value.rule == "track.tile_copy"
    g.apply({**lay, "tile": "6-1"})  # a free copy other than the first: taken as named
    assert g.state.tiles["B9"].copy_id == "6-1"


def test_recorded_log_naming_an_older_manifests_copy_replays() -> None:
    data = fixture(SMALL)
    for a in data["actions"]:
        if a["id"] == 65:
            a["tile"] = "6-3"
    g = import_game(data, upto=70)
    assert g.state.tiles["B9"].copy_id == "6-3"


def test_recorded_log_naming_another_missing_copy_is_refused() -> None:
    data = fixture(SMALL)
    for a in data["actions"]:
        if a["id"] == 65:
            a["tile"] = "6-5"
    with pytest.raises(EngineError, match="6-5"):
        import_game(data, upto=70)


def test_recorded_log_from_after_the_manifest_change_naming_an_old_copy_is_refused() -> None:
    """The old copies are taken only from logs of before 2021-04-23 (a lay's own time): the
    40469 game (May 2021) lays 6-1 on B9; the site has no 6-2 there and refuses it (found by
    tools/variant_probe.py). A lay of the older 34110 game naming 6-3 replays (above)."""
    data = fixture(ALLOWED)
    for a in data["actions"]:
        if a["id"] == 165:
            assert a["tile"] == "6-1" and a["created_at"] >= 1619136000
            a["tile"] = "6-2"
    with pytest.raises(EngineError, match="6-2"):
        import_game(data, upto=170)
