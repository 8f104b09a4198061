"""The boundary of a live move: every id it names exists in this game (players, corporations,
companies, certificates, trains, hexes), so the rules below never meet an unknown name.

A name that does not exist is refused here with a plain reason (EngineError); whether a move
with known names is legal is for the rules to say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.game import Game

ENTITY_KINDS = {"player", "corporation", "minor", "company"}


def _fail(message: str, rule: str = "action.unknown_id") -> EngineError:
    return EngineError(message, rule=rule)


def check_entity(game: Game, eid: Any, etype: Any) -> None:
    st = game.state
    if eid is None:
        return
    eid = str(eid)
    if etype == "player" and not any(p.id == eid for p in st.players):
        raise _fail(f"{eid} is not a player of this game.")
    if etype in ("corporation", "minor") and eid not in st.corporations:
        raise _fail(f"There is no corporation {eid} in {game.title_name}.")
    if etype == "company" and eid not in st.companies:
        raise _fail(f"There is no private company {eid} in {game.title_name}.")
    if etype is None and not (any(p.id == eid for p in st.players) or eid in st.corporations
                              or eid in st.companies):
        raise _fail(f"Nobody called {eid} plays in this game.")


def _hex(game: Game, name: Any, what: str = "hex") -> None:
    if not isinstance(name, str) or name not in game.title.data.hexes:
        raise _fail(f"There is no {what} {name} on the {game.title_name} map.", "action.unknown_hex")


def check_ids(game: Game, act: Any) -> None:
    """Refuse a live move naming something that does not exist in this game."""
    st = game.state
    check_entity(game, act.entity, act.entity_type)
    kind = act.type
    certs = {c.id for corp in st.corporations.values() for c in corp.certs}
    trains = {t.id for t in st.trains}
    if kind in ("bid", "buy_company"):
        if act.company not in st.companies and act.company not in st.corporations:
            raise _fail(f"There is no private company {act.company} in {game.title_name}.")
    elif kind in ("par", "merge", "program_buy_shares"):
        if act.corporation not in st.corporations:
            raise _fail(f"There is no corporation {act.corporation} in {game.title_name}.")
    elif kind in ("buy_shares", "sell_shares"):
        for sid in act.shares:
            if sid not in certs and sid not in st.corporations:
                raise _fail(f"There is no share {sid} in {game.title_name}.", "action.unknown_share")
        named = {sid if sid in st.corporations else sid.rsplit("_", 1)[0] for sid in act.shares}
        if len(named) > 1:
            raise _fail(f"One {kind.replace('_', ' ')} move is of one corporation's shares, not of "
                        f"{' and '.join(sorted(named))}.", "action.one_corporation")
        if act.percent is not None and not 0 < act.percent <= 100:
            raise _fail(f"{act.percent}% is not a share of a company.", "action.percent")
        swap = getattr(act, "swap", None)
        if swap is not None and (not isinstance(swap, str) or swap not in certs):
            raise _fail(f"There is no share {str(swap)[:40]} to swap.", "action.unknown_share")
    elif kind == "lay_tile":
        _hex(game, act.hex)
        name = act.tile.rsplit("-", 1)[0] if "-" in act.tile else act.tile
        if name not in game.title.data.tiles:
            raise _fail(f"There is no tile {act.tile} in {game.title_name}.", "action.unknown_tile")
    elif kind == "place_token":
        _city(game, act.city)
        if act.slot < 0 or act.slot > 8:
            raise _fail(f"{act.slot} is not a token slot.", "action.slot")
        if act.tokener is not None:
            check_entity(game, act.tokener, None)
    elif kind in ("buy_train", "discard_train"):
        if act.train not in trains:
            raise _fail(f"There is no train {act.train} in {game.title_name}.", "action.unknown_train")
        if kind == "buy_train" and act.exchange is not None and act.exchange not in trains:
            raise _fail(f"There is no train {act.exchange} to trade in.", "action.unknown_train")
    elif kind == "run_routes":
        for r in act.routes:
            if r.train not in trains:
                raise _fail(f"There is no train {r.train} in {game.title_name}.", "action.unknown_train")
            for chain in r.connections:
                for h in chain:
                    _hex(game, h)
            for h in r.hexes or ():
                _hex(game, h)
    elif kind == "assign":
        if act.target_type == "hex":
            _hex(game, act.target)
        elif act.target not in st.corporations and act.target not in st.companies:
            raise _fail(f"There is no {act.target_type} {act.target} in {game.title_name}.")


def _city(game: Game, city: Any) -> None:
    """A city id is "<hex>-<tile>-<city>" on a preprinted hex ("I1-0-0") or
    "<tile>-<copy>-<city>" for a laid tile ("57-1-0")."""
    parts = str(city).split("-")
    if len(parts) < 3 or not all(p for p in parts) or not parts[-1].isdigit():
        raise _fail(f"{city!r} is not a city (e.g. 57-1-0 or I1-0-0).", "action.unknown_city")
    head = "-".join(parts[:-2])
    data = game.title.data
    if head not in data.hexes and head not in data.tiles:
        raise _fail(f"There is no city {city} on the {game.title_name} map.", "action.unknown_city")


def check_claims(game: Game, act: Any) -> None:
    """A live move may carry figures the rules fix (the export format has them): each must be
    the computed one, else the move is refused with both numbers. Route revenues are checked
    where the routes are scored (engine/flow/or_revenue.py)."""
    if act.type not in ("buy_shares", "sell_shares"):
        return
    st = game.state
    certs = {c.id: c for corp in st.corporations.values() for c in corp.certs}
    named = [certs[s] for s in act.shares if s in certs]
    if act.percent is not None and named and len(named) == len(act.shares):
        total = sum(c.percent for c in named)
        if act.percent > total:  # less can be a president's certificate swapped in part
            raise EngineError(f"{', '.join(c.id for c in named)} {'is' if len(named) == 1 else 'are'} "
                              f"only {total}%, not {act.percent}%.", rule="shares.percent")
    price = act.share_price
    if price is None or isinstance(price, bool):
        return
    if act.type == "buy_shares" and act.entity_type == "player":
        offers = {sid: p for sid, p, _src in game.legal().buy_shares}
        for c in named:
            if c.id in offers and offers[c.id] != price:
                raise EngineError(f"{c.id} costs ${offers[c.id]} a share now, not ${price}.",
                                  rule="shares.price")
    elif act.type == "sell_shares" and named and act.entity_type == "player":
        # (a corporation's own sale is 1870's reissue, at a price of its own rule)
        corp = st.corporations[named[0].corp]
        if corp.cell is not None:
            now = game.title.share_price(corp)
            if now != price:
                raise EngineError(f"{corp.id} sells at ${now} a share now, not ${price}.",
                                  rule="shares.price")
