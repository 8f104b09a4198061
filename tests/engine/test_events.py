"""Events (engine/events.py) of specific actions of the recorded 18MS game 14375, checked
against what the site's own log of that game says at those actions (quoted beside each check);
and events of live moves (`Game.last_events`). The fixture is read in place from ../shared."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.events import Event, story

SHARED = Path(__file__).resolve().parents[3] / "shared"
GAME = SHARED / "fixtures" / "18MS" / "14375.json"
needs_fixture = pytest.mark.skipif(not GAME.is_file(), reason=f"{GAME} is absent (../shared)")
P1, P2, P3 = "680", "4861", "686"  # "Player 1", "Player 2", "Player 3" of the export


@cache
def _events() -> dict[int, list[Event]]:
    from engine.io.export18xx import import_game

    game = import_game(json.loads(GAME.read_text()))
    return {int(act.id): events for act, events in story(game)}


def _of(action_id: int, kind: str) -> list[Event]:
    return [e for e in _events()[action_id] if e.kind == kind]


@needs_fixture
def test_unsold_privates_removed_and_the_first_stock_round() -> None:
    # 3: "Alabama Great Southern Railroad is removed from the game", "... Mississippi Central
    # Railway is removed from the game", "-- Stock Round 1 --"
    assert {e.subject for e in _of(3, "company_closed")} == {"AGS", "MC"}
    assert all(e.get("owner") is None for e in _of(3, "company_closed"))
    assert [e.get("name") for e in _of(3, "round")] == ["Stock Round 1"]


@needs_fixture
def test_float_and_purchase() -> None:
    # 18: "Player 1 buys a 10% share of GMO from the IPO for $80", "GMO floats",
    # "GMO receives $800"
    (deal,) = _of(18, "shares")
    assert (deal.subject, deal.get("verb"), deal.get("percent"), deal.get("corp"),
            deal.get("price"), deal.get("other")) == (P1, "buy", 10, "GMO", 80, "ipo")
    assert [(e.subject, e.get("cash")) for e in _of(18, "float")] == [("GMO", 800)]
    # 4: "Player 1 pars GMO at $80", "buys a 20% share of GMO from the IPO for $160"
    (par,) = _of(4, "shares")
    assert (par.get("percent"), par.get("president"), par.get("price")) == (20, True, 160)


@needs_fixture
def test_no_train_price_drop_and_round_start() -> None:
    # 55: "IC does not run", "IC's share price moves left from $90 to $80"
    assert [(e.subject, e.get("old"), e.get("new"), e.get("why")) for e in _of(55, "price")] == [
        ("IC", 90, 80, "no_train")]
    # 66: "-- Phase 3 (... Available Tiles: Yellow, Green) --", "-- Operating Round 2 --",
    # "Player 2 collects $10 from Birmingham Southern Railroad"
    (phase,) = _of(66, "phase")
    assert phase.get("phase") == "3" and phase.get("tiles") == ("yellow", "green")
    assert [e.get("name") for e in _of(66, "round")] == ["Operating Round 2 (of 10)"]
    assert ("BS", P2, 10) in [(e.subject, e.get("owner"), e.get("amount"))
                              for e in _of(66, "income")]


@needs_fixture
def test_payout_per_share_and_holders() -> None:
    # 92: "IC pays out $90 = $9.0 per share ($54 to Player 2, $9 to Player 1)",
    # "IC's share price moves right from $80 to $90"
    (pay,) = _of(92, "payout")
    assert (pay.subject, pay.get("total"), pay.get("per_share")) == ("IC", 90, 9)
    assert pay.get("to") == {P2: 54, P1: 9}
    assert [(e.get("old"), e.get("new"), e.get("why")) for e in _of(92, "price")] == [
        (80, 90, "payout")]
    # 203: "GMO pays out $90 = $9.0 per share ($45 to Player 1, $9 to Player 2, $9 to Player 3,
    # $9 to GMO)"
    (pay,) = _of(203, "payout")
    assert pay.get("to") == {P1: 45, P2: 9, P3: 9, "GMO": 9}


@needs_fixture
def test_withhold_sale_and_sold_out() -> None:
    # 307: "Fr withholds $190", "Fr's share price moves left from $100 to $90"
    assert [e.get("total") for e in _of(307, "withhold")] == [190]
    assert [(e.get("old"), e.get("new"), e.get("why")) for e in _of(307, "price")] == [
        (100, 90, "withhold")]
    # 108: "Player 3 sells a 10% share of IC and receives $90", "... moves down from $90 to $80"
    (deal,) = _of(108, "shares")
    assert (deal.subject, deal.get("verb"), deal.get("percent"), deal.get("price")) == (
        P3, "sell", 10, 90)
    assert [(e.get("old"), e.get("new"), e.get("why")) for e in _of(108, "price")] == [
        (90, 80, "sale")]
    # 414: "IC's share price moves up from $110 to $130", "WRA's ... $90 to $100",
    # "L&N's ... $65 to $70" (end of Stock Round 5), then "-- Operating Round 9 (of 10) - Game
    # end after OR 10 --"
    moves = {(e.subject, e.get("old"), e.get("new"), e.get("why")) for e in _of(414, "price")}
    assert moves == {("IC", 110, 130, "sold_out"), ("WRA", 90, 100, "sold_out"),
                     ("L&N", 65, 70, "sold_out")}
    assert [e.get("or_number") for e in _of(414, "end_triggered")] == [10]


@needs_fixture
def test_rusting_phase_six_and_privates_closing() -> None:
    # 150: '-- Event: ["2+"] trains rust ( IC x1, Fr x2, GMO x1) --', "Corporations salvage $20
    # from each rusted train"
    (rust,) = _of(150, "rust")
    assert rust.get("train") == "2+" and rust.get("owners") == {"IC": 1, "Fr": 2, "GMO": 1}
    assert rust.get("salvage") == 20
    # 263: "WRA buys a 6 train for $550 from The Depot", "-- Event: Private companies close --",
    # "-- Phase 6 ..."
    (train,) = _of(263, "train")
    assert (train.subject, train.get("train"), train.get("price"), train.get("seller")) == (
        "WRA", "6", 550, None)
    assert {e.subject for e in _of(263, "company_closed")} == {"BS", "M&M", "M&O"}
    assert [e.get("phase") for e in _of(263, "phase")] == ["6"]


@needs_fixture
def test_president_pays_toward_a_train_and_game_over() -> None:
    # 325: "Player 1 pays $116 and an additional $50 fee to assist buying a 4D train",
    # "-- Phase D --"
    assert [(e.subject, e.get("corp"), e.get("amount")) for e in _of(325, "contribution")] == [
        (P1, "L&N", 166)]
    assert [e.get("phase") for e in _of(325, "phase")] == ["D"]
    # 460: "-- Game over: Player 2 ($3685), Player 3 ($3259), Player 1 ($2301) --"
    (over,) = _of(460, "game_over")
    assert over.get("result") == {P2: 3685, P3: 3259, P1: 2301}


def _play_to_first_or() -> Any:
    from engine.game import Game

    g = Game("18MS", [("a", "Alice"), ("b", "Bob"), ("c", "Cy")])
    moves = [("c", "bid", {"company": "M&O", "price": 70}), ("b", "bid", {"company": "MC", "price": 60}),
             ("a", "bid", {"company": "AGS", "price": 30})]
    for who, kind, extra in moves:
        g.apply({"type": kind, "entity": who, "entity_type": "player", **extra})
    return g


def test_live_moves_report_their_events() -> None:
    g = _play_to_first_or()
    kinds = [e.kind for e in g.last_events]
    assert "round" in kinds and g.last_events[-1].get("name") == "Stock Round 1"
    # the two privates nobody drafted leave the game with the draft's end
    assert {e.subject for e in g.last_events if e.kind == "company_closed"} == {"BS", "M&M"}
    cell = next(c for c in g.legal().pars["GMO"] if c.startswith("70,"))
    g.apply({"type": "par", "entity": "a", "entity_type": "player", "corporation": "GMO",
             "share_price": cell})
    (deal,) = [e for e in g.last_events if e.kind == "shares"]
    assert (deal.get("percent"), deal.get("corp"), deal.get("price")) == (20, "GMO", 140)
    g.apply({"type": "undo", "entity": "a", "entity_type": "player"})
    assert g.last_events == []


@pytest.mark.parametrize("title,players", [("18MS", 3), ("1870", 3), ("18MEX", 4)])
def test_live_events_are_those_of_the_log_replayed(title: str, players: int) -> None:
    """Each live move's events (the digest after a move is reused as the next move's before
    while the state is unchanged) are those a replay of the log tells, refusals in between."""
    from engine import EngineError, Game
    from engine.randomplay import play_on

    ids = [(str(1000 + i), f"Player {i}") for i in range(1, players + 1)]
    g = Game(title, ids)
    live: dict[int, list[Event]] = {}
    for k in range(160):
        play_on(g, seed=k, max_actions=len(g.log) + 1, undo=False)
        if g.finished:
            break
        live[int(g.log[-1].id)] = list(g.last_events)
        if k % 5 == 0:  # a refused move between two moves
            eid, etype = g.current_entity()
            try:
                g.apply({"type": "buy_train", "train": g.state.trains[-1].id, "price": 1,
                         "entity": eid, "entity_type": etype})
            except EngineError:
                pass
            else:
                raise AssertionError("a train for $1 was sold")
    told = {int(act.id): events for act, events in story(g)}
    assert live and {k: told[k] for k in live} == live


@pytest.mark.parametrize("title", ["18MS", "1870", "18MEX"])
def test_the_digest_counts_trains_and_certificates_as_defined(title: str) -> None:
    """engine/digest.py counts each corporation's trains and reads its certificates in one
    pass: the same as the plain definitions (trains held and not gone; sold out: every
    certificate with a player and nothing uncounted), in every state of a random game."""
    from engine.core import shares
    from engine.digest import digest
    from engine.game import Game
    from engine.randomplay import random_game

    full = random_game(title, seed=5, players=4, max_actions=500, undo=False)
    g = Game(full.title_name, full.players, full.options)
    g.raw_player_ids = full.raw_player_ids
    checked = 0

    def check(game: Any, _act: Any) -> None:
        nonlocal checked
        d = digest(game)
        st = game.state
        assert list(d.corps) == list(st.corporations)
        for c in st.corporations.values():
            corp = d.corps[c.id]
            assert corp.trains == sum(1 for t in st.trains if t.owner == c.id and not t.gone)
            assert corp.sold_out == (c.ipoed and shares.sold_out(c))
        assert d.certs == {x.id: (x.corp, x.owner, x.percent, x.president)
                           for c in st.corporations.values() for x in c.certs}
        assert list(d.certs) == [x.id for c in st.corporations.values() for x in c.certs]
        checked += 1

    g.load_log(full.log, before=check, accepted=True)
    assert checked > 100
