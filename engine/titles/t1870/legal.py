"""1870's own decisions in the legal answer (engine.legal calls Title1870.legal_extras): price
protection, redemption and reissue, the connection run (Map/Charter, payout or withhold), the
cattle and port tokens, train discards and the sales allowed to fund a forced train purchase. Each is offered as a complete action in `choices`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.state import MARKET
from engine.titles.t1870 import protection
from engine.titles.t1870.connection import CONNECTION_TIME_LIMIT_MS
from engine.titles.t1870.connection_offer import connection_run
from engine.titles.t1870.state import Sale, state1870

if TYPE_CHECKING:
    from engine.game import Game

CLEARED = ("bids", "pars", "buy_shares", "sell_shares", "tiles", "token_cities", "trains",
           "companies", "dividends", "company_abilities")


def protection_bundle(game: Game, sale: Sale) -> list[str]:
    """The market certificates that make up a queued sale (what a protection buys back)."""
    corp = game.state.corporations[sale.corp]
    pool = [c for c in shares.certs_of(corp, MARKET) if not c.president]
    sold = list(sale.certs)
    need, out = sale.pct, []
    for c in [c for sid in sold for c in pool if c.id == sid] + [c for c in pool if c.id not in sold]:
        if c.percent <= need:
            out.append(c.id)
            need -= c.percent
    return out


def _only(base: dict[str, Any], kinds: tuple[str, ...]) -> None:
    for key in CLEARED:
        base.pop(key, None)
    base["kinds"] = kinds


def _protection(game: Game, base: dict[str, Any], sold: set[str]) -> None:
    sale = protection.queue(game)[0]
    _only(base, base["kinds"])
    pid = str(sale.president)
    if protection.protect_error(game, sale, sold) is None:
        base["choices"] = [{"entity": pid, "entity_type": "player", "type": "buy_shares",
                            "shares": protection_bundle(game, sale), "percent": sale.pct}]


def _stock(game: Game, base: dict[str, Any]) -> None:
    rnd: Any = game.round
    if rnd.in_protection():
        _protection(game, base, rnd._sold(str(protection.queue(game)[0].president)))
        return
    if not base["kinds"]:
        return
    pid, st = base["entity"], game.state
    if "buy_company" in base["kinds"]:  # from another player, for $1 up to all his cash
        base["companies"] = [(c.id, 1, st.player(pid).cash) for c in rnd.tradeable_companies(pid)]
    out = base.setdefault("choices", [])
    for corp in st.corporations.values():
        if corp.closed or shares.president(corp) != pid:
            continue
        e = {"entity": corp.id, "entity_type": "corporation"}
        if rnd.redeem_error(pid, corp) is None:
            for cert in redeemable(game, corp, pid):
                # the site's shape: no price (it compares the bundle with its own, unpriced)
                out.append({**e, "type": "buy_shares", "shares": [cert], "percent": 10})
        if rnd.reissue_error(pid, corp) is None:
            held = shares.certs_of(corp, corp.id)
            out.append({**e, "type": "sell_shares", "shares": [c.id for c in held],
                        "percent": sum(c.percent for c in held), "share_price": rnd.reissue_par(corp)})


def redeemable(game: Game, corp: Any, pid: str) -> list[str]:
    """Certificates the corporation may redeem: the market's if it holds any, else an ordinary
    share of any holder (the president's own unless his holding equals the largest other); as
    on the site, the first of the market's list, or each holder's first ordinary share."""
    pool = shares.certs_of(corp, MARKET)
    if pool:  # (never the president's certificate)
        return [c.id for c in pool if not c.president][:1]
    st = game.state
    held = {p.id: shares.percent(corp, p.id) for p in st.players}
    top_other = max((v for p, v in held.items() if p != pid), default=0)
    out: list[str] = []
    for p in st.players:
        first = next((c for c in shares.certs_of(corp, p.id) if not c.president), None)
        if first is not None and first.percent == 10 and not (p.id == pid and held[pid] == top_other):
            out.append(first.id)
    return out


def _operating(game: Game, base: dict[str, Any]) -> None:
    rnd: Any = game.round
    t: Any = game.title
    kinds = base["kinds"]
    if kinds == ("discard_train",):
        corp = game.state.corporations[base["entity"]]
        _only(base, kinds)
        base["choices"] = [{"entity": corp.id, "entity_type": "corporation", "type": "discard_train",
                            "train": tr.id} for tr in t.active_trains(game, corp)]
        return
    if rnd.conn_runs:
        corp = rnd.corp()
        e = {"entity": corp.id, "entity_type": "corporation"}
        if kinds == ("choose",):
            _only(base, kinds)
            base["choices"] = [{**e, "type": "choose", "choice": c} for c in t.destination_choices(game, corp)]
        elif kinds == ("run_routes",):
            base["company_abilities"] = []
            routes = connection_run(game, corp, time_limit_ms=CONNECTION_TIME_LIMIT_MS)
            if routes is not None:
                base["choices"] = [{**e, "type": "run_routes", "routes": routes}]
        elif kinds == ("dividend",):
            _only(base, kinds)
            base["dividends"] = ["payout", "withhold"]
        else:
            base["company_abilities"] = []
        return
    if rnd.in_protection():
        _protection(game, base, set())
        return
    corp = rnd.corp()
    if base["entity"] != corp.id:
        return
    out = base.setdefault("choices", [])
    if base.get("tiles"):
        base["tiles"] = _tile_options(game, corp, base["tiles"])
    players = {p.id for p in game.state.players}
    if base.get("companies"):  # only a private held by a player can be bought
        base["companies"] = [c for c in base["companies"] if game.state.companies[c[0]].owner in players]
    if "buy_train" in kinds:
        base["trains"] = _train_options(game, corp, base.get("trains") or [])
    price = t.d_trade_price(game, corp) if "buy_train" in kinds else None
    if price is not None:
        d = next(tr for tr in t.depot_trains(game) if tr.name == "D")
        for old in t.trade_ins(game, corp):
            out.append({"entity": corp.id, "entity_type": "corporation", "type": "buy_train",
                        "train": d.id, "variant": "D", "price": price, "exchange": old.id})
    pid = shares.president(corp)
    if "sell_shares" in kinds and pid is not None and t.must_buy_train(game, rnd, corp):
        st = game.state
        for target, pct in t.emergency_sale_options(game, corp, pid, rnd.turn.ebuy_sold):
            certs = shares.pick_for_sale(st.corporations[target], pid, pct)
            out.append({"entity": pid, "entity_type": "player", "type": "sell_shares",
                        "shares": [c.id for c in certs], "percent": pct})
    for company in game.state.companies.values():
        if company.owner != corp.id or not t.assign_left(game, company):
            continue
        for hex_name in assign_targets(game, company):
            out.append({"entity": company.id, "entity_type": "company", "type": "assign",
                        "target": hex_name, "target_type": "hex"})
    if out and "assign" not in base["kinds"]:
        base["kinds"] = (*base["kinds"], "assign")


def _train_options(game: Game, corp: Any, trains: list[tuple[str, str, int, int, str]]
                   ) -> list[tuple[str, str, int, int, str]]:
    """Add the open market's trains (any company may buy them at face value). In a forced
    purchase the president must fund, only the cheapest bank or market train, and another
    company's train for $1 up to the treasury (none with an empty treasury); in one the
    treasury can pay, no dearer bank or market train beyond the treasury, and another
    company's train only within the treasury (a price beyond it is the president's money,
    which goes only to the cheapest train)."""
    t: Any = game.title
    rnd: Any = game.round
    out = list(trains)
    if t.room(game, corp):
        out += [(tr.id, tr.name, tr.price, tr.price, "market") for tr in t.market_trains(game)]
    cheapest = t.cheapest_available(game)
    if not t.must_buy_train(game, rnd, corp) or cheapest is None:
        return out
    kinds = t.forced_kinds(game)[2]  # (the cheapest train; of two kinds at its price, the first)
    if cheapest > corp.cash:  # the president must fund it: only the cheapest train, or (as on
        # the site) another company's train for $1 up to the treasury, the president adding nothing
        return ([o for o in out if o[4] in ("bank", "market") and o[1] in kinds]
                + [(tid, face, 1, corp.cash, seller) for tid, face, _lo, _hi, seller in out
                   if seller not in ("bank", "market") and corp.cash >= 1])
    kept = []
    for tid, face, lo, hi, seller in out:
        if seller in ("bank", "market"):
            if lo > corp.cash and face not in kinds:
                continue
        else:
            hi = min(hi, corp.cash)
            if lo > hi:
                continue
        kept.append((tid, face, lo, hi, seller))
    return kept


def _tile_options(game: Game, corp: Any, opts: dict[str, list[tuple[str, list[int]]]]
                  ) -> dict[str, list[tuple[str, list[int]]]]:
    """Drop the lays 1870 refuses: a hex already laid this turn, an upgrade as the second lay,
    terrain the company cannot pay for, and river crossings while a player holds the bridge
    company."""
    t: Any = game.title
    rnd: Any = game.round
    st = game.state
    lay = t.next_lay(game, rnd, corp)
    upgrades = bool(lay and lay.get("upgrade"))
    out: dict[str, list[tuple[str, list[int]]]] = {}
    for hex_name, tiles in opts.items():
        if hex_name in rnd.turn.laid_hexes or t.terrain_cost(game, corp, hex_name) > corp.cash:
            continue
        if not upgrades and (hex_name in st.tiles or t.data.hexes[hex_name].kind == "preprinted"):
            continue  # the second lay is a yellow tile on an empty hex
        kept = []
        for copy_id, rots in tiles:
            tile = t.data.tiles[copy_id.rsplit("-", 1)[0]]
            ok = [r for r in rots if t.river_error(game, hex_name, tile, r) is None]
            if ok:
                kept.append((copy_id, ok))
        if kept:
            out[hex_name] = kept
    return out


def assign_targets(game: Game, company: Any) -> list[str]:
    t: Any = game.title
    spec = next(c for c in t.data.companies if c["id"] == company.id)
    placed = state1870(game).assignments.get(company.id)
    if placed is not None:  # the open port may become the closed port on its own city
        return [placed.hex] if not placed.closed else []
    return list(spec["ability"]["hexes"])


def legal_extras(game: Game, base: dict[str, Any]) -> None:
    kind = game.round.kind
    if kind == "stock":
        _stock(game, base)
    elif kind == "operating":
        _operating(game, base)
