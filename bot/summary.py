"""One-line, human summaries of engine actions (formatting only, no rules)."""

from __future__ import annotations

from typing import Any


def _routes(action: dict[str, Any]) -> str:
    routes = action.get("routes") or []
    total = sum(int(r.get("revenue") or 0) for r in routes)
    trains = ", ".join(str(r.get("train", "?")) for r in routes)
    return f"runs {trains or 'no trains'}" + (f" for ${total}" if total else "")


def describe(action: dict[str, Any]) -> str:
    """The verb phrase of an action, e.g. "lays tile 57 on E12 (rotation 2)"."""
    kind = action.get("type", "?")
    match kind:
        case "bid":
            return f"bids ${action.get('price')} on {action.get('company')}"
        case "par":
            cell = str(action.get("share_price", "?"))
            return f"pars {action.get('corporation')} at ${cell.split(',')[0]}"
        case "buy_shares":
            shares = ", ".join(action.get("shares") or [])
            return f"buys {shares or 'shares'}"
        case "sell_shares":
            shares = ", ".join(action.get("shares") or []) or action.get("corporation", "")
            pct = action.get("percent")
            return f"sells {shares}" + (f" ({pct}%)" if pct else "")
        case "pass":
            return "passes"
        case "lay_tile":
            tile = str(action.get("tile", "?")).rsplit("-", 1)[0]
            return f"lays tile {tile} on {action.get('hex')} (rotation {action.get('rotation')})"
        case "place_token":
            return f"places a token in {action.get('city')}"
        case "run_routes":
            return _routes(action)
        case "dividend":
            return {"payout": "pays out", "withhold": "withholds", "half": "pays half"}.get(
                str(action.get("kind")), f"dividend {action.get('kind')}"
            )
        case "buy_train":
            return f"buys train {action.get('train')} for ${action.get('price')}"
        case "discard_train":
            return f"discards train {action.get('train')}"
        case "buy_company":
            return f"buys {action.get('company')} for ${action.get('price')}"
        case "assign":
            return f"assigns to {action.get('target')}"
        case "choose":
            return f"chooses {action.get('choice')}"
        case "merge":
            return f"merges with {action.get('corporation')}"
        case "bankrupt":
            return "declares bankruptcy"
        case "program_share_pass":
            every = " in every stock round" if action.get("indefinite") else ""
            return f"programs an auto-pass{every}"
        case "program_buy_shares":
            until = action.get("until_condition")
            goal = "until it floats" if until == "float" else f"until holding {until} shares"
            return f"programs an auto-buy of {action.get('corporation')} {goal}"
        case "program_disable":
            return "cancels their programmed move"
        case "undo":
            return "undoes the last move"
        case "redo":
            return "redoes the move"
        case _:
            return str(kind).replace("_", " ")


def auto_line(name: str, action: dict[str, Any]) -> str:
    """A programmed move the engine made for a player, in words ("**Bob** passes
    (auto-pass)"; an order's end with its reason)."""
    kind = action.get("type")
    if kind == "program_disable":
        return f"**{name}**'s programmed move ends: {action.get('reason') or 'cancelled'}."
    tag = "auto-buy" if kind == "buy_shares" else "auto-pass"
    return f"**{name}** {describe(action)} ({tag})"


def line(actor: str, entity: str | None, action: dict[str, Any], phrase: str | None = None) -> str:
    """ "**Alice** (GMO) lays tile 57 on E12 (rotation 2)" (`phrase`: the move in words with
    names, bot/narrate.py, instead of the plain description)."""
    who = f"**{actor}**"
    if entity and entity != actor:
        who += f" ({entity})"
    return f"{who} {phrase or describe(action)}"
