"""Persistence of the bot: a repository on SQLite (aiosqlite, the default) or PostgreSQL
(asyncpg, shared by several bot processes), with versioned SQL migrations."""

from bot.store.records import (
    ActionRecord,
    DuplicateInteraction,
    GameRecord,
    PlayerRecord,
    SeqTaken,
    UndoRequest,
)
from bot.store.repo import Store

__all__ = [
    "ActionRecord",
    "DuplicateInteraction",
    "GameRecord",
    "PlayerRecord",
    "SeqTaken",
    "Store",
    "UndoRequest",
]
