"""The view fields render/ needs: 1870 destinations reached, hex markers, 18MEX double hexes."""

from __future__ import annotations

import pytest

from engine.view import MARKER_KINDS
from render.map import corp_colors, hex_art, reached_destinations
from tests.render.test_legibility import SHARED, view_of

pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="shared fixtures not mounted")


def test_1870_destination_reached_and_rings_left_out() -> None:
    view = view_of("1870", "1870_game_end_bank.json", 0.5)
    reached = {c.id for c in view.corporations if c.destination_reached}
    assert reached == {"SSW", "MP", "FW"}
    data = view.data
    rings = {
        x: name for name, h in data.hexes.items() for n in h.geometry.cities for x in n.destination_of
    }
    assert reached <= set(rings)
    skip = reached_destinations(view)
    colors = corp_colors(view)
    for corp, name in rings.items():
        art = hex_art(view, data.hexes[name], view.hexes.get(name), colors, skip)
        assert (corp in art.destinations) == (corp not in skip), corp


def test_1870_cattle_token_is_a_marker() -> None:
    view = view_of("1870", "1870_game_end_bank.json", 0.5)
    markers = {n: h.markers for n, h in view.hexes.items() if h.markers}
    assert markers == {"B11": (("cattle", "MKT"),)}
    assert all(k in MARKER_KINDS for ms in markers.values() for k, _ in ms)
    # removed with the first 6-train
    assert not any(h.markers for h in view_of("1870", "1870_game_end_bank.json").hexes.values())


def test_other_titles_have_no_destinations_reached() -> None:
    view = view_of("18MS", "14375.json")
    assert not any(c.destination_reached for c in view.corporations)


@pytest.mark.parametrize("name", sorted(p.name for p in (SHARED / "18MEX").glob("*.json")))
def test_18mex_double_hex_lays_have_both_halves(name: str) -> None:
    view = view_of("18MEX", name)
    tiles = view.data.tiles
    seen = 0
    for hex_name, st in view.hexes.items():
        if not st.tile or "double_hex" not in tiles[st.tile].extra:
            continue
        dh = tiles[st.tile].extra["double_hex"]
        partner = tiles[dh["pair"]].extra["double_hex"]
        assert dh["hex"] == hex_name
        assert view.hexes[partner["hex"]].tile == dh["pair"], (hex_name, partner)
        seen += 1
    assert seen % 2 == 0
