"""A forced purchase the president pays toward takes, from the bank, a train of the kind of
the first cheapest train the bank offers: the site refuses another kind at the same price
("cheaper train available"). Found by a lockstep sweep (seed 887 --from-fixtures: hotseat01 to
action 321, then our random moves): the NdM, over its train limit after its merger, discards a
3' and then a 3 to the open market; UdY, trainless with $102, must buy one: both cost $180, and
the 3' (discarded first) is the one the site sells it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.io.export18xx import import_game
from tests.engine.t18mex._helpers import _data

DATA = Path(__file__).parent / "data" / "forced_cheapest_kind.json.gz"


def _game() -> Any:
    moves = json.loads(gzip.decompress(DATA.read_bytes()))
    data = json.loads(_data(moves["from_fixture"]))
    kept = [a for a in data["actions"] if a["id"] <= moves["after"]]
    return import_game({**data, "actions": kept + moves["actions"]})


def _buy(train: str, variant: str) -> dict[str, Any]:
    return {"type": "buy_train", "entity": "UdY", "entity_type": "corporation", "train": train,
            "price": 180, "variant": variant}


def test_the_first_cheapest_kind_only_is_offered_and_taken() -> None:
    g = _game()
    udy = g.state.corporations["UdY"]
    assert udy.cash == 102 and g.title.must_buy_train(g, g.round, udy)
    bank = [(t[0], t[1]) for t in g.legal().trains if t[4] == "bank"]
    assert bank == [("3'-0", "3'")]
    try:
        g.apply(_buy("3-2", "3"))
    except EngineError as err:
        assert err.rule == "train.forced_cheapest" and "the 3'" in str(err), str(err)
    else:
        raise AssertionError("the 3 was sold in place of the 3' offered first")
    g.apply(_buy("3'-0", "3'"))
    assert any(t.id == "3'-0" and t.owner == "UdY" for t in g.state.trains)
