"""A company closed at the end of an action that took away the price protection due next: the
operating company's turn ends at once, without the connection check of its end, as on the site.
Found by the lockstep sweep (1870 seed 615, 5 players, original_rules, action 809): after IC's
forced purchase, six sales of its president were queued; Player 5's protection of ATSF let
SSW's sale lapse (its price to $0), then Player 1 could still protect GMO's; at the action's end
SSW closed, the certificate limit fell with it and that protection could not be made. The site
let the rest lapse and began GMO's turn (one connection check, GMO's); ours checked IC's turn
end too, which the site refused.

data/closing_ends_the_protections.json.gz: that game, made by our random player and checked
action by action against the site, to action 810."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from engine.io.export18xx import import_game

DATA = json.loads(gzip.decompress(
    (Path(__file__).parent / "data" / "closing_ends_the_protections.json.gz").read_bytes()))


def _logged(action_id: int) -> dict[str, Any]:
    out = {k: v for k, v in DATA["actions"][action_id - 1].items() if k != "id"}
    out.pop("auto_actions", None)  # the engine makes its own
    return out


def test_the_turn_ends_without_its_end_check() -> None:
    g = import_game(DATA, upto=808)
    g.imported = False  # a live move from here
    assert g.round.current() == ("1005", "player") and g.round.corp().id == "IC"
    stored = g.apply(_logged(809))  # Player 5 protects ATSF
    assert g.state.corporations["SSW"].closed
    checks = [a for a in stored.auto_actions if a.get("type") == "destination_connection"]
    assert [c["entity"] for c in checks] == ["GMO"]  # GMO's turn start only
    assert g.round.current() == ("GMO", "corporation") and g.round.step_name() == "track"
    assert not g.round.queue()  # the rest lapsed
    g.apply(_logged(810))  # GMO lays, as logged
