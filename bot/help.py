"""/help: the commands in groups, and one command's use with its options and examples. Shared
by Discord and the terminal (`help`, `help token`), built from the command specs themselves
(bot/commands.py) so the two never drift."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Set up", ("create", "join", "leave", "start", "games", "import", "abandon", "end", "export")),
    ("Auction and stock round", ("bid", "par", "buy", "sell", "pass", "protect")),
    ("Operating round", ("lay", "token", "run", "dividend", "train", "discard", "private",
                         "choose", "assign", "redeem", "reissue", "connect", "merge", "bankrupt")),
    ("Following the game", ("catchup", "history", "status", "map", "market", "legal", "help")),
    ("Taking back", ("undo", "redo")),
    ("Long games", ("mygames", "nudge", "follow", "unfollow", "settings", "timing", "seats",
                    "substitute", "resign", "drop")),
)

EXAMPLES: dict[str, tuple[str, ...]] = {
    "bid": ("/bid company:M&O", "/bid company:m&o price:70"),
    "par": ("/par corporation:GMO price:80",),
    "buy": ("/buy corporation:GMO", "/buy corporation:gmo share:GMO_3"),
    "sell": ("/sell corporation:IC percent:20",),
    "lay": ("/lay hex:Meridian tile:57 rotation:2", "/lay hex:E5 tile:57-0 rotation:2"),
    "token": ("/token city:Meridian", "/token city:e5"),
    "run": ("/run", "/run routes:Memphis-Grenada-Chattanooga", "/run routes:3+:Jackson-Meridian;2+:I1-I1"),
    "dividend": ("/dividend kind:payout", "/dividend kind:withhold"),
    "train": ("/train train:3+", "/train train:2+-0 price:80"),
    "history": ("/history", "/history count:30"),
    "catchup": ("/catchup",),
    "start": ("/start seating:@alice @bob @cy", "/start"),
    "create": ("/create title:18MS", "/create title:1870 options:original_rules"),
    "help": ("/help", "/help command:token"),
}

EXTRA: dict[str, str] = {
    "import": "Import an 18xx.games export (attach the JSON file; map each player id to a member).",
}

TERMINAL = """In the terminal: type a command without the slash, arguments in order or as name=value
(e.g. `token Meridian`, `lay hex=E5 tile=57 rotation=2`). Prefix a line with "NAME:" to act
as that player once, or switch with `as NAME`. Also: use GAME_ID, import FILE ID=NAME...,
allow REQUEST, refuse REQUEST, agree VOTE, disagree VOTE, sell train N, keep train N, quit.
By e-mail (with [mail] in config.toml): invite ADDRESS NAME, mailgame TITLE ADDRESS NAME."""


def _usage(spec: Any) -> str:
    parts = [f"/{spec.name}"]
    for p in spec.params:
        parts.append(f"{p.name}" if p.required else f"[{p.name}]")
    return " ".join(parts)


def overview(specs: Mapping[str, Any], *, terminal: bool = False) -> str:
    """Every command, grouped, with its one-line description."""
    lines = ["**Commands** (`/help command:NAME` for one command):"]
    listed: set[str] = set()
    for title, names in GROUPS:
        known = [n for n in names if n in specs or n in EXTRA]
        if not known:
            continue
        lines.append(f"__{title}__")
        for n in known:
            what = specs[n].description if n in specs else EXTRA[n]
            lines.append(f"/{n} — {what}")
            listed.add(n)
    rest = sorted(set(specs) - listed)
    if rest:
        lines.append("__Other__")
        lines.extend(f"/{n} — {specs[n].description}" for n in rest)
    if terminal:
        lines.append(TERMINAL)
    return "\n".join(lines)


def command_help(specs: Mapping[str, Any], name: str, *, terminal: bool = False) -> str:
    """One command: what it does, its options (required or not, what they take) and examples."""
    key = name.strip().lower().lstrip("/")
    if key not in specs:
        if key in EXTRA:
            return f"/{key} — {EXTRA[key]}"
        close = [n for n in specs if n.startswith(key[:2])] if key else []
        hint = f" Did you mean {', '.join('/' + n for n in close)}?" if close else ""
        return f"There is no command /{key}.{hint} Type /help for the list."
    spec = specs[key]
    lines = [f"**/{spec.name}** — {spec.description}", f"Use: `{_usage(spec)}`"]
    for p in spec.params:
        need = "required" if p.required else "optional"
        how = " (choices offered as you type)" if p.autocomplete else ""
        lines.append(f"• {p.name} ({need}): {p.description}{how}")
    if spec.move is not None:
        lines.append("Names or ids, any case: a place (Meridian or E5), a company (M&O or its "
                     "name), a train (3+ or its id).")
    examples = EXAMPLES.get(key, ())
    if examples:
        shown = [re.sub(r"(\w+):", r"\1=", e.lstrip("/")) if terminal else e for e in examples]
        lines.append("Examples: " + ", ".join(f"`{e}`" for e in shown))
    return "\n".join(lines)
