"""Persistence of the bot: a repository on SQLite (aiosqlite, the default) or PostgreSQL
(asyncpg, shared by several bot processes), with versioned SQL migrations."""

from bot.store.repo import (
    ActionRecord,
    DuplicateInteraction,
    GameRecord,
    PlayerRecord,
    SeqTaken,
    Store,
    UndoRequest,
)

__all__ = [
    "ActionRecord",
    "DuplicateInteraction",
    "GameRecord",
    "PlayerRecord",
    "SeqTaken",
    "Store",
    "UndoRequest",
]
