"""The engine's legal answer with the names people know beside its ids, for the builders in
bot/moves.py (a player may type "token Meridian", "token e5", "bid m&o") and for autocomplete
labels ("Meridian (E5) for $40", "10% of GMO for $80 from the IPO", "a 3+ train for $180").

`named(game, legal)` runs where the game is (an engine thread); the builders then read only
plain dictionaries. No rules here: the ids are the legal answer's, the words engine/names.py's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from engine import names as words
from engine.core import tiles
from engine.core.data import TitleData
from engine.game import Game
from engine.legal import Legal


@dataclass(frozen=True, slots=True)
class Names:
    data: TitleData | None = None  # the title's data (hex place names)
    tile_hexes: tuple[str, ...] = ()  # the hexes a tile may be laid on (`hexes` names them)
    cities: dict[str, str] = field(default_factory=dict)  # city id -> "Meridian (E5)"
    city_hexes: dict[str, str] = field(default_factory=dict)  # city id -> hex
    companies: dict[str, str] = field(default_factory=dict)  # id -> full name
    corporations: dict[str, str] = field(default_factory=dict)  # id -> full name
    trains: dict[str, str] = field(default_factory=dict)  # train id -> card name
    shares: dict[str, tuple[int, bool]] = field(default_factory=dict)  # id -> (percent, pres.)

    @property
    def hexes(self) -> dict[str, str]:
        """hex -> "Meridian (E5)", for the hexes a tile may be laid on: named when asked
        (autocomplete labels), from the title's data alone (no game state)."""
        if self.data is None:
            return {}
        return {h: words.hex_place(self.data, h) for h in self.tile_hexes}


@dataclass(frozen=True)
class Named(Legal):
    """A legal answer that also knows names (`.names`)."""

    names: Names = field(default_factory=Names)


def named(game: Game, legal: Legal) -> Named:
    """On an engine thread: `legal` with the names of what it offers."""
    st = game.state
    data = game.title.data
    cities: dict[str, str] = {}
    city_hexes: dict[str, str] = {}
    for cid, _cost in legal.token_cities:
        hex_name = words.city_hex(game, cid)
        if hex_name is not None:
            city_hexes[cid] = hex_name
            cities[cid] = words.hex_place(data, hex_name)
    shares = {c.id: (c.percent, c.president) for corp in st.corporations.values()
              for c in corp.certs}
    return Named(**vars(legal), names=Names(
        data=data, tile_hexes=tuple(legal.tiles), cities=cities, city_hexes=city_hexes,
        companies={c.id: c.name for c in st.companies.values()},
        corporations={c.id: c.name for c in st.corporations.values()},
        trains={t.id: t.name for t in st.trains}, shares=shares))


def distinct_rotations(legal: Legal, copy_id: str, rotations: list[int]) -> list[int]:
    """The rotations worth showing: one of each group that lays the same track (a symmetric
    tile's 0 and 3); all of them when the title's tiles are not known."""
    data = names_of(legal).data
    tile = data.tiles.get(copy_id.rsplit("-", 1)[0]) if data is not None else None
    return rotations if tile is None else tiles.distinct_rotations(tile.geometry, rotations)


def names_of(legal: Legal) -> Names:
    return legal.names if isinstance(legal, Named) else Names()


def hex_id(legal: Legal, typed: str, hexes: Iterable[str]) -> str:
    """The hex `typed` names among `hexes` (its id in any case or its place name), else the
    text as typed (upper case: hex ids are)."""
    n = names_of(legal)
    options = [str(h) for h in hexes]
    if n.data is not None:
        hit = words.match_hex(n.data, typed, options)
        if hit is not None:
            return hit
    hit = words.match_id(typed, options)
    return hit if hit is not None else str(typed).strip().upper()


def city_id(legal: Legal, typed: str) -> str:
    """The city `typed` names among the legal token cities: the id, its hex or its place."""
    n = names_of(legal)
    options = [cid for cid, _cost in legal.token_cities]
    hit = words.match_id(typed, options)
    if hit is not None:
        return hit
    by_hex: dict[str, list[str]] = {}
    for cid in options:
        if cid in n.city_hexes:
            by_hex.setdefault(n.city_hexes[cid], []).append(cid)
    if n.data is not None and by_hex:
        h = words.match_hex(n.data, typed, by_hex)
        if h is not None and len(by_hex[h]) == 1:
            return by_hex[h][0]
    return str(typed).strip()


def pick_id(legal: Legal, typed: str, ids: Iterable[str], full: dict[str, str] | None = None
            ) -> str:
    """An id among `ids` named by `typed` in any case or by its full name, else as typed."""
    hit = words.match_id(typed, [str(i) for i in ids], full)
    return hit if hit is not None else str(typed).strip()


# -- labels for autocomplete ------------------------------------------------------------------


def full(full: dict[str, str], cid: str) -> str:
    """"Mobile & Ohio Railway (M&O)" (the id alone when it has no other name)."""
    name = full.get(str(cid))
    return f"{name} ({cid})" if name and name != cid else str(cid)


def share_label(share_id: str, price: int, source: str, held: dict[str, tuple[int, bool]]) -> str:
    pct, pres = held.get(str(share_id), (10, False))
    where = {"ipo": "the IPO", "market": "the market"}.get(str(source), str(source))
    corp = str(share_id).rsplit("_", 1)[0]
    return f"{words.share(pct, corp, price, pres)} from {where}"


def train_label(legal: Legal, tid: str, variant: str | None, lo: int, hi: int, seller: str) -> str:
    name = variant or names_of(legal).trains.get(tid) or tid.rsplit("-", 1)[0]
    price = f"${lo}" if lo == hi else f"${lo}-${hi}"
    where = "the bank" if str(seller) in ("bank", "depot", "", "None") else str(seller)
    return f"{words.article(name)} {name} train for {price} from {where} ({tid})"


def tile_id(offers: Iterable[tuple[str, list[int]]], typed: str | None) -> str | None:
    """The tile copy among `offers` [(copy id, rotations)] that `typed` names: the copy id,
    or the tile's name ("57") for its first offered copy."""
    if not typed:
        return None
    ids = [str(t) for t, _r in offers]
    text = str(typed).strip()
    if text in ids:
        return text
    same = [t for t in ids if t.rsplit("-", 1)[0].lower() == text.lower()]
    return same[0] if same else text
