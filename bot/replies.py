"""What the bot says: plain data shared by the Discord layer and the terminal mode."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.images import LazyView
    from engine.view import GameView


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Button:
    custom_id: str
    label: str
    style: str = "secondary"  # "success" | "danger" | "primary" | "secondary"


@dataclass(frozen=True, slots=True)
class ImageJob:
    """Images a reply still needs, drawn after the reply is sent (bot/images.py). `ticket`
    orders the jobs of one game; `stamp` names the stored state (the log's length)."""

    game_id: int
    ticket: int
    stamp: int
    view: GameView | LazyView  # LazyView: built when its turn to be drawn comes
    kinds: tuple[str, ...]
    clocks: tuple[tuple[str, float], ...] = ()  # (engine player id, seconds on turns): the card


@dataclass(slots=True)
class Reply:
    """One answer to a command. `mention` lists the only users the message may ping."""

    text: str
    ephemeral: bool = False
    attachments: list[Attachment] = field(default_factory=list)
    mention: tuple[int, ...] = ()
    buttons: list[Button] = field(default_factory=list)
    images: ImageJob | None = None  # images to add once the reply is out
    clocks: tuple[tuple[str, float], ...] = ()  # players' time on turns, for the card's images


class BotError(Exception):
    """A command was refused; `str(err)` is the reason shown (privately) to the user."""
