"""Mobile's X31b and the BHM/MGM gray 446; upgrades keep track; tile supply; gray is final."""

from __future__ import annotations

import pytest

from engine import EngineError
from engine.io.export18xx import import_game
from tests.engine._helpers import load_fixture


@pytest.fixture(scope="module")
def f1() -> dict:
    return load_fixture("18MS/14375.json")


def lay(corp: str, hex_name: str, tile: str, rotation: int) -> dict:
    return {"entity": corp, "entity_type": "corporation", "type": "lay_tile", "hex": hex_name,
            "tile": tile, "rotation": rotation}


def test_special_tiles_only_on_their_hexes(f1) -> None:
    data = import_game(f1, upto=0).title.data
    where = {name: sorted(h for h, x in data.hexes.items()
                          if any(name in opts for opts in x.possible_tiles.values()))
             for name in ("X31b", "446")}
    assert where == {"X31b": ["H6"], "446": ["C9", "E11"]}
    assert data.tiles["X31b"].color == "brown" and data.tiles["446"].color == "gray"


def test_x31b_on_mobile_keeps_track(f1) -> None:
    g = import_game(f1, upto=421)  # Fr's track step in phase D; H6 holds a green tile
    for bad in (0, 2):
        with pytest.raises(EngineError, match="rotation") as err:
            g.apply(lay("Fr", "H6", "X31b-0", bad))
        assert err.value.rule == "track.tile"
    with pytest.raises(EngineError, match="X31b may not be laid on E9") as err:
        g.apply(lay("Fr", "E9", "X31b-0", 1))
    assert err.value.rule == "track.tile"
    g.apply(lay("Fr", "H6", "X31b-0", 1))
    assert g.state.tiles["H6"].tile == "X31b" and g.state.tile_supply["X31b"] == []


def test_446_only_in_phase_d_and_only_on_its_hexes(f1) -> None:
    g = import_game(f1, upto=361)
    assert g.state.phase == "D"
    with pytest.raises(EngineError, match="446 may not be laid on E5") as err:
        g.apply(lay("WRA", "E5", "446-0", 0))
    assert err.value.rule == "track.tile"
    g.apply(lay("WRA", "C9", "446-0", 0))
    assert g.state.tiles["C9"].tile == "446"
    # phase 6 (before any D train): gray is not yet available
    g6 = import_game(f1, upto=324)
    assert g6.state.phase == "6" and "gray" not in g6.title.tile_colors(g6)


def test_gray_tile_is_final_and_legal_moves_survive_it(f1) -> None:
    g = import_game(f1, upto=365)  # L&N's turn; its home C9 now holds the gray 446
    lg = g.legal()  # regression: this raised IndexError (no colour after gray)
    assert lg.entity == "L&N" and "C9" not in lg.tiles
    brown = next(ids[0] for name, ids in g.state.tile_supply.items()
                 if ids and g.title.data.tiles[name].color == "brown")
    with pytest.raises(EngineError, match="The gray tile on C9 cannot be upgraded") as err:
        g.apply(lay("L&N", "C9", brown, 0))
    assert err.value.rule == "track.tile"


def test_tile_supply_runs_out(f1) -> None:
    g = import_game(f1, upto=365)
    assert g.state.tile_supply["446"] == []
    with pytest.raises(EngineError, match="All tiles #446 are in use") as err:
        g.apply(lay("L&N", "E11", "446-0", 0))
    assert err.value.rule == "track.supply"
