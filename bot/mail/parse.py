"""Move lines out of a mail: the text part of the body, without quoted text (`>`), without
the signature (from a `-- ` line on) and without what a mail program puts above a quote
("On ... wrote:"). Each remaining line is a command in the terminal's grammar
(bot/local.py): `bid M&O 70`, `buy corporation=GMO share=GMO_2`, `pass`."""

from __future__ import annotations

import re
from email.message import EmailMessage

from bot.local import parse_arguments, split_command

_WROTE = re.compile(r"^(on .*wrote:|le .*a écrit ?:|am .*schrieb .*:|-----original message-----)$",
                    re.IGNORECASE)
MAX_LINES = 40  # a mail with more move lines than this is read up to here


def body_text(msg: EmailMessage) -> str:
    """The mail's plain text (the first text/plain part; an HTML-only mail gives "")."""
    part = msg.get_body(preferencelist=("plain",))
    if part is None:
        return ""
    try:
        return str(part.get_content())
    except (LookupError, ValueError):
        return ""


def move_lines(text: str) -> list[str]:
    out = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if line in ("-- ", "--"):
            break  # the signature
        stripped = line.strip()
        if _WROTE.match(stripped):
            break  # the quoted mail follows
        if not stripped or stripped.startswith(">") or stripped.startswith("#"):
            continue
        out.append(stripped)
        if len(out) >= MAX_LINES:
            break
    return out


def read_line(line: str) -> tuple[str, dict[str, object]] | str:
    """(command, arguments) as the terminal reads them, or the reason the line is unreadable."""
    command = split_command(line)
    if isinstance(command, str):
        return command.rstrip(".") or "an empty line"
    name, words = command
    args = parse_arguments(name, words)
    return (name, args) if not isinstance(args, str) else args
