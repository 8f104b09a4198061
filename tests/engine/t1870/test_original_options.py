"""1870 optional rules from Dixon's originals: the smaller tile set and the 1832/1850 market
(`original_rules` turns every original option on)."""

from __future__ import annotations

from engine import Game

PLAYERS = ["a", "b", "c"]


def test_original_tiles_remove_the_listed_copies() -> None:
    normal = Game("1870", PLAYERS)
    small = Game("1870", PLAYERS, ["original_tiles"])
    assert "16-0" in normal.state.tile_supply["16"] and small.state.tile_supply["16"] == ["16-1"]
    assert len(small.state.tile_supply["9"]) == len(normal.state.tile_supply["9"]) - 3
    assert "9-0" not in small.state.tile_supply["9"] and "9-3" in small.state.tile_supply["9"]
    assert small.state.tile_supply["25"] == ["25-2"]  # two of the three #25 are gone


def test_original_market_changes_three_cells() -> None:
    normal, old = Game("1870", PLAYERS), Game("1870", PLAYERS, ["original_market"])
    assert normal.title.market.types((4, 0)) == ("multiple_buy",)  # brown
    assert old.title.market.types((4, 0)) == ("unlimited",)  # orange: unlimited holding
    for cell in ((6, 5), (7, 6)):
        assert normal.title.market.types(cell) == ("no_cert_limit",)
        assert old.title.market.types(cell) == ()  # lose the yellow zone
    # a yellow-zone company counts toward the certificate limit again under the option
    assert normal.title.counts_for_cert_limit(normal, _at(normal, (6, 5))) is False
    assert old.title.counts_for_cert_limit(old, _at(old, (6, 5))) is True


def test_original_rules_turn_every_original_option_on() -> None:
    title = Game("1870", PLAYERS, ["original_rules"]).title
    assert title.option("original_tiles") and title.option("original_market")
    assert title.option("max_reissue_200") and title.option("can_protect_if_sold")
    assert title.option("station_wars")
    assert not Game("1870", PLAYERS).title.option("original_tiles")


def _at(g: Game, cell: tuple[int, int]):  # type: ignore[no-untyped-def]
    corp = g.state.corporations["ATSF"]
    corp.cell = cell
    return corp
