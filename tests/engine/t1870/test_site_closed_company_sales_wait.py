"""The company whose turn it is has closed: no queued sale is resolved in its turn. Found by
the lockstep sweep (1870 seed 828 --strict, 2 players, original_market): FW's president sold
SSW, FW, MKT and GMO for FW's train; FW's own sale lapsed at action 910 and closed FW. The one
protection decided after that action (MKT's, 911) is the last in FW's turn: SSW's turn begins
and GMO's sale waits, though its president could protect it. At 912 SSW closed as it laid a
tile (its price at $10 in the closing zone): its turn ends without resolving GMO's sale either;
the next round begins with SLSF's connection check. Ours had offered GMO's protection after 911
(and after 912), which the site refused.

data/closed_company_sales_wait.json.gz: that game, made by our random player and checked
action by action against the site, to action 913."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from engine.io.export18xx import import_game
from engine.titles.t1870 import protection

DATA = json.loads(gzip.decompress(
    (Path(__file__).parent / "data" / "closed_company_sales_wait.json.gz").read_bytes()))


def _logged(action_id: int) -> dict[str, Any]:
    out = {k: v for k, v in DATA["actions"][action_id - 1].items() if k not in ("id", "auto_actions")}
    out["entity"] = str(out["entity"])
    return out


def test_after_the_one_decision_the_next_companys_turn_begins() -> None:
    g = import_game(DATA, upto=910)
    g.imported = False  # live moves from here
    assert g.state.corporations["FW"].closed
    g.apply(_logged(911))  # 1002 protects MKT
    assert [s.corp for s in protection.queue(g)] == ["GMO"]
    assert protection.protect_error(g, protection.queue(g)[0], set()) is None
    assert g.round.current() == ("SSW", "corporation")


def test_a_company_closing_in_its_turn_resolves_no_sale() -> None:
    g = import_game(DATA, upto=911)
    g.imported = False
    before = g.title.share_price(g.state.corporations["GMO"])
    stored = g.apply(_logged(912))  # SSW lays a tile and closes
    assert g.state.corporations["SSW"].closed
    assert [s.corp for s in protection.queue(g)] == ["GMO"]
    assert g.title.share_price(g.state.corporations["GMO"]) == before
    checks = [(c["entity"], c["corporations"]) for c in stored.auto_actions
              if c.get("type") == "destination_connection"]
    assert checks == [("SLSF", ["ATSF", "IC"])]  # the next round's first check
    assert g.round.current() == ("ATSF", "corporation") and g.round.kinds() == ["choose"]
