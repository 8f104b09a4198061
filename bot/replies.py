"""What the bot says: plain data shared by the Discord layer and the terminal mode."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Button:
    custom_id: str
    label: str
    style: str = "secondary"  # "success" | "danger" | "primary" | "secondary"


@dataclass(slots=True)
class Reply:
    """One answer to a command. `mention` lists the only users the message may ping."""

    text: str
    ephemeral: bool = False
    attachments: list[Attachment] = field(default_factory=list)
    mention: tuple[int, ...] = ()
    buttons: list[Button] = field(default_factory=list)


class BotError(Exception):
    """A command was refused; `str(err)` is the reason shown (privately) to the user."""
