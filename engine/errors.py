"""The one error type the engine raises for a move it rejects."""

from __future__ import annotations


class EngineError(ValueError):
    """A move was rejected. `str(err)` names the rule in a player's words.

    `rule` is a short stable key (e.g. "stock.sell_first_round") that tests and the bot may
    match on; the message is for people.
    """

    def __init__(self, message: str, *, rule: str = "", action_id: int | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.action_id = action_id


class EngineFault(RuntimeError):
    """Not a ruling: the engine failed while applying a move (a bug). The game is left exactly
    as it was before the move; the caller logs it and tells the user it was not made."""

    def __init__(self, message: str, *, action_id: int | None = None) -> None:
        super().__init__(message)
        self.action_id = action_id
