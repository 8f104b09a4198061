"""A company merged into the NdM in its own turn: the turn ends and the next company's begins
before the NdM discards down to its limit, as on the site, whose discard step follows the
operating company's track, token, run and dividend. Found by the lockstep sweep (18MEX seed
612, 3 players, triple_yellow_first_or): MEX bought the first 5 and merged; the NdM, next in
the order with four trains (limit three), collected its mail, laid, placed a token, ran all
four and paid before discarding; ours had it discard first (no mail yet, the site refusing the
discard there).

data/merged_in_own_turn.json: that game, made by our random player and checked action by action
against the site, up to the NdM's discard (action 313)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.errors import EngineError
from engine.io.export18xx import import_game

DATA = json.loads((Path(__file__).parent / "data" / "merged_in_own_turn.json").read_text())


def _logged(action_id: int) -> dict[str, Any]:
    return {k: v for k, v in DATA["actions"][action_id - 1].items() if k != "id"}


def _after_the_merge() -> Any:
    g = import_game(DATA, upto=307)
    g.imported = False  # the moves from here on are live
    st = g.state
    ndm, mex = st.corporations["NdM"], st.corporations["MEX"]
    assert g.round.current() == ("MEX", "corporation") and g.round.kinds() == ["merge", "pass"]
    assert g.round.corp() is mex  # MEX's own turn (it bought the first 5)
    before = ndm.cash + mex.cash
    g.apply(_logged(308))  # MEX merges
    assert mex.closed
    return g, before


def test_the_ndm_turn_begins_before_its_discard() -> None:
    g, before = _after_the_merge()
    ndm = g.state.corporations["NdM"]
    trains = [t for t in g.state.trains if t.owner == "NdM" and not t.gone]
    assert len(trains) == 4 and g.title.train_limit_for(g, ndm) == 3
    assert g.round.current() == ("NdM", "corporation") and g.round.step_name() == "track"
    assert "lay_tile" in g.round.kinds() and "discard_train" not in g.round.kinds()
    assert ndm.cash == before + 20  # its turn began: the mail of its home city
    assert g.title.pending_interrupt(g) == ("NdM", "corporation", ["discard_train"])  # waiting
    with pytest.raises(EngineError):
        g.apply(_logged(313))  # the discard is not a move yet


def test_the_discard_comes_after_the_dividend() -> None:
    g, _ = _after_the_merge()
    for action_id in (309, 310, 311, 312):  # lay, token, the run with four trains, payout
        g.apply(_logged(action_id))
    assert g.round.current() == ("NdM", "corporation") and g.round.kinds() == ["discard_train"]
    g.apply(_logged(313))
    assert g.round.current() == ("CHI", "corporation")  # the NdM's buying steps had nothing
