"""What may the acting entity do now? The engine's answer, for the bot and for tests.

`legal_moves(game)` names the acting entity, the action kinds it may take, and the details
for each kind (tiles and rotations per hex, shares, par cells, trains and prices, ...).
`candidate_actions(game)` turns that answer into concrete actions (every one of which the
engine accepts), used by autocomplete and by the random-play property test.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import programs
from engine.actions import parse_action
from engine.core import shares, tiles
from engine.errors import EngineError
from engine.flow.draft import DraftRound
from engine.flow.operating import OperatingRound
from engine.flow.stock import StockRound

if TYPE_CHECKING:
    from engine.game import Game


@dataclass(frozen=True)
class Legal:
    entity: str
    entity_type: str
    player: str | None
    kinds: tuple[str, ...]
    round: str = ""
    bids: list[tuple[str, int]] = field(default_factory=list)
    pars: dict[str, list[str]] = field(default_factory=dict)
    buy_shares: list[tuple[str, int, str]] = field(default_factory=list)  # (share id, price, source)
    sell_shares: list[tuple[str, list[int]]] = field(default_factory=list)
    tiles: dict[str, list[tuple[str, list[int]]]] = field(default_factory=dict)  # hex -> [(copy id, rots)]
    token_cities: list[tuple[str, int]] = field(default_factory=list)  # (city id, cost)
    trains: list[tuple[str, str, int, int, str]] = field(default_factory=list)  # id, face, min, max, seller
    companies: list[tuple[str, int, int]] = field(default_factory=list)
    dividends: list[str] = field(default_factory=list)
    company_abilities: list[tuple[str, str]] = field(default_factory=list)  # (company, kind)
    # a title's own decisions, as complete actions the engine accepts (merger offers, token
    # choices, discards, private abilities, share swaps, ...): see Title.legal_extras
    choices: list[dict[str, Any]] = field(default_factory=list)
    # the standing orders (auto-pass, auto-buy, cancel) each player may give now, as complete
    # actions (engine/programs.py); any player may give theirs, not only the acting one
    programs: list[dict[str, Any]] = field(default_factory=list)


def legal_moves(game: Game) -> Legal:
    if game.finished:
        return Legal("", "", None, (), "Game over")
    rnd = game.round
    eid, etype = rnd.current()
    kinds = tuple(dict.fromkeys(rnd.kinds()))
    player = game.title.controller(game, eid, etype)
    base: dict[str, Any] = {"entity": eid, "entity_type": etype, "player": player,
                            "kinds": kinds, "round": rnd.name()}
    t = game.title
    if isinstance(rnd, DraftRound):
        base["bids"] = [(c.id, c.value) for c in rnd.available()
                        if c.value <= game.state.player(eid).cash]
    elif rnd.kind == "auction":
        auction: Any = rnd
        if auction.pending_par:
            corp = game.state.corporations[auction.pending_par[0][1]]
            base["pars"] = {corp.id: list(t.par_cells_for(game, eid, corp))}
        else:
            items = [auction.auctioning] if auction.auctioning else list(auction.items)
            base["bids"] = [(i, auction.min_bid(i)) for i in items
                            if auction.min_bid(i) <= auction.max_bid(eid, i)]
    elif isinstance(rnd, StockRound):
        if "par" in kinds:
            pars = {}
            for corp in game.state.corporations.values():
                cells = [c for c in rnd.par_cells(eid, corp)
                         if rnd.par_error(eid, corp.id, c) is None]
                if cells:
                    pars[corp.id] = cells
            base["pars"] = pars
        if "buy_shares" in kinds:
            base["buy_shares"] = [(c.id, price, c.owner) for c, price in rnd.buyable_certs(eid)]
        if "sell_shares" in kinds:
            base["sell_shares"] = rnd.sell_options(eid)
    elif isinstance(rnd, OperatingRound):
        corp = rnd.corp()
        if "lay_tile" in kinds:
            base["tiles"] = tile_options(game, corp, lay=t.next_lay(game, rnd, corp))
        if "place_token" in kinds:
            cost = t.next_token_cost(game, corp) or 0
            base["token_cities"] = [(t.city_id(game, h, c), cost) for h, c in t.token_targets(game, corp)]
        if "buy_train" in kinds:
            base["trains"] = train_options(game, corp)
            if t.may_declare_bankruptcy(game, rnd, corp) and "bankrupt" not in kinds:
                base["kinds"] = kinds = (*kinds, "bankrupt")
        if "buy_company" in kinds:
            base["companies"] = [(c.id, *t.company_price_range(game, c))
                                 for c in t.purchasable_companies(game, rnd, corp)]
        if "dividend" in kinds:
            base["dividends"] = list(t.dividend_kinds)
        base["company_abilities"] = [(c.id, "lay_tile") for c in game.state.companies.values()
                                     if c.owner == corp.id and not c.closed
                                     and hasattr(t, "_tile_ability_left") and t._tile_ability_left(game, c)]
    extras = getattr(t, "legal_extras", None)
    if extras is not None:  # a title may add its own decisions (and adjust the answer above)
        extras(game, base)
    if rnd.kind == "operating" and etype == "corporation":
        affordable(game, base)
    base["programs"] = [a for p in game.state.players for a in programs.offers(game, p.id)]
    return Legal(**base)


def affordable(game: Game, base: dict[str, Any]) -> None:
    """Keep only what the operating corporation can pay for, as the engine checks it when the
    move is made: tokens and privates within its treasury, and trains within the treasury or
    the money the shortfall rules add (the president's in a forced purchase, a title's loan),
    found by a dry run of `cover_shortfall` with every balance put back."""
    rnd: Any = game.round
    corp = game.state.corporations.get(str(base["entity"]))
    if corp is None or rnd.finished or corp is not rnd.corp():
        return
    t: Any = game.title
    cash = corp.cash
    if base.get("token_cities"):
        base["token_cities"] = [(city, cost) for city, cost in base["token_cities"] if cost <= cash]
    if base.get("companies"):
        base["companies"] = [(c, lo, min(hi, cash)) for c, lo, hi in base["companies"] if lo <= cash]
    if not base.get("trains"):
        return
    out = []
    for tid, face, lo, hi, seller in base["trains"]:
        train = t.find_train(game, corp, tid)
        if lo > cash and t.shortfall_error(game, rnd, corp, train, lo):
            continue  # beyond the treasury, and nobody may add the rest
        if hi > cash and t.shortfall_error(game, rnd, corp, train, hi):
            hi = max(lo, cash)
        out.append((tid, face, lo, hi, seller))
    base["trains"] = out


def tile_options(game: Game, corp: Any, *, lay: dict[str, Any] | None = None
                 ) -> dict[str, list[tuple[str, list[int]]]]:
    """Every legal (tile, rotations) per hex for the corporation's next lay. With `lay` (the
    corporation's next normal lay) only the kinds it allows (a yellow lay on an empty hex, an
    upgrade) on hexes whose terrain it can pay for; without it (a private's free lay) any."""
    t, st, data = game.title, game.state, game.title.data
    reach = t.reach(game, corp)
    candidates = set(reach.connected_hexes) | {h for h, _ in reach.edges}
    if corp.home and corp.operated_turns == 0:
        candidates.add(corp.home[0])
    colors = t.tile_colors(game)
    out: dict[str, list[tuple[str, list[int]]]] = {}
    for hex_name in sorted(candidates):
        h = data.hexes.get(hex_name)
        if h is None or not h.tileable:
            continue
        if lay is not None:
            if not lay.get("upgrade" if t.is_upgrade(game, hex_name) else "lay"):
                continue
            if t.terrain_cost(game, corp, hex_name) > corp.cash:
                continue
        for color, options in h.possible_tiles.items():
            if color not in colors:
                continue
            for name, rots in options.items():
                free = st.tile_supply.get(name, [])
                if not free:
                    continue
                tile = data.tiles[name]
                ok = [r for r in rots
                      if tiles.lay_error(data, st, hex_name, tile, r, colors) is None
                      and t.connection_error(game, corp, hex_name, tile, r) is None
                      and (lay is None or t.track_restriction_error(game, corp, hex_name, tile, r) is None)]
                if ok:
                    out.setdefault(hex_name, []).append((free[0], ok))
    return out


def train_options(game: Game, corp: Any) -> list[tuple[str, str, int, int, str]]:
    t = game.title
    out: list[tuple[str, str, int, int, str]] = []
    if not t.room(game, corp):
        return out
    for tr in t.depot_trains(game):
        for face, price in t.variants(tr).items():
            out.append((tr.id, face, price, price, "bank"))
    for tr in t.other_trains(game, corp):
        out.append((tr.id, tr.face, 1, max(1, corp.cash), str(tr.owner)))
    return out


def candidate_actions(game: Game, *, limit_tiles: int = 40,
                      legal: Legal | None = None) -> list[dict[str, Any]]:
    """Concrete actions built from the legal answer (`legal`, when the caller has it already),
    each one the engine accepts: tests/engine/test_legal_property.py checks it at positions
    of random games and of the fixtures. Tile lays are capped at `limit_tiles`."""
    lg = legal if legal is not None else legal_moves(game)
    if not lg.kinds:
        return []
    e = {"entity": lg.entity, "entity_type": lg.entity_type}
    acts: list[dict[str, Any]] = []
    for company, price in lg.bids:
        acts.append({**e, "type": "bid", "company": company, "price": price})
    for corp_id, cells in lg.pars.items():
        for cell in cells:
            acts.append({**e, "type": "par", "corporation": corp_id, "share_price": cell})
    for sid, _, _ in lg.buy_shares:
        acts.append({**e, "type": "buy_shares", "shares": [sid]})
    st = game.state
    for corp_id, pcts in lg.sell_shares:
        corp = st.corporations[corp_id]
        for pct in pcts:
            picked = [c.id for c in shares.pick_for_sale(corp, str(lg.entity), pct)]
            acts.append({**e, "type": "sell_shares", "shares": picked, "percent": pct})
    n = 0
    for hex_name, opts in lg.tiles.items():
        for copy_id, rots in opts:
            for r in rots:
                if n < limit_tiles:
                    acts.append({**e, "type": "lay_tile", "hex": hex_name, "tile": copy_id, "rotation": r})
                    n += 1
    listed = {c.get("entity") for c in lg.choices if c.get("type") == "lay_tile"}
    for company, kind in lg.company_abilities:
        rnd = game.round
        if kind != "lay_tile" or not isinstance(rnd, OperatingRound) or company in listed:
            continue  # (a title that lists a private's lays among its choices lists them all)
        corp = rnd.corp()
        n = 0
        for hex_name, opts in tile_options(game, corp).items():
            for copy_id, rots in opts:
                if n < limit_tiles // 2:
                    acts.append({"entity": company, "entity_type": "company", "type": "lay_tile",
                                 "hex": hex_name, "tile": copy_id, "rotation": rots[0]})
                    n += 1
    for city, _ in lg.token_cities:
        acts.append({**e, "type": "place_token", "city": city, "slot": 0})
    if "run_routes" in lg.kinds:
        from engine.routes.api import best_routes_for

        try:
            sol = best_routes_for(game, time_limit_ms=200)
            acts.append({**e, "type": "run_routes",
                         "routes": [r.model_dump(exclude_none=True) for r in sol.routes]})
        except EngineError:
            pass
    for kind in lg.dividends:
        acts.append({**e, "type": "dividend", "kind": kind})
    for tid, face, lo, hi, _seller in lg.trains:
        acts.append({**e, "type": "buy_train", "train": tid, "variant": face, "price": lo})
        if hi != lo:
            acts.append({**e, "type": "buy_train", "train": tid, "variant": face, "price": hi})
    for company, lo, hi in lg.companies:
        if game.round.kind == "stock":
            # a private bought from another player is a deal between the two: listed in the
            # legal answer, never proposed blindly (endless resales would stall random play)
            continue
        acts.append({**e, "type": "buy_company", "company": company, "price": lo})
        if hi != lo:
            acts.append({**e, "type": "buy_company", "company": company, "price": hi})
    acts.extend(dict(c) for c in lg.choices)
    if "pass" in lg.kinds:
        acts.append({**e, "type": "pass"})
    if "bankrupt" in lg.kinds:
        acts.append({**e, "type": "bankrupt"})
    acts.extend(_forced_sales(game, lg))
    return acts


def _forced_sales(game: Game, lg: Legal) -> list[dict[str, Any]]:
    """A forced train purchase under the shared sale rules (StepRules.emergency_sell): the
    president's single-certificate sales those rules allow, while the company and he are short
    of the cheapest train. A title that sells its own way lists every sale it allows among its
    choices, and none is guessed here."""
    from engine.flow.or_steps import StepRules

    st = game.state
    corp_now = st.corporations.get(lg.entity)
    if ("sell_shares" not in lg.kinds or lg.entity_type == "player" or not lg.player
            or corp_now is None
            or getattr(type(game.title), "emergency_sell", None) is not StepRules.emergency_sell
            or any(c.get("type") == "sell_shares" and c.get("entity_type") == "player" for c in lg.choices)):
        return []
    needed = getattr(game.title, "ebuy_needed", None)
    if needed is not None and corp_now.cash + st.player(lg.player).cash >= needed(game):
        return []  # never a sale once the company and its president have the cheapest train's price
    rnd: Any = game.round
    out = []
    for corp in st.corporations.values():
        for c in corp.certs:
            if c.owner == lg.player and not c.president:
                sale = {"entity": lg.player, "entity_type": "player", "type": "sell_shares",
                        "shares": [c.id], "percent": c.percent}
                if game.title.forced_sale_error(game, rnd, corp_now, lg.player, parse_action(sale)) is None:
                    out.append(sale)
    return out
