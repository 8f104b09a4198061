"""The turn mail's text: the events since the player's last move, what they may do, the
card as text (the phone card's lines), and the images to attach. Works on what the service
holds; the caller takes the game's lock."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from bot import history, moves, summary
from bot.store import ActionRecord, GameRecord
from engine.legal import Legal
from engine.view import GameView
from render.card import card_layout

_MENTION = re.compile(r"<@!?(\d+)>")
MAX_EVENTS = 40


def plain(text: str, record: GameRecord) -> str:
    """Discord markup as mail text: mentions as names, no bold."""
    def name(m: re.Match[str]) -> str:
        p = record.player_by_user(int(m.group(1)))
        return p.name if p else "someone"
    text = _MENTION.sub(name, text).replace("**", "")
    return re.sub(r"<#\d+>", "the game's thread", text)


def events_since(record: GameRecord, records: Sequence[ActionRecord], user_id: int,
                 author: Callable[[GameRecord, ActionRecord], int | None]) -> list[str]:
    """The moves in effect after this player's latest one (all of them if none yet)."""
    stack, _ = history.effective(list(records))
    last = max((i for i, rec in enumerate(stack) if author(record, rec) == user_id), default=-1)
    lines = []
    for rec in stack[last + 1:]:
        uid = author(record, rec)
        p = record.player_by_user(uid) if uid is not None else None
        entity = rec.action.get("entity")
        actor = p.name if p else str(entity)
        ent = str(entity) if rec.action.get("entity_type") != "player" else None
        lines.append(plain(f"{rec.seq}. {summary.line(actor, ent, rec.action)}", record))
    if len(lines) > MAX_EVENTS:
        lines = [f"({len(lines) - MAX_EVENTS} earlier moves left out)"] + lines[-MAX_EVENTS:]
    return lines


def legal_text(legal: Legal | None) -> list[str]:
    """What the acting player may do, with the values the engine offers (as /legal says)."""
    if legal is None:
        return []
    kinds = ", ".join(k.replace("_", " ") for k in moves.kinds(legal)) or "nothing"
    lines = [f"You may: {kinds}"]
    for spec_params in _autocompleted():
        opts = moves.options_for(legal, spec_params, {})
        if opts:
            lines.append(f"  {spec_params}: " + ", ".join(label for label, _v in opts[:12]))
    return list(dict.fromkeys(lines))


def _autocompleted() -> list[str]:
    from bot.specs import MOVES

    return list(dict.fromkeys(p.name for s in MOVES for p in s.params if p.autocomplete))


def card_text(view: GameView) -> list[str]:
    """The phone card's texts, line by line (empty if the card cannot be laid out)."""
    try:
        lay = card_layout(view)
    except Exception:
        return []
    rows: dict[int, list[tuple[float, str]]] = {}
    for item in lay.items:
        x, y = item.point
        rows.setdefault(round(y / 8), []).append((x, str(item.text)))
    return ["  ".join(t for _x, t in sorted(row)) for _y, row in sorted(rows.items())]


HOW_TO = """Answer this mail with one move per line, as in the terminal, e.g.
  bid M&O 70        par GMO 70        buy GMO        sell GMO 20        pass
  lay H6 57 1       token H6          run            dividend payout    train 2+-0
Several lines are applied in order until one is refused. Quoted text (lines starting
with >) and your signature (after a line "-- ") are ignored. Also: legal, history,
status, undo."""
