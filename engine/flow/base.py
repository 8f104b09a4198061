"""What every round shares: whose turn it is, what they may do, and dispatch of actions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.game import Game


class Round:
    kind = "round"  # draft | auction | stock | operating | merger

    def __init__(self, game: Game) -> None:
        self.game = game
        self.finished = False

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
