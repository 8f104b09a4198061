"""Persistence of the bot: an aiosqlite repository with versioned SQL migrations."""

from bot.store.repo import (
    ActionRecord,
    DuplicateInteraction,
    GameRecord,
    PlayerRecord,
    Store,
    UndoRequest,
)

__all__ = [
    "ActionRecord",
    "DuplicateInteraction",
    "GameRecord",
    "PlayerRecord",
    "Store",
    "UndoRequest",
]
