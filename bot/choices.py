"""From `game.legal()` to choices: the legal values of a command parameter (autocomplete and the
terminal's `legal` listing), as (label, value) pairs.

No rules live here: the engine's `Legal` answer says what may be done now; bot/moves.py turns
what a player picks into an action.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot import naming
from engine.legal import Legal

MAX_CHOICES = 25  # Discord's limit for autocomplete results
CONNECTION_CHOICES = ("Map", "Charter")


def kinds(legal: Legal) -> tuple[str, ...]:
    """The action kinds the engine allows now (the engine re-checks every action)."""
    return tuple(legal.kinds)


def filter_choices(options: Iterable[tuple[str, str]], typed: str) -> list[tuple[str, str]]:
    """(label, value) pairs whose label contains what was typed, at most 25."""
    typed = typed.strip().lower()
    out = [(label, value) for label, value in options if typed in label.lower()]
    return out[:MAX_CHOICES]


def options_for(legal: Legal | None, param: str, args: dict[str, Any]) -> list[tuple[str, str]]:
    """The legal values of one command parameter, given the arguments already filled in."""
    if legal is None:
        return []
    match param:
        case "company":
            full = naming.names_of(legal).companies
            seen = [(f"{naming.full(full, c)} for ${p}", str(c)) for c, p in legal.bids]
            seen += [(f"{naming.full(full, c)} for ${lo}-${hi}", str(c))
                     for c, lo, hi in legal.companies]
            return _unique(seen)
        case "corporation":
            corps = [str(c) for c in legal.pars]
            corps += [corp_of(s) for s, _p, _src in legal.buy_shares]
            corps += [str(c) for c, _pcts in legal.sell_shares]
            full = naming.names_of(legal).corporations
            return _unique((naming.full(full, c), c) for c in corps)
        case "price":
            corp = args.get("corporation")
            pars = legal.pars
            if corp and corp in pars:
                return [(f"${str(cell).split(',')[0]} ({cell})", str(cell)) for cell in pars[corp]]
            company = args.get("company")
            for c, p in legal.bids:
                if c == company:
                    return [(f"${p} (minimum)", str(p))]
            for c, lo, hi in legal.companies:
                if c == company:
                    return _unique((f"${v}", str(v)) for v in (lo, hi))
            train = args.get("train")
            for t, _variant, lo, hi, _seller in legal.trains:
                if t == train:
                    return _unique((f"${v}", str(v)) for v in (lo, hi))
            return []
        case "share":
            corp = args.get("corporation")
            held = naming.names_of(legal).shares
            return [
                (naming.share_label(s, p, src, held), str(s))
                for s, p, src in legal.buy_shares
                if not corp or corp_of(s) == corp
            ]
        case "percent":
            corp = args.get("corporation")
            return _unique(
                (f"{c} {p}%", str(p))
                for c, pcts in legal.sell_shares
                for p in pcts
                if not corp or c == corp
            )
        case "hex":
            places = naming.names_of(legal).hexes
            return [(places.get(str(h), str(h)), str(h)) for h in legal.tiles]
        case "tile":
            tiles = legal.tiles
            typed_hex = naming.hex_id(legal, str(args["hex"]), tiles) if args.get("hex") else None
            hexes = [typed_hex] if typed_hex in tiles else list(tiles)
            return _unique(
                (f"{str(t).rsplit('-', 1)[0]} ({t})", str(t)) for h in hexes for t, _r in tiles[h]
            )
        case "rotation":
            tiles = legal.tiles
            at = naming.hex_id(legal, str(args.get("hex", "")), tiles)
            tile = naming.tile_id(tiles.get(at, ()), args.get("tile")) if args.get("tile") else None
            rots = [
                r
                for t, rs in tiles.get(at, ())
                if not tile or t == tile
                for r in naming.distinct_rotations(legal, t, list(rs))
            ]
            return _unique((str(r), str(r)) for r in rots)
        case "city":
            out = []
            places = naming.names_of(legal).cities
            for entry in legal.token_cities:
                # (city, cost) or (city, slot, cost)
                city, slot, cost = entry if len(entry) == 3 else (entry[0], None, entry[-1])
                label = (places.get(str(city), str(city))
                         + (f" slot {slot}" if slot is not None else "") + f" for ${cost}")
                out.append((label, f"{city}#{slot}" if slot is not None else str(city)))
            return out
        case "ability":
            return [(f"{c} ({k})", str(c)) for c, k in legal.company_abilities]
        case "train":
            trains = [
                (naming.train_label(legal, str(t), v, lo, hi, seller), str(t))
                for t, v, lo, hi, seller in legal.trains
            ]
            return _unique(trains)
        case "kind":
            return [(str(k), str(k)) for k in legal.dividends]
        case "choice" | "where":
            choices = [(str(c), str(c)) for c in legal.choices]
            if not choices and "choose" in kinds(legal):  # 1870 connection run
                choices = [(c, c) for c in CONNECTION_CHOICES]
            return choices
        case _:
            return []


def corp_of(share_id: str) -> str:
    return str(share_id).rsplit("_", 1)[0]


def _unique(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out = []
    for label, value in pairs:
        if value not in seen:
            seen.add(value)
            out.append((label, value))
    return out
