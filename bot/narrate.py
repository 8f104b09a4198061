"""The engine's events (engine/events.py) and moves in plain words, with names people know
(engine/names.py): "IC pays $90 ($9 per share): Bob $54, Alice $9." Formatting only: every
figure comes from the engine's events. Runs where the game is (an engine thread): the words
need the game's state for place and company names."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine import names
from engine.events import Event
from engine.game import Game

NameOf = Callable[[str], str]  # player id -> the name shown (others: the id itself)

WHY = {
    "sale": "shares sold",
    "payout": "dividend paid",
    "withhold": "dividend withheld",
    "half": "half paid",
    "sold_out": "sold out at the end of the stock round",
    "no_train": "it has no train to run",
    "no_route": "it has no route to run",
}
END_REASONS = {
    "fixed_round": "the last operating round was played",
    "bank": "the bank broke",
    "stock_market": "a share price reached the end of the market",
    "bankrupt": "a player went bankrupt",
    "manually_ended": "the game was ended early",
    "no_moves": "nothing could change any more",
}


def _money(value: Any) -> str:
    if isinstance(value, float) and value != int(value):
        return f"${value:.2f}".rstrip("0").rstrip(".")
    return f"${int(value)}"


def _holders(to: dict[str, int], name_of: NameOf) -> str:
    ranked = sorted(to.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{name_of(k)} {_money(v)}" for k, v in ranked)


def _company(game: Game, cid: str | None) -> str:
    return names.company(game, str(cid)) if cid else str(cid)


def event_line(e: Event, game: Game, name_of: NameOf) -> str | None:
    """One event in words (None: said elsewhere, e.g. the round header or the deal itself)."""
    s, i = e.subject, e.info
    match e.kind:
        case "phase":
            tiles = ", ".join(i.get("tiles") or ())
            extra = f": train limit {i['train_limit']}" if i.get("train_limit") else ""
            return f"Phase {i['phase']} begins{extra}" + (f", tiles {tiles}." if tiles else ".")
        case "rust" | "obsolete":
            owners = ", ".join(f"{name_of(k) if k != 'depot' else 'the market'} {v}"
                               for k, v in i["owners"].items())
            verb = "rust" if e.kind == "rust" else "become obsolete"
            text = f"All {i['train']} trains {verb}" + (f" ({owners})" if owners else "")
            if i.get("salvage") and e.kind == "rust":
                text += f"; each owner gets {_money(i['salvage'])} salvage a train"
            return text + "."
        case "company_closed":
            if i.get("owner") is None:
                return f"{_company(game, s)} is removed from the game (nobody bought it)."
            return f"{_company(game, s)} closes."
        case "float":
            return f"{s} floats" + (f" and receives {_money(i['cash'])}." if i.get("cash") else ".")
        case "corp_closed":
            return f"{s} closes."
        case "president":
            return f"{name_of(i['new'])} becomes president of {s} (was {name_of(i['old'])})."
        case "price":
            verb = "rises" if i["new"] > i["old"] else "drops"
            why = WHY.get(str(i.get("why")))
            return (f"{s}'s share price {verb} from {_money(i['old'])} to {_money(i['new'])}"
                    + (f" ({why})." if why else "."))
        case "payout":
            per = f" ({_money(i['per_share'])} per share)" if i.get("per_share") is not None else ""
            who = _holders(i.get("to") or {}, name_of)
            return f"{s} pays out {_money(i['total'])}{per}" + (f": {who}." if who else ".")
        case "half":
            per = f" ({_money(i['per_share'])} per share)" if i.get("per_share") is not None else ""
            who = _holders(i.get("to") or {}, name_of)
            return (f"{s} pays half of {_money(i['total'])}: keeps {_money(i['kept'])}, pays "
                    f"{_money(i['paid'])}{per}" + (f": {who}." if who else "."))
        case "withhold":
            return f"{s} withholds {_money(i['total'])} (into its treasury)."
        case "split":
            who = _holders(i.get("to") or {}, name_of)
            return f"{s} keeps {_money(i['kept'])}" + (f"; its owner gets: {who}." if who else ".")
        case "income":
            return None  # grouped: see lines()
        case "contribution":
            return f"{name_of(str(s))} pays {_money(i['amount'])} toward {i['corp']}'s train."
        case "loan":
            fee = int(i.get("fee") or 0)
            if fee:
                return (f"{name_of(str(s))} borrows {_money(int(i['amount']) - fee)} from the "
                        f"bank to pay for the train, plus the {_money(fee)} fee: a debt of "
                        f"{_money(i['amount'])}.")
            return f"{name_of(str(s))} borrows from the bank: a debt of {_money(i['amount'])}."
        case "interest":
            return f"{name_of(str(s))}'s debt grows by {_money(i['amount'])} (interest)."
        case "bankrupt":
            return f"{name_of(str(s))} goes bankrupt."
        case "skip":
            if i.get("entity_type") == "player":
                facts = f"{_money(i.get('cash', 0))} in cash"
                if i.get("cert_limit"):
                    facts += f", {i.get('certs')} of {i['cert_limit']} certificates"
                return f"{name_of(str(s))} is skipped: nothing they may buy or sell ({facts})."
            return f"{s} is skipped: it has nothing to do."
        case "bank_broken":
            return "The bank is broken!"
        case "end_triggered":
            match i.get("when"):
                case "set_end":
                    return "The game will end after this set of operating rounds."
                case "or_end":
                    return "The game will end after the current (or next) operating round."
                case "after_or":
                    return f"Last set: the game ends after Operating Round {i.get('or_number')}."
            return "The game's end is near."
        case "game_over":
            why = END_REASONS.get(str(i.get("reason")), str(i.get("reason") or ""))
            return f"Game over ({why})." if why else "Game over."
        case "round":
            return f"— {i['name']} —"
        case "shares" | "train" | "run":
            return None  # said by the move itself (move_text)
    return None


DIVIDENDS = ("payout", "half", "withhold", "split")


def lines(events: Sequence[Event], game: Game, name_of: NameOf, *, rounds: bool = True,
          game_over: bool = True, action: dict[str, Any] | None = None) -> list[str]:
    """The events in words, in order; private incomes grouped on one line after the round
    they start. `rounds`: say round changes; `game_over`: say the end; `action`: the move
    (a dividend's own payout is said by the move's line, see move_text)."""
    out: list[str] = []
    income = [e for e in events if e.kind == "income"]
    kind = (action or {}).get("type")
    closing = [e for e in events if e.kind == "company_closed" and e.get("owner") is not None]
    for e in events:
        if e.kind == "company_closed" and len(closing) > 1 and e.get("owner") is not None:
            if e is closing[0]:
                out.append("Private companies close: "
                           + ", ".join(_company(game, x.subject) for x in closing) + ".")
            continue
        if (e.kind == "round" and not rounds) or (e.kind == "game_over" and not game_over):
            continue
        if kind == "dividend" and e.kind in DIVIDENDS and e.subject == (action or {}).get("entity"):
            continue
        text = event_line(e, game, name_of)
        if text:
            out.append(text)
        if e.kind == "round" and income:
            out.append("Private income: " + ", ".join(
                f"{name_of(str(x.get('owner')))} {_money(x.get('amount'))} ({x.subject})"
                for x in income) + ".")
            income = []
    return out


def move_text(action: dict[str, Any], events: Sequence[Event], game: Game,
              name_of: NameOf = str) -> str | None:
    """The verb phrase of a move, with names people know (None: bot/summary.py's own words)."""
    kind = action.get("type")
    if kind == "dividend":
        paid = next((e for e in events if e.kind in DIVIDENDS
                     and e.subject == action.get("entity")), None)
        text = event_line(paid, game, name_of) if paid is not None else None
        if text and paid is not None and text.startswith(f"{paid.subject} "):
            return text[len(str(paid.subject)) + 1:].rstrip(".")
        return None
    if kind == "run_routes":
        run = next((e for e in events if e.kind == "run"), None)
        if run is None:
            return None
        data = game.title.data

        def stops(hexes: Sequence[str]) -> str:
            if not hexes:
                return ""
            return " " + "-".join(data.hexes[h].location or h if h in data.hexes else h
                                  for h in hexes)

        ran = run.get("trains") or ()
        trains = ", ".join(f"{names.train(str(t))}{stops(h)}"
                           + (f" (${r})" if r is not None and len(ran) > 1 else "")
                           for t, r, h in ran)
        total = run.get("total")
        return (f"runs {trains or 'no train'}" + (f" for ${total}" if total is not None else ""))
    deal = next((e for e in events if e.kind in ("shares", "train")), None)
    if deal is not None and deal.kind == "shares":
        i = deal.info
        what = names.share(i["percent"], i["corp"], i.get("price"),
                           i.get("president", False) and i["verb"] == "buy")
        if kind == "par":
            cell = str(action.get("share_price", "?")).split(",")[0]
            return f"pars {i['corp']} at ${cell} and buys {what}"
        other = i.get("other")
        if i["verb"] == "buy":
            source = {"ipo": " from the IPO", "market": " from the market"}.get(str(other), "")
            return f"buys {what}{source}"
        return f"sells {what}"
    if deal is not None and deal.kind == "train":
        i = deal.info
        seller = i.get("seller")
        return ("buys " + names.train(str(i["train"]), i.get("price"))
                + (f" from {seller}" if seller else " from the bank"))
    data = game.title.data
    if kind == "lay_tile":
        tile = str(action.get("tile", "?")).rsplit("-", 1)[0]
        place = names.hex_place(data, str(action.get("hex")))
        return f"lays tile {tile} on {place} (rotation {action.get('rotation')})"
    if kind == "place_token":
        return f"places a token in {names.city_place(game, str(action.get('city')))}"
    if kind == "bid" and action.get("company"):
        return f"bids ${action.get('price')} on {_company(game, action.get('company'))}"
    if kind == "buy_company" and action.get("company"):
        return f"buys {_company(game, action.get('company'))} for ${action.get('price')}"
    return None
