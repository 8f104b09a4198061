"""A turn's end is checked for connections once. When a game's log carries the site's checks
(a real game's log, or the bot's own stored log) and the check of the operating company's turn
end came with the last protection decision and found a connection run, the turn ends after
that run without a second check; the next check is the one at the next company's turn start.

Found by the lockstep sweep from real games' positions (1870 seed 16 of `--from-fixtures`: the
bankrupt game at 655, then our own moves): FW's end-of-turn check came with 4395's protection
at 652 and found FW's connection run (653-656); after the run's dividend our engine recorded
a second check for FW's turn end before IC's, which the site refused ("Blocking step Lay/Upgrade
Track cannot process action destination_connection"); the site's own log at 656 carries IC's
check alone."""

from __future__ import annotations

from typing import Any

from tests.engine.t1870._util import BANKRUPT, replay


def test_the_turn_ends_after_a_connection_run_found_by_its_logged_end_check() -> None:
    g = replay(BANKRUPT, upto=655)
    rnd: Any = g.round
    assert rnd.conn_runs == ["FW"] and rnd.conn_stage == "dividend"
    g.apply({"type": "dividend", "entity": "FW", "entity_type": "corporation", "kind": "payout"})
    checks = g.export_actions()[-1].get("auto_actions")
    assert checks == [{"type": "destination_connection", "entity": "IC",
                       "entity_type": "corporation", "corporations": []}]
    assert g.round.corp().id == "IC"  # type: ignore[attr-defined]
