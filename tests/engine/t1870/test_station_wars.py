"""1870 `station_wars` (one of Dixon's original rules): a destination token placed on a map city
takes a city space, squeezing in as one more space when the city is full; the next upgrade gives
it a real space when the new tile has one. Destination tokens on off-boards keep their extra slot.

The shared games were played without the option, so each test replays a game with it switched on
up to a connection run (nothing before that depends on the option) and checks what changes."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import Game
from engine.errors import EngineError
from engine.io.export18xx import export_game, import_game
from engine.routes.graph import track_graph
from engine.routes.reach import is_blocked
from tests.engine._props import random_play
from tests.engine.t1870._util import (
    ALLOWED,
    BANK,
    BANKRUPT,
    SMALL,
    fixture,
    logged,
    rejected,
    replay,
)
from tests.engine.test_properties_titles import check_invariants


def with_option(name: str, upto: int, option: str = "station_wars") -> Any:
    data = json.loads(json.dumps(fixture(name)))
    data.setdefault("settings", {})["optional_rules"] = [option]
    return import_game(data, upto=upto)


def blocked_for(g: Any, corp: str, hex_name: str) -> bool:
    """Whether the city blocks that corporation's routes (on the board as it sees it)."""
    g.title._board_for = corp
    try:
        board = g.title.board(g)
    finally:
        g.title._board_for = None
    graph = track_graph(board)
    return is_blocked(board, graph.node((hex_name, "city", 0)), corp)


def test_the_option_and_the_original_rules_start_a_game() -> None:
    for option in ("station_wars", "original_rules"):
        g = Game("1870", ["a", "b", "c"], [option])
        assert g.title.option("station_wars")
    assert not Game("1870", ["a", "b", "c"]).title.option("station_wars")


def test_a_destination_token_takes_an_open_space() -> None:
    # MP reaches Dallas (J5, a green two-space city holding TP): the token fills the open space
    plain, wars = replay(BANK, 668), with_option(BANK, 668)
    mp_plain, mp_wars = plain.state.corporations["MP"], wars.state.corporations["MP"]
    assert plain.title.tokens_in(plain, "J5", 0) == ["TP", None, "MP"]  # an extra slot, no space
    assert plain.title.extra_slot_hex(mp_plain) == "J5"
    assert wars.title.tokens_in(wars, "J5", 0) == ["TP", "MP"]
    assert wars.title.extra_slot_hex(mp_wars) is None
    assert any(t.hex == "J5" and t.cost == 100 for t in mp_wars.tokens)
    # the city is full now: nobody else may token it and it blocks others' routes
    assert not blocked_for(plain, "FW", "J5") and blocked_for(wars, "FW", "J5")
    assert not blocked_for(wars, "MP", "J5") and not blocked_for(wars, "TP", "J5")
    err = wars.title.token_city_error(wars, wars.state.corporations["FW"], "J5", 0, None, None)
    assert err is not None and "no free station" in err


def test_the_destination_still_doubles_at_a_routes_end() -> None:
    g = with_option(BANK, 668)
    t, mp = g.title, g.state.corporations["MP"]
    rules, board = t.route_rules(g, mp), t.board(g)
    assert rules.route_bonus is not None
    assert rules.route_bonus(board, "MP", [("K4", "town", 0), ("J5", "city", 0)]) > 0
    assert rules.route_bonus(board, "MP", [("K4", "town", 0), ("J5", "city", 0), ("J3", "city", 0)]) == 0


def test_a_full_city_gets_a_squeezed_in_space() -> None:
    # SSW reaches Fort Worth (J3, brown, two spaces held by FW and TP)
    g = with_option(BANK, 652)
    assert g.title.city_slots(g, "J3", 0) == 2
    assert g.title.tokens_in(g, "J3", 0) == ["FW", "TP", "SSW"]
    assert not blocked_for(g, "SSW", "J3") and blocked_for(g, "MP", "J3")


def test_a_squeezed_in_token_takes_the_new_space_of_an_upgrade() -> None:
    # MP squeezes into yellow Dallas (one space, TP's); FW's green upgrade (action 600) has two
    g = with_option(ALLOWED, 559)
    assert g.title.city_slots(g, "J5", 0) == 1 and g.title.tokens_in(g, "J5", 0) == ["TP", "MP"]
    g = with_option(ALLOWED, 600)
    assert g.title.city_slots(g, "J5", 0) == 2 and g.title.tokens_in(g, "J5", 0) == ["TP", "MP"]
    # so FW has no token step left (its logged token at Dallas, action 601, is refused) ...
    assert "place_token" in replay(ALLOWED, 600).round.kinds()
    assert g.round.kinds() == ["run_routes"]
    err = rejected(g, logged(ALLOWED, 601))
    assert err.rule == "operating.order"
    # ... and its logged run through Dallas (action 602) is refused: the full city blocks it
    assert blocked_for(g, "FW", "J5")
    run = logged(ALLOWED, 602)
    for route in run["routes"]:
        route.pop("revenue")  # as a player sends it: the engine scores it now
    err = rejected(g, run)
    assert err.rule.startswith("route") and "J5" in str(err), err


def test_a_home_space_kept_open_is_not_taken() -> None:
    # MP reaches Dallas before TP has floated: TP's home space stays open, MP squeezes in
    g = with_option(SMALL, 221)
    assert g.title.city_slots(g, "J5", 0) == 1
    assert g.title.tokens_in(g, "J5", 0) == [None, "MP"]
    tp = g.state.corporations["TP"]
    assert not tp.floated
    g.title.place_home_token(g, tp)
    assert g.title.tokens_in(g, "J5", 0) == ["TP", "MP"]


def test_off_board_destinations_keep_their_extra_slot() -> None:
    g = with_option(BANKRUPT, 462)  # ATSF reaches the Southwest off-board (N1, SP's home space)
    atsf = g.state.corporations["ATSF"]
    assert g.title.extra_slot_hex(atsf) == "N1"
    assert g.title.tokens_in(g, "N1", 0) == [None, "ATSF"]
    assert not blocked_for(g, "MKT", "N1")


def test_a_closed_corporation_leaves_its_squeezed_space_open_until_the_next_upgrade() -> None:
    g = with_option(ALLOWED, 559)
    t = g.title
    t.close_corporation(g, g.state.corporations["TP"])
    assert t.tokens_in(g, "J5", 0) == [None, "MP"]
    assert not blocked_for(g, "FW", "J5")
    t.move_tokens_on_upgrade(g, "J5")  # the tile is unchanged: the stale space folds away
    assert t.tokens_in(g, "J5", 0) == ["MP"]


def test_without_the_option_a_closed_corporations_extra_slot_goes_with_it() -> None:
    g = replay(BANK, 668)
    t = g.title
    t.close_corporation(g, g.state.corporations["MP"])
    assert t.tokens_in(g, "J5", 0) == ["TP", None]


def test_the_original_rules_cert_limit_has_an_eight_column() -> None:
    normal = Game("1870", ["a", "b", "c", "d"])
    original = Game("1870", ["a", "b", "c", "d"], ["original_rules"])
    for g in (normal, original):
        assert g.title.cert_limit(g) == 16
    for name in ("ATSF", "SSW"):
        for g in (normal, original):
            g.state.corporations[name].closed = True
    assert normal.title.cert_limit(normal) == 14  # the 9 column still applies
    assert original.title.cert_limit(original) == 12


def test_unknown_choice_is_still_refused() -> None:
    g = with_option(BANKRUPT, 549)
    try:
        g.apply({"type": "choose", "entity": "GMO", "entity_type": "corporation", "choice": "Nowhere"})
    except EngineError as err:
        assert err.rule == "connection.choice"
    else:
        raise AssertionError("an unknown choice was accepted")


@pytest.mark.slow
@pytest.mark.parametrize("seed", [7, 8])
def test_random_play_under_station_wars_from_mps_connection_run(seed: int) -> None:
    """From MP's connection run (BANK 667: SSW is squeezed into Fort Worth) with station wars on,
    random legal play keeps the invariants (seed 8 closes corporations with squeezed tokens)
    and its log replays to the same result."""
    g = with_option(BANK, 667)
    start = len(g.log)
    g = random_play(g, seed, 400, check_invariants)
    assert {"choose", "run_routes", "dividend"} <= {a.type for a in g.log[start:]}
    again = import_game(export_game(g))
    assert again.title.option("station_wars") and again.result() == g.result()
