"""The bot's words for an 18MS bank loan (bot/narrate.py over engine/events.py)."""

from __future__ import annotations


def test_a_loan_is_told_with_its_fee() -> None:
    """A random game's first bank loan: the event gives the debt and the $50 fee within it,
    and the bot's line says both (the debt is what the president lacked plus the fee)."""
    from bot.narrate import event_line
    from engine.events import story
    from engine.randomplay import random_game

    g = random_game("18MS", seed=5, players=3, undo=False, max_actions=3000)
    loans = [(act, e) for act, evs in story(g) for e in evs if e.kind == "loan"]
    assert loans, "seed 5 no longer borrows: pick another seed"
    act, e = loans[0]
    assert act.type == "buy_train" and e.get("fee") == 50 and e.get("amount") > 50
    line = event_line(e, g, lambda pid: f"P{pid}")
    assert line == (f"P{e.subject} borrows ${e.get('amount') - 50} from the bank to pay for "
                    f"the train, plus the $50 fee: a debt of ${e.get('amount')}.")
