"""The train-limit answers kept on the game give the answers found afresh, at every ask of the
real games' stored loads: 1870's `crowded` (kept while the held trains' owners and the phase stay
the same) and 18MEX's `over_limit` (kept while the counted trains' owners and the phase do); and
18MEX's train-limit interruption is the one the limit asked of each holder gives.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.io.export18xx import start_from_export
from engine.titles.t18mex.merger import MergerRules
from engine.titles.t1870.trains import TrainRules1870
from tests.engine._helpers import load_fixture
from tests.engine.routes.test_graph_incremental import FIXTURES


@pytest.mark.parametrize("key", [k for k in FIXTURES if not k.startswith("18MS")])
def test_kept_train_limit_answers_are_fresh_answers(key: str, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = {"crowded": 0, "over": 0, "interrupt": 0}
    crowded = TrainRules1870.crowded

    def crowded_check(self: TrainRules1870, game: Any) -> Any:
        got = crowded(self, game)
        game.crowd_memo = None
        assert crowded(self, game) == got
        asked["crowded"] += 1
        return got

    over_limit = MergerRules.over_limit

    def over_check(self: MergerRules, game: Any, obsolete: list[str]) -> dict[str, int]:
        got = dict(over_limit(self, game, obsolete))
        game.over_memo = None
        assert over_limit(self, game, obsolete) == got
        asked["over"] += 1
        return got

    pending = MergerRules.pending_interrupt

    def pending_check(self: Any, game: Any) -> Any:
        got = pending(self, game)
        if got is not None and got[2] != ["discard_train"]:
            return got
        held = self.counted_holdings(game)
        want = None
        for corp in game.state.corporations.values():
            n = held.get(corp.id)
            if n is not None and corp.kind == "corporation" and not corp.closed \
                    and n > self.train_limit_for(game, corp):
                want = (corp.id, "corporation", ["discard_train"])
                break
        assert got == want
        asked["interrupt"] += 1
        return got

    monkeypatch.setattr(TrainRules1870, "crowded", crowded_check)
    monkeypatch.setattr(MergerRules, "over_limit", over_check)
    monkeypatch.setattr(MergerRules, "pending_interrupt", pending_check)
    game, actions = start_from_export(load_fixture(key))
    game.load_log(actions, accepted=True)
    if key.startswith("1870"):
        assert asked["crowded"] > 0
    else:
        assert asked["over"] > 0 and asked["interrupt"] > 0
