"""The company whose turn it was closed (its president let the protection of his own sale lapse,
the price to $0) and no company is left to operate in the round: the queued protections go on
to the last, as at any turn's end, before the next round begins. Found by the lockstep sweep
(1870 seed 759, from the real game 40469 at action 314): TP, last in the round, closed at action
1273; after the protections of GMO (1274) and SSW (1275) ours began the next round (MP's
connection check) and left MKT's sale unprotected; the site offered MKT's president that
protection first.

data/last_company_closed_protections.json.gz: our random player's moves after action 314 of
that real game (read from ../shared), checked action by action against the site, to 1276."""

from __future__ import annotations

from typing import Any

from engine.io.export18xx import import_game
from tests.engine.t1870._util import continued


def _logged(data: dict[str, Any], action_id: int) -> dict[str, Any]:
    action = next(a for a in data["actions"] if a["id"] == action_id)
    out = {k: v for k, v in action.items() if k not in ("id", "auto_actions")}
    out["entity"] = str(out["entity"])
    return out


def test_the_protections_go_on_when_no_company_is_left_to_operate() -> None:
    data = continued("last_company_closed_protections.json.gz")
    g = import_game(data, upto=1274)
    g.imported = False  # live moves from here
    assert g.state.corporations["TP"].closed
    round_number = g.or_number
    stored = g.apply(_logged(data, 1275))  # Player 1 protects SSW
    assert not stored.auto_actions  # no connection check: the round is not over
    assert g.or_number == round_number
    assert g.round.current() == ("2385", "player")  # MKT's president, for MKT's sale
    assert g.round.kinds() == ["buy_shares", "pass"]
    stored = g.apply(_logged(data, 1276))  # he protects it; the next round begins with MP
    assert [c["entity"] for c in stored.auto_actions if c.get("type") == "destination_connection"] == ["MP"]
    assert g.or_number == round_number + 1
    assert g.round.current() == ("MP", "corporation")
