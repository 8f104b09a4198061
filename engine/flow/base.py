"""What every round shares: whose turn it is, what they may do, and dispatch of actions."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.game import Game

# tests: what a replay reads from the next move of a log accepted once (Game.next_move) is
# also asked of the rules, which must agree (tests/engine/test_told_steps.py)
CHECK_TOLD = False


class Round:
    """A round holds its game weakly: the game holds its round, and a game that held its round
    and was held by it would be garbage only the cyclic collector's full passes could free
    (a dropped game is freed at once this way, by reference counting)."""

    kind = "round"  # draft | auction | stock | operating | merger

    def __init__(self, game: Game) -> None:
        self._game = weakref.ref(game)
        self.finished = False

    @property
    def game(self) -> Game:
        game = self._game()
        if game is None:
            raise RuntimeError("This round's game is gone (a round lives as long as its game).")
        return game

    def __getstate__(self) -> dict[str, Any]:
        """(A snapshot names the game itself: engine/snapshots.py.)"""
        state = dict(self.__dict__)
        state["_game"] = self.game
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._game = weakref.ref(state["_game"])

    # who acts now: (entity id, entity type "player" | "corporation" | "company" | "minor")
    def current(self) -> tuple[str, str]:
        raise NotImplementedError

    def kinds(self) -> list[str]:
        """Action types the current entity may take now (empty = nothing: auto-advance)."""
        raise NotImplementedError

    def process(self, action: Any) -> None:
        raise NotImplementedError

    def name(self) -> str:
        return self.kind

    def reject(self, message: str, rule: str) -> None:
        raise EngineError(message, rule=rule)
