"""Names people know: places as "Meridian (E5)", shares as "10% of GMO for $80", trains as
"a 3+ train for $180", companies by their full names; and the reverse, from what a player types
(a name or an id, any case) to the id the engine's legal answer uses.

Pure lookups in the title's data and the game's state: no rules live here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine.core.data import TitleData

if TYPE_CHECKING:
    from engine.game import Game

_CITY_ID = re.compile(r"^(?P<tile>.+)-(?P<city>\d+)$")


def hex_place(data: TitleData, hex_name: str) -> str:
    """"Meridian (E5)" for a named hex, "E5" otherwise."""
    h = data.hexes.get(hex_name)
    loc = h.location if h is not None else None
    return f"{loc} ({hex_name})" if loc else hex_name


def city_hex(game: Any, city_id: str) -> str | None:
    """The hex a city id names: "57-1-0" (tile copy 57-1, city 0) -> the hex the tile is on;
    "I1-0-0" (a printed hex's own city) -> I1."""
    m = _CITY_ID.match(str(city_id))
    if m is None:
        return None
    tile = m.group("tile")
    for hex_name, placed in game.state.tiles.items():
        if placed.copy_id == tile:
            return str(hex_name)
    printed = tile.rsplit("-", 1)[0]
    return printed if printed in game.title.data.hexes else None


def city_place(game: Any, city_id: str) -> str:
    """"Meridian (E5)" for a city id (the id itself when it names no city on the map)."""
    hex_name = city_hex(game, city_id)
    return hex_place(game.title.data, hex_name) if hex_name else str(city_id)


def article(word: str) -> str:
    """"a" or "an" before a train name or an amount spoken as a number ("an 8 train")."""
    head = word.lstrip("$")
    return "an" if head[:1] == "8" or head[:2] in ("11", "18") else "a"


def train(name: str, price: int | None = None) -> str:
    """"a 3+ train" or "a 3+ train for $180"."""
    text = f"{article(name)} {name} train"
    return text + (f" for ${price}" if price is not None else "")


def share(percent: int, corp: str, price: int | None = None, president: bool = False) -> str:
    """"10% of GMO for $80" ("the president's 20% of GMO" for the president's certificate)."""
    text = f"the president's {percent}% of {corp}" if president else f"{percent}% of {corp}"
    return text + (f" for ${price}" if price is not None else "")


def share_of(game: Any, share_id: str, price: int | None = None) -> str:
    """A certificate id ("GMO_1") in words."""
    corp_id = str(share_id).rsplit("_", 1)[0]
    corp = game.state.corporations.get(corp_id)
    cert = next((c for c in corp.certs if c.id == share_id), None) if corp else None
    if cert is None:
        return str(share_id)
    return share(cert.percent, corp_id, price, cert.president)


def company(game: Any, company_id: str) -> str:
    """"Mobile & Ohio Railway (M&O)"."""
    c = game.state.companies.get(company_id)
    return f"{c.name} ({company_id})" if c is not None and c.name != company_id else company_id


def train_name(game: Game, train_id: str) -> str:
    """The card name of a train id ("3+-1" -> "3+")."""
    for t in game.state.trains:
        if t.id == train_id:
            return t.name
    return str(train_id).rsplit("-", 1)[0]


# -- from what a player types to an id ----------------------------------------------------------


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", str(text).lower())


def match_hex(data: TitleData, typed: str, hexes: Iterable[str]) -> str | None:
    """The one hex among `hexes` that `typed` names: its id ("e5", any case), its place name
    ("meridian") or both ("Meridian (E5)"). None when none or several match."""
    options = [str(h) for h in hexes]
    text = str(typed).strip()
    inner = re.search(r"\(([^()]+)\)\s*$", text)
    if inner:  # "Meridian (E5)": the id in brackets decides
        text = inner.group(1)
    by_id = [h for h in options if h.lower() == text.lower()]
    if by_id:
        return by_id[0]
    key = _norm(text)
    if not key:
        return None
    named = [h for h in options if _norm(data.hexes[h].location or "") == key
             if h in data.hexes]
    if len(named) == 1:
        return named[0]
    starts = [h for h in options if h in data.hexes
              and _norm(data.hexes[h].location or "").startswith(key)]
    return starts[0] if len(starts) == 1 else None


def match_city(game: Any, typed: str, cities: Iterable[str]) -> str | None:
    """The one city id among `cities` that `typed` names: the id itself, its hex ("e5"), its
    place name ("Meridian") or "Meridian (E5)". None when none or several match."""
    options = [str(c) for c in cities]
    exact = [c for c in options if c.lower() == str(typed).strip().lower()]
    if exact:
        return exact[0]
    by_hex: dict[str, list[str]] = {}
    for c in options:
        h = city_hex(game, c)
        if h is not None:
            by_hex.setdefault(h, []).append(c)
    hex_name = match_hex(game.title.data, typed, by_hex)
    if hex_name is None or len(by_hex[hex_name]) != 1:
        return None
    return by_hex[hex_name][0]


def match_id(typed: str, ids: Iterable[str], names: dict[str, str] | None = None) -> str | None:
    """An id among `ids` named by `typed` in any case, or by its full name (`names`: id ->
    name); None when nothing (or more than one thing) matches."""
    options = [str(i) for i in ids]
    text = str(typed).strip()
    inner = re.search(r"\(([^()]+)\)\s*$", text)
    for candidate in ([inner.group(1)] if inner else []) + [text]:
        hit = [i for i in options if i.lower() == candidate.lower()]
        if hit:
            return hit[0]
    if names:
        key = _norm(text)
        hit = [i for i in options if key and _norm(names.get(i, "")) == key]
        if len(hit) == 1:
            return hit[0]
    return None
