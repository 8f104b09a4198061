"""The bot's stored records as the repository (bot/store/repo.py) returns them: a game, its seated
players, a logged action, an undo request; and the repository's two write conflicts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    user_id: int
    name: str
    engine_id: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    title: str
    options: tuple[str, ...]
    seed: int
    status: str
    creator_id: int
    players: tuple[PlayerRecord, ...]

    @property
    def seated(self) -> tuple[PlayerRecord, ...]:
        """Players in seat order (join order before the game starts)."""
        if all(p.seat is not None for p in self.players):
            return tuple(sorted(self.players, key=lambda p: p.seat or 0))
        return self.players

    def player_by_user(self, user_id: int) -> PlayerRecord | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def player_by_engine_id(self, engine_id: str) -> PlayerRecord | None:
        return next((p for p in self.players if p.engine_id == engine_id), None)


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seq: int
    action: dict[str, Any]
    interaction_id: str | None
    user_id: int | None
    created_at: str


@dataclass(frozen=True, slots=True)
class UndoRequest:
    id: int
    game_id: int
    requester_id: int
    approver_id: int
    log_length: int
    status: str


class DuplicateInteraction(Exception):
    """This interaction id was already recorded: a retried interaction."""


class SeqTaken(Exception):
    """Another writer stored this game's action at this position first."""
