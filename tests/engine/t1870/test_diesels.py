"""1870 `diesels` option: trains 2-6 then unlimited D trains ($1,100, unlimited distance, $300
off when a 4, 5 or 6 is handed in; the traded train goes to the open market), 4s rust on the
first D, 5s never rust, and phase D (third off-board values) replaces phases 6-8.

The bank game is the same under diesels until its first 8-train (action 862, SSW in phase 5),
so its replay up to there is a diesel position."""

from __future__ import annotations

import json
from typing import Any

from engine.game import Game
from engine.io.export18xx import import_game
from engine.legal import legal_moves
from tests.engine.t1870._util import BANK, fixture, rejected


def _diesel_game(upto: int) -> Game:
    data: dict[str, Any] = json.loads(json.dumps(fixture(BANK)))
    data.setdefault("settings", {})["optional_rules"] = ["diesels"]
    return import_game(data, upto=upto)


def _buy_d(exchange: str | None = None, price: int = 800) -> dict[str, Any]:
    act: dict[str, Any] = {"type": "buy_train", "entity": "SSW", "entity_type": "corporation",
                           "train": "D-0", "variant": "D", "price": price}
    if exchange:
        act["exchange"] = exchange
    return act


def test_diesel_roster_and_phases() -> None:
    g = Game("1870", [("a", "A"), ("b", "B"), ("c", "C")], options=["diesels"])
    t = g.title
    names = {tr.name for tr in g.state.trains}
    assert names == {"2", "3", "4", "5", "6", "D"}
    assert t.phase_names == ["1", "2", "3", "4", "5", "D"]
    assert t.train_specs["4"]["rusts_on_first"] == "D" and t.train_specs["5"]["rusts_on_first"] is None
    assert sum(1 for tr in g.state.trains if tr.name == "D") == 20
    assert t.train_spec(g, next(tr for tr in g.state.trains if tr.name == "D")).max_stops >= 999
    std = Game("1870", [("a", "A"), ("b", "B"), ("c", "C")])
    assert {tr.name for tr in std.state.trains} == {"2", "3", "4", "5", "6", "8", "10", "12"}


def test_trade_in_for_the_first_d() -> None:
    g = _diesel_game(861)
    st, t = g.state, g.title
    assert g.round.current() == ("SSW", "corporation") and st.phase == "5"
    assert [tr.id for tr in t.depot_trains(g)] == ["D-0"]
    offered = [c for c in legal_moves(g).choices if c["type"] == "buy_train"]
    assert offered == [{**_buy_d("5-0"), "entity": "SSW"}]
    assert rejected(g, _buy_d("5-0", price=1100)).rule == "train.price"
    cash = st.corporations["SSW"].cash
    g.apply(_buy_d("5-0"))
    st = g.state  # (the rejected try above rebuilt the state)
    trains = {tr.id: tr for tr in st.trains}
    assert trains["D-0"].owner == "SSW" and st.corporations["SSW"].cash == cash - 800
    assert trains["5-0"].owner is None and trains["5-0"].discarded and not trains["5-0"].gone
    assert st.phase == "D" and t.tile_colors(g)[-1] == "blue"
    assert all(tr.gone for tr in st.trains if tr.name == "4")  # 4s rust on the first D
    assert not any(tr.gone for tr in st.trains if tr.name == "5")  # 5s never rust
    assert t.revenue_phase(g) == "6"  # off-boards pay their third value
    assert [tr.id for tr in t.depot_trains(g)] == ["D-1"]  # unlimited supply


def test_a_four_traded_for_the_first_d_is_gone() -> None:
    g = _diesel_game(861)
    trains = {tr.id: tr for tr in g.state.trains}
    trains["4-0"].owner, trains["5-0"].owner = "SSW", "ATSF"  # let SSW hold a 4 instead
    g.apply(_buy_d("4-0"))
    trains = {tr.id: tr for tr in g.state.trains}
    assert trains["D-0"].owner == "SSW"
    assert trains["4-0"].gone and not trains["4-0"].discarded


def test_no_exchange_without_the_option() -> None:
    g = import_game(fixture(BANK), upto=861)
    act = {**_buy_d("5-0"), "train": "8-0", "variant": "8", "price": 500}
    assert rejected(g, act).rule == "train.exchange"


def test_trade_in_at_the_train_limit() -> None:
    """As on the site (a discounted trade is possible without a free slot), a company at its
    train limit may still trade a train in for a D."""
    g = _diesel_game(861)
    trains = {tr.id: tr for tr in g.state.trains}
    trains["6-0"].owner = "SSW"  # SSW now holds 5-0 and 6-0: its limit of 2 in phase 5
    t, ssw = g.title, g.state.corporations["SSW"]
    assert not t.room(g, ssw)
    offered = [c for c in legal_moves(g).choices if c["type"] == "buy_train"]
    assert {c["exchange"] for c in offered} == {"5-0", "6-0"}
    g.apply(_buy_d("6-0"))
    owned = sorted(tr.id for tr in g.state.trains if tr.owner == "SSW")
    assert owned == ["5-0", "D-0"]
