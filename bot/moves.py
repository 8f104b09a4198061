"""From a player's command arguments to an engine action, and from `game.legal()` to choices.

No rules live here: the engine's `Legal` answer says what may be done now, these functions only
translate between what a player types (or picks in autocomplete) and the action's fields. The
engine validates every action again when it is applied. The choices (autocomplete, the legal
listing) are in bot/choices.py, re-exported here.
"""

from __future__ import annotations

import json
from typing import Any

from bot import naming
from bot.choices import CONNECTION_CHOICES, corp_of
from bot.choices import filter_choices as filter_choices
from bot.choices import kinds as kinds
from bot.choices import options_for as options_for
from bot.replies import BotError
from engine.legal import Legal


def _int(value: str | int, what: str) -> int:
    try:
        return int(str(value).strip())
    except ValueError as err:
        raise BotError(f"{value!r} is not a {what} (a whole number).") from err


def _money(value: str | int) -> int:
    try:
        return int(str(value).strip().lstrip("$"))
    except ValueError as err:
        raise BotError(f"{value!r} is not an amount of money.") from err


# -- builders: arguments -> action dict (entity filled in by the service) ---------------------


def _company_id(legal: Legal, company: str) -> str:
    ids = [str(c) for c, _p in legal.bids] + [str(c) for c, _lo, _hi in legal.companies]
    ids += list(naming.names_of(legal).companies)
    return naming.pick_id(legal, company, ids, naming.names_of(legal).companies)


def _corp_id(legal: Legal, corporation: str) -> str:
    ids = list(naming.names_of(legal).corporations) or [str(c) for c in legal.pars]
    return naming.pick_id(legal, corporation, ids, naming.names_of(legal).corporations)


def bid(legal: Legal, company: str, price: str | int | None = None) -> dict[str, Any]:
    """A bid; without a price, the company's price when it has only one (a fixed-price draft:
    the minimum is the price), else the minimum bid."""
    company = _company_id(legal, company)
    if price is None:
        offered = [p for c, p in legal.bids if c == company]
        if not offered:
            raise BotError(f"You cannot bid on {company} now: give the company and a price.")
        price = offered[0]
    return {"type": "bid", "company": company, "price": _money(price)}


def par(legal: Legal, corporation: str, price: str) -> dict[str, Any]:
    corporation = _corp_id(legal, corporation)
    cells = [str(c) for c in legal.pars.get(corporation, ())]
    cell = price if price in cells else None
    if cell is None:  # the player typed a price: find the one cell with it
        matching = [c for c in cells if c.split(",")[0] == str(price).lstrip("$")]
        cell = matching[0] if matching else str(price)
    return {"type": "par", "corporation": corporation, "share_price": cell}


def buy(legal: Legal, corporation: str, share: str | None = None) -> dict[str, Any]:
    """Buy one share: `share` is a share id from the choices, else the cheapest of the company."""
    corporation = _corp_id(legal, corporation)
    share = naming.pick_id(legal, share, [o[0] for o in legal.buy_shares]) if share else None
    offers = [(s, p, src) for s, p, src in legal.buy_shares]
    if share:
        chosen = next((o for o in offers if o[0] == share), None)
    else:
        mine = sorted((o for o in offers if corp_of(o[0]) == corporation), key=lambda o: o[1])
        chosen = mine[0] if mine else None
    if chosen is None:
        return {"type": "buy_shares", "shares": [share or f"{corporation}_?"]}
    return {"type": "buy_shares", "shares": [chosen[0]]}


def _player_of(legal: Legal) -> dict[str, Any]:
    """The player behind the acting entity: a player's own move during a corporation's turn
    (selling shares to raise cash for a train) is made by that player, not the corporation."""
    if legal.entity_type != "player" and legal.player:
        return {"entity": str(legal.player), "entity_type": "player"}
    return {}


def sell(
    legal: Legal, corporation: str, percent: str | int, shares: str | None = None
) -> dict[str, Any]:
    """Sell `percent` of a corporation; `shares` optionally names the certificates (ids).

    Without ids the engine picks the certificates (`shares: [corporation]`). Always a player
    action: during an operating round it is the president raising cash for a train."""
    corporation = _corp_id(legal, corporation)
    ids = (shares or "").replace(",", " ").split()
    return {
        "type": "sell_shares",
        "shares": ids or [corporation],
        "percent": _percent(percent),
        **_player_of(legal),
    }


def _percent(value: str | int) -> int:
    try:
        return int(str(value).strip().rstrip("%"))
    except ValueError as err:
        raise BotError(f"{value!r} is not a percentage.") from err


# -- title-specific moves (see /work/shared/reference/action-log-format.md) -------------------


def protect(legal: Legal, corporation: str, shares: str | None = None) -> dict[str, Any]:
    """1870 price protection: the player buys back the bundle just sold (the certificates the
    legal answer offers unless they are named)."""
    ids = (shares or "").replace(",", " ").split()
    if not ids:
        offer = next((c for c in legal.choices if c.get("type") == "buy_shares"
                      and c.get("entity_type") == "player"
                      and str(c.get("shares", [""])[0]).rsplit("_", 1)[0] == corporation), None)
        if offer is not None:
            return {"type": "buy_shares", "shares": list(offer["shares"]),
                    "percent": offer.get("percent"), **_player_of(legal)}
    return {"type": "buy_shares", "shares": ids or [corporation], **_player_of(legal)}


def redeem(legal: Legal, corporation: str, share: str | None = None) -> dict[str, Any]:
    """1870: the corporation buys one of its shares (the first the legal answer offers, the
    market's first if it holds any, unless `share` is named)."""
    if not share:
        share = next((str(c["shares"][0]) for c in legal.choices
                      if c.get("type") == "buy_shares" and c.get("entity") == corporation
                      and c.get("shares")), None)
    return {
        "type": "buy_shares",
        "entity": corporation,
        "entity_type": "corporation",
        "shares": [share] if share else [],
        "percent": 10,
    }


def reissue(legal: Legal, corporation: str) -> dict[str, Any]:
    """1870: the corporation returns all its redeemed shares to its treasury for sale."""
    return {
        "type": "sell_shares",
        "entity": corporation,
        "entity_type": "corporation",
        "shares": [],
    }


def connect(legal: Legal, where: str = "Map") -> dict[str, Any]:
    """1870 connection run: the destination token goes on the map (bonus) or the charter."""
    choice = next((c for c in CONNECTION_CHOICES if c.lower() == where.strip().lower()), None)
    if choice is None:
        raise BotError("Choose Map (token on the map) or Charter.")
    return {"type": "choose", "choice": choice}


def pass_(legal: Legal) -> dict[str, Any]:
    return {"type": "pass"}


def _by_company(action: dict[str, Any], company: str | None) -> dict[str, Any]:
    """Act through a private company's ability (the company is the acting entity)."""
    if company:
        action.update(entity=company, entity_type="company")
    return action


class NeedsRotation(BotError):
    """A lay without a rotation where several fit: the player is shown them (bot/play.py)."""

    def __init__(self, hex_name: str, tile: str, rotations: list[int]) -> None:
        self.hex_name, self.tile, self.rotations = hex_name, tile, rotations
        super().__init__(f"Tile {tile.rsplit('-', 1)[0]} fits on {hex_name} in rotations "
                         f"{', '.join(map(str, rotations))}: give one.")


def lay_tile(
    legal: Legal, hex: str, tile: str, rotation: str | int | None = None,
    company: str | None = None,
) -> dict[str, Any]:
    """Lay a tile (the hex by id or place name, the tile by copy id or name); with `company`,
    through that private company's ability."""
    tiles = legal.tiles
    at = naming.hex_id(legal, hex, tiles)
    copy = naming.tile_id(tiles.get(at, ()), tile) or tile
    if rotation is None:  # the one that fits, or a picture of those that do
        fits = [naming.distinct_rotations(legal, t, list(rs))
                for t, rs in tiles.get(at, ()) if t == copy]
        if not fits:
            raise BotError(f"Tile {tile} cannot be laid on {at} now.")
        if len(fits[0]) != 1:
            raise NeedsRotation(at, copy, fits[0])
        rotation = fits[0][0]
    action: dict[str, Any] = {
        "type": "lay_tile",
        "hex": at,
        "tile": copy,
        "rotation": _int(rotation, "rotation (0-5)"),
    }
    return _by_company(action, company)


def place_token(
    legal: Legal, city: str, slot: str | int | None = None, company: str | None = None
) -> dict[str, Any]:
    """Place a token; with `company`, through that private company's ability."""
    if "#" in city:  # autocomplete value "<city>#<slot>"
        city, slot_text = city.split("#", 1)
        slot = slot if slot is not None else slot_text
    city = naming.city_id(legal, city)  # an id, a hex ("e5") or a place ("Meridian")
    action = {"type": "place_token", "city": city, "slot": _int(slot or 0, "slot")}
    return _by_company(action, company)


def run_routes(legal: Legal, routes: str | None = None) -> dict[str, Any]:
    """Nothing: the solver's best run shown to confirm; "best": that run at once; routes as
    JSON (the export format's `routes` list); or
    stops by name per train: "Memphis-Grenada-Jackson;Jackson-Meridian" (engine/routes/byname.py)."""
    if not routes:  # the solver's best, shown for the president to confirm
        return {"type": "run_routes", "routes": "propose"}
    if routes.strip().lower() in ("best", "auto"):
        return {"type": "run_routes", "routes": "best"}  # the service asks the solver
    if not routes.lstrip().startswith(("[", "{")):  # the service matches them to legal routes
        return {"type": "run_routes", "routes": "named", "typed": routes}
    try:
        parsed = json.loads(routes)
    except json.JSONDecodeError as err:
        raise BotError(f"Routes must be JSON or 'best': {err.msg}.") from err
    if isinstance(parsed, dict):
        parsed = [parsed]
    return {"type": "run_routes", "routes": parsed}


def dividend(legal: Legal, kind: str) -> dict[str, Any]:
    return {"type": "dividend", "kind": naming.pick_id(legal, kind, legal.dividends)}


def buy_train(
    legal: Legal, train: str, price: str | int | None = None, variant: str | None = None
) -> dict[str, Any]:
    train = _train_id(legal, train, variant)
    offers = [o for o in legal.trains if o[0] == train]
    offer = next((o for o in offers if variant is None or o[1] == variant), None)
    if price is None:
        if offer is None:
            raise BotError(f"Train {train} is not for sale now.")
        price = offer[2]
    action: dict[str, Any] = {"type": "buy_train", "train": train, "price": _money(price)}
    if variant:
        action["variant"] = variant
    elif offer is not None and offer[1]:
        action["variant"] = offer[1]
    return action


def _train_id(legal: Legal, typed: str, variant: str | None = None) -> str:
    """A train on offer named by its id (any case) or its name ("3+": the first offered)."""
    offers = [(str(o[0]), str(o[1] or "")) for o in legal.trains]
    hit = naming.pick_id(legal, typed, [o[0] for o in offers])
    if hit in {o[0] for o in offers}:
        return hit
    text = str(typed).strip().lower()
    trains = naming.names_of(legal).trains
    for tid, face in offers:
        if text in (face.lower(), trains.get(tid, "").lower()) and (variant is None or face == variant):
            return tid
    return str(typed).strip()


def discard_train(legal: Legal, train: str) -> dict[str, Any]:
    return {"type": "discard_train", "train": train}


def buy_company(legal: Legal, company: str, price: str | int) -> dict[str, Any]:
    return {"type": "buy_company", "company": _company_id(legal, company), "price": _money(price)}


def choose(legal: Legal, choice: str) -> dict[str, Any]:
    return {"type": "choose", "choice": choice}


def assign(legal: Legal, target: str, company: str | None = None) -> dict[str, Any]:
    """A private company's ability on a hex (1870 SCC/GSC), or the acting corporation's choice
    (18MEX NdM keeping a merged token)."""
    return _by_company({"type": "assign", "target": target.upper(), "target_type": "hex"}, company)


def merge(legal: Legal, corporation: str | None = None) -> dict[str, Any]:
    """18MEX: the corporation offered the NdM merger accepts (`/pass` declines)."""
    corp = corporation or legal.entity
    return {"type": "merge", "corporation": corp, "entity": corp, "entity_type": "corporation"}


def bankrupt(legal: Legal) -> dict[str, Any]:
    return {"type": "bankrupt"}
