"""The connection checks logged with the action that ends an operating round (the last
company's run) are the next round's: its first company's check at its start, which can start a
connection run before that company's turn. Found by the lockstep sweep (1870 seed 764, from
the real game 40469 at action 826; seed 783 the same): GMO, last of the round, ran no route at
action 1621 and closed at $0; the next round began with SLSF's check, which found TP connected.
Made live, ours gave TP its connection run; replayed from the log (an import, or the bot's own
stored game), the check was taken as one of the finished round's and lost, and SLSF was to act.

data/next_round_checks.json.gz: our random player's moves after action 826 of that real game
(read from ../shared), checked action by action against the site, to 1622."""

from __future__ import annotations

from engine.game import Game
from engine.io.export18xx import import_game, start_from_export
from tests.engine.t1870._util import continued


def test_an_imported_log_starts_the_connection_run_of_the_next_rounds_check() -> None:
    g = import_game(continued("next_round_checks.json.gz"), upto=1621)
    assert g.round.current() == ("TP", "corporation")
    assert g.round.kinds() == ["choose"]


def test_a_stored_log_reloaded_does_too() -> None:
    data = continued("next_round_checks.json.gz")
    data = {**data, "actions": [a for a in data["actions"] if a["id"] <= 1621]}
    game, actions = start_from_export(data)
    assert isinstance(game, Game)
    game.load_log(actions, accepted=True)
    assert game.round.current() == ("TP", "corporation")
    assert game.round.kinds() == ["choose"]
