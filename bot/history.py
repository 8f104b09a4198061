"""Which logged actions are in effect once undo/redo are taken into account.

The engine is the authority on undo/redo legality; the bot only needs to know whose move an
undo would take back (to ask for consent) and what the recent moves were (for /history).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.store import ActionRecord

# a standing order (program_*) is a move of its player: the engine's undo takes it back too
NON_MOVES = frozenset({"message"})


def effective(records: Sequence[ActionRecord]) -> tuple[list[ActionRecord], list[ActionRecord]]:
    """(moves in effect in order, undone moves that a redo would restore, last undone last)."""
    stack: list[ActionRecord] = []
    undone: list[ActionRecord] = []
    for rec in records:
        kind = rec.action.get("type")
        if kind in NON_MOVES:
            continue
        if kind == "undo":
            target = rec.action.get("action_id")
            if target is None:
                if stack:
                    undone.append(stack.pop())
            else:
                while stack and int(stack[-1].action.get("id", stack[-1].seq)) > int(target):
                    undone.append(stack.pop())
        elif kind == "redo":
            if undone:
                stack.append(undone.pop())
        else:
            stack.append(rec)
            undone.clear()
    return stack, undone
