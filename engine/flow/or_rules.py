"""Default operating-round rules (the common 18xx procedure), mixed into Title.

Each method is a hook a title may override to add one rule; the step machine itself lives
in engine/flow/operating.py.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares, tiles
from engine.errors import EngineError
from engine.routes.types import Board, RouteRules, TrainSpec
from engine.state import MARKET, Corporation, Train

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.game import Game

STEP_OF_KIND = {
    "lay_tile": "track",
    "place_token": "token",
    "run_routes": "route",
    "dividend": "dividend",
    "buy_train": "buy_train",
    "discard_train": "buy_train",
    "buy_company": "buy_company",
}


class OperatingRules:
    or_steps: tuple[str, ...] = ("track", "token", "route", "dividend", "buy_train", "buy_company")
    pass_through_offboards: frozenset[str] = frozenset()
    data: Any
    market: Any
    train_limit: int
    dividend_kinds: tuple[str, ...]

    # ------------------------------------------------------------ round
    def or_name(self, game: Game, rnd: OperatingRound) -> str:
        return f"Operating Round {rnd.number}"

    def on_operating_round_start(self, game: Game, rnd: OperatingRound) -> None:
        self.pay_companies(game)

    def pay_companies(self, game: Game) -> None:
        st = game.state
        for c in st.companies.values():
            if c.closed or c.owner is None or not c.revenue:
                continue
            if c.owner in st.corporations:
                st.corporations[c.owner].cash += c.revenue
            else:
                st.player(c.owner).cash += c.revenue
            self.bank_pays(game, c.revenue)

    def bank_pays(self, game: Game, amount: int) -> None:
        """Money out of the bank (a title may note the bank breaking here)."""
        game.state.bank.cash -= amount

    def operating_order(self, game: Game) -> list[str]:
        st = game.state
        corps = [c for c in st.corporations.values() if c.floated and not c.closed and c.cell]
        corps.sort(key=lambda c: mk.order_key(st, self.market, c))
        return [c.id for c in corps]

    def operates(self, game: Game, corp: Corporation) -> bool:
        return corp.floated and not corp.closed

    def start_turn(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        self.place_home_token(game, corp)

    def end_turn(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        corp.operated_turns += 1

    def end_of_operating_round(self, game: Game, rnd: OperatingRound) -> None:
        for t in game.state.trains:
            t.operated = False

    # ------------------------------------------------------------ board / graph
    def board(self, game: Game) -> Board:
        st = game.state
        return Board(
            self.data,
            {h: (p.tile, p.rotation) for h, p in st.tiles.items()},
            {k: tuple(v) for k, v in st.city_tokens.items()},
        )

    def reach(self, game: Game, corp: Corporation) -> Any:
        from engine.routes.graph import reachable

        return reachable(self.board(game), corp.id, self.pass_through_offboards)

    # ------------------------------------------------------------ tokens
    def city_slots(self, game: Game, hex_name: str, city: int) -> int:
        geo, _, _ = tiles.current_geometry(self.data, game.state, hex_name)
        return geo.cities[city].slots if city < len(geo.cities) else 0

    def tokens_in(self, game: Game, hex_name: str, city: int) -> list[str | None]:
        slots = self.city_slots(game, hex_name, city)
        cur = game.state.city_tokens.get((hex_name, city), [])
        return list(cur) + [None] * (slots - len(cur))

    def reserved_for_others(self, game: Game, corp: Corporation, hex_name: str, city: int) -> int:
        """Home slots in this city held open for corporations that have not placed them."""
        n = 0
        for other in game.state.corporations.values():
            if other.id == corp.id or other.closed or other.home != (hex_name, city):
                continue
            if not any(t.hex == hex_name for t in other.tokens):
                n += 1
        return n

    def place_home_token(self, game: Game, corp: Corporation) -> None:
        if corp.home is None or any(t.hex is not None for t in corp.tokens):
            return
        hex_name, city = corp.home
        slots = self.tokens_in(game, hex_name, city)
        if corp.id in slots or None not in slots:
            return
        token = corp.tokens[0]
        self._put_token(game, corp, token, hex_name, city, slots.index(None))

    def _put_token(self, game: Game, corp: Corporation, token: Any, hex_name: str, city: int, slot: int) -> None:
        slots = self.tokens_in(game, hex_name, city)
        slots[slot] = corp.id
        game.state.city_tokens[(hex_name, city)] = slots
        token.hex, token.city, token.slot = hex_name, city, slot

    def unplaced_tokens(self, corp: Corporation) -> list[Any]:
        return [t for t in corp.tokens if t.hex is None]

    def token_city_error(self, game: Game, corp: Corporation, hex_name: str, city: int, slot: int | None,
                         reach: Any | None) -> str | None:
        slots = self.tokens_in(game, hex_name, city)
        if not slots:
            return f"There is no city to hold a token on {hex_name}."
        if any(corp.id in self.tokens_in(game, hex_name, c) for c in range(self._city_count(game, hex_name))):
            return f"{corp.id} already has a token on {hex_name}."
        free = [i for i, s in enumerate(slots) if s is None]
        if len(free) - self.reserved_for_others(game, corp, hex_name, city) <= 0:
            return f"The city on {hex_name} has no free station (open slots are kept for home tokens)."
        if reach is not None and (hex_name, "city", city) not in reach.cities:
            return f"{corp.id} has no route to the city on {hex_name}."
        return None

    def _city_count(self, game: Game, hex_name: str) -> int:
        geo, _, _ = tiles.current_geometry(self.data, game.state, hex_name)
        return len(geo.cities)

    def token_targets(self, game: Game, corp: Corporation) -> list[tuple[str, int]]:
        reach = self.reach(game, corp)
        out = []
        for h, _kind, idx in sorted(reach.cities):
            if self.token_city_error(game, corp, h, idx, None, reach) is None:
                out.append((h, idx))
        return out

    def next_token_cost(self, game: Game, corp: Corporation) -> int | None:
        left = self.unplaced_tokens(corp)
        return min(t.cost for t in left) if left else None

    def can_place_token(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        if rnd.turn.tokened:
            return False
        cost = self.next_token_cost(game, corp)
        if cost is None or cost > corp.cash:
            return False
        return bool(self.token_targets(game, corp))

    def parse_city(self, game: Game, city_id: str) -> tuple[str, int]:
        """City id "<tile copy id>-<part index>" or "<hex>-<k>-<part>" -> (hex, city index)."""
        st = game.state
        head, _, part = city_id.rpartition("-")
        for h, placed in st.tiles.items():
            if placed.copy_id == head:
                return h, self._city_index(self.data.tiles[placed.tile].geometry, int(part))
        for h, hx in self.data.hexes.items():
            if hx.preprinted_tile_id == head and h not in st.tiles:
                return h, self._city_index(hx.geometry, int(part))
        raise EngineError(f"There is no city {city_id} on the map now.", rule="token.city")

    @staticmethod
    def _city_index(geo: Any, part: int) -> int:
        for c in geo.cities:
            if c.part_index == part:
                return int(c.index)
        raise EngineError("That part of the tile is not a city.", rule="token.city")

    def city_id(self, game: Game, hex_name: str, city: int) -> str:
        placed = game.state.tiles.get(hex_name)
        if placed is not None:
            geo = self.data.tiles[placed.tile].geometry
            return f"{placed.copy_id}-{geo.cities[city].part_index}"
        hx = self.data.hexes[hex_name]
        return f"{hx.preprinted_tile_id}-{hx.geometry.cities[city].part_index}"

    def place_token(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any,
                    price_factor: float = 1.0, check_step: bool = True) -> None:
        hex_name, city = self.parse_city(game, action.city)
        left = self.unplaced_tokens(corp)
        if not left:
            raise EngineError(f"{corp.id} has no station tokens left.", rule="token.none")
        if rnd.turn.tokened and check_step:
            raise EngineError(f"{corp.id} has already placed a token this turn.", rule="token.one_per_turn")
        token = min(left, key=lambda t: t.cost)
        cost = int(math.ceil(token.cost * price_factor)) if price_factor != 1.0 else token.cost
        if cost > corp.cash:
            raise EngineError(f"{corp.id} cannot afford the ${cost} token (treasury ${corp.cash}).",
                              rule="token.cash")
        err = self.token_city_error(game, corp, hex_name, city, action.slot, self.reach(game, corp))
        if err:
            raise EngineError(err, rule="token.city")
        slots = self.tokens_in(game, hex_name, city)
        slot = slots.index(None)  # tokens fill the first free station
        corp.cash -= cost
        game.state.bank.cash += cost
        self._put_token(game, corp, token, hex_name, city, slot)
        rnd.turn.tokened = True
        game.last_hexes = (hex_name,)
        self.after_place_token(game, rnd, corp, hex_name, city)

    def after_place_token(self, game: Game, rnd: OperatingRound, corp: Corporation, hex_name: str, city: int) -> None:
        pass

    # ------------------------------------------------------------ track
    def tile_lays(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[dict[str, Any]]:
        return [{"lay": True, "upgrade": True}]

    def next_lay(self, game: Game, rnd: OperatingRound, corp: Corporation) -> dict[str, Any] | None:
        lays = self.tile_lays(game, rnd, corp)
        if rnd.turn.laid >= len(lays):
            return None
        lay = dict(lays[rnd.turn.laid])
        for k in ("lay", "upgrade"):
            if lay.get(k) == "not_if_upgraded":
                lay[k] = not rnd.turn.upgraded
        if not (lay.get("lay") or lay.get("upgrade")):
            return None
        return lay

    def track_abilities_block(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """A private's unused tile lay keeps the track step open (its lays count as track)."""
        return False

    def terrain_cost(self, game: Game, corp: Corporation, hex_name: str) -> int:
        if hex_name in game.state.tiles:
            return 0
        return int(self.data.hexes[hex_name].terrain_cost)

    def lay_tile(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any, *,
                 free: bool = False, count_lay: bool = True, colors: tuple[str, ...] | None = None,
                 check_connection: bool = True) -> None:
        st = game.state
        hex_name = action.hex
        found = tiles.take_tile(st, self.data, action.tile)
        if found is None:
            raise EngineError(f"There is no tile {action.tile}.", rule="track.tile")
        tile, copy_id = found
        if not copy_id:
            raise EngineError(f"All tiles #{tile.name} are in use.", rule="track.supply")
        is_upgrade = hex_name in st.tiles or self.data.hexes[hex_name].kind == "preprinted"
        if count_lay:
            lay = self.next_lay(game, rnd, corp)
            if lay is None:
                raise EngineError(f"{corp.id} has no tile lays left this turn.", rule="track.lays")
            if is_upgrade and not lay.get("upgrade"):
                raise EngineError(f"{corp.id}'s extra tile this turn must be a yellow tile, not an upgrade.",
                                  rule="track.extra_yellow")
            if not is_upgrade and not lay.get("lay"):
                raise EngineError(f"{corp.id} may only upgrade now.", rule="track.lays")
        err = tiles.lay_error(self.data, st, hex_name, tile, action.rotation,
                              colors or self.tile_colors(game))  # type: ignore[attr-defined]
        if err:
            raise EngineError(err, rule="track.tile")
        if check_connection:
            err = self.connection_error(game, corp, hex_name, tile, action.rotation)
            if err:
                raise EngineError(err, rule="track.connection")
        cost = 0 if free else self.terrain_cost(game, corp, hex_name)
        if cost > corp.cash:
            raise EngineError(f"{corp.id} cannot pay the ${cost} terrain cost of {hex_name}.",
                              rule="track.cost")
        corp.cash -= cost
        st.bank.cash += cost
        tiles.place_tile(st, self.data, hex_name, tile, copy_id, action.rotation)
        self.move_tokens_on_upgrade(game, hex_name)
        if count_lay:
            rnd.turn.laid += 1
            if is_upgrade:
                rnd.turn.upgraded = True
        rnd.turn.laid_hexes.append(hex_name)
        game.last_hexes = (*game.last_hexes, hex_name)
        self.after_lay_tile(game, rnd, corp, hex_name)

    def move_tokens_on_upgrade(self, game: Game, hex_name: str) -> None:
        st = game.state
        for (h, c), slots in list(st.city_tokens.items()):
            if h != hex_name:
                continue
            n = self.city_slots(game, h, c)
            placed = [s for s in slots if s is not None]
            new = list(slots[:n]) + [None] * max(0, n - len(slots))
            if [s for s in new if s is not None] != placed:
                new = placed + [None] * (n - len(placed))
            st.city_tokens[(h, c)] = new

    def connection_error(self, game: Game, corp: Corporation, hex_name: str, tile: Any, rotation: int) -> str | None:
        """Semi-restrictive laying: the tile must add track the corporation can reach."""
        reach = self.reach(game, corp)
        if self.home_lay_allowed(game, corp, hex_name):
            return None
        exits = tile.geometry.exits(rotation)
        if any((hex_name, e) in reach.edges for e in exits):
            return None
        if hex_name in reach.connected_hexes:
            return None
        return f"{corp.id} cannot reach {hex_name}: the tile must extend track from its network."

    def home_lay_allowed(self, game: Game, corp: Corporation, hex_name: str) -> bool:
        return corp.home is not None and corp.home[0] == hex_name and corp.operated_turns == 0

    def after_lay_tile(self, game: Game, rnd: OperatingRound, corp: Corporation, hex_name: str) -> None:
        pass

    # ------------------------------------------------------------ routes and dividends
    def route_rules(self, game: Game, corp: Corporation) -> RouteRules:
        return RouteRules(phase=game.state.phase, pass_through_offboards=self.pass_through_offboards)

    def active_trains(self, game: Game, corp: Corporation) -> list[Train]:
        return [t for t in game.state.trains if t.owner == corp.id and not t.gone]

    def train_spec(self, game: Game, train: Train) -> TrainSpec:
        from engine.routes.revenue import train_spec

        return train_spec(self.data, train.id, train.face)

    def run_routes(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        from engine.routes.revenue import score_routes

        trains = {t.id: t for t in self.active_trains(game, corp)}
        for r in action.routes:
            if r.train not in trains:
                raise EngineError(f"{corp.id} does not own train {r.train}.", rule="route.train")
        ids = [r.train for r in action.routes]
        if len(set(ids)) != len(ids):
            raise EngineError("Each train may run only one route.", rule="route.one_per_train")
        logged = [r.revenue for r in action.routes]
        if action.routes and all(v is not None for v in logged) and not game.strict_revenue:
            # a logged revenue is kept as it is (the site does the same); checking it against
            # the rules is deferred until someone asks for the warnings
            revenues = [int(v or 0) for v in logged]
            game.defer_audit(self._route_audit(
                self.board(game), corp.id, {i: self.train_spec(game, trains[i]) for i in ids},
                action, self.route_rules(game, corp), revenues))
        else:
            revenues = score_routes(self.board(game), corp.id,
                                    {i: self.train_spec(game, trains[i]) for i in ids},
                                    action.routes, self.route_rules(game, corp)) if action.routes else []
        total = sum(revenues) + (action.extra_revenue or 0)
        for i in ids:
            trains[i].operated = True
        rnd.turn.ran = True
        rnd.turn.revenue = total
        rnd.turn.routes = list(action.routes)
        self.after_run(game, rnd, corp)

    def after_run(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        pass

    @staticmethod
    def _route_audit(board: Board, corp_id: str, specs: dict[str, TrainSpec], action: Any,
                     rules: RouteRules, revenues: list[int]) -> Any:
        def audit() -> str | None:
            from engine.routes.revenue import score_routes

            try:
                computed = score_routes(board, corp_id, specs, action.routes, rules)
            except EngineError as err:
                return f"action {action.id}: logged route not accepted ({err}); kept the logged revenue"
            if computed != revenues:
                return (f"action {action.id}: {corp_id} logged revenue {sum(revenues)} differs from "
                        f"the rules' {sum(computed)}")
            return None

        return audit

    def dividend(self, game: Game, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        if kind not in self.dividend_kinds:
            raise EngineError(f"{kind} is not a dividend choice here ({', '.join(self.dividend_kinds)}).",
                              rule="dividend.kind")
        revenue = rnd.turn.revenue
        if kind == "payout":
            self.payout(game, corp, revenue)  # type: ignore[attr-defined]
            self.price_after_dividend(game, corp, revenue, "payout")
        else:
            self.withhold(game, corp, revenue)  # type: ignore[attr-defined]
            self.price_after_dividend(game, corp, revenue, "withhold")

    def price_after_dividend(self, game: Game, corp: Corporation, revenue: int, kind: str) -> None:
        if corp.cell is None:
            return
        if kind == "payout" and revenue > 0:
            mk.move(game.state, corp, self.market.right(corp.cell))
        else:
            mk.move(game.state, corp, self.market.left(corp.cell))

    # ------------------------------------------------------------ trains
    def depot_trains(self, game: Game) -> list[Train]:
        """Trains the bank offers now: the next in order plus any released by the phase."""
        st = game.state
        upcoming = [t for t in st.trains if t.owner is None and not t.gone and not t.discarded
                    and t.sellable]
        if not upcoming:
            return []
        out = [upcoming[0]]
        reached = self.phases_reached(game)
        for t in upcoming:
            spec = self.train_specs_by_name(t.name)
            avail = spec.get("available_from_phase")
            if avail and avail in reached and all(o.name != t.name for o in out):
                out.append(t)
        names: set[str] = set()
        uniq = []
        for t in out:
            if t.name not in names:
                names.add(t.name)
                uniq.append(t)
        return uniq

    def train_specs_by_name(self, name: str) -> dict[str, Any]:
        return self.train_specs[name]  # type: ignore[attr-defined]

    def phases_reached(self, game: Game) -> set[str]:
        names = self.phase_names  # type: ignore[attr-defined]
        return set(names[: names.index(game.state.phase) + 1])

    def variants(self, train: Train) -> dict[str, int]:
        spec = self.train_specs[train.name]  # type: ignore[attr-defined]
        out = {train.name: int(spec["price"])}
        for v in spec.get("variants", []) or []:
            out[v["name"]] = int(v["price"])
        return out

    def other_trains(self, game: Game, corp: Corporation) -> list[Train]:
        return [
            t for t in game.state.trains
            if t.owner and t.owner != corp.id and not t.gone and t.sellable
            and t.owner in game.state.corporations
            and self.train_sale_error(game, None, corp, t) is None
        ]

    def room(self, game: Game, corp: Corporation) -> bool:
        return len(self.active_trains(game, corp)) < self.train_limit_for(game, corp)

    def train_limit_for(self, game: Game, corp: Corporation) -> int:
        return int(self.phase_data(game).get("train_limit", self.train_limit))  # type: ignore[attr-defined]

    def min_train_price(self, game: Game, corp: Corporation) -> int | None:
        prices = [min(self.variants(t).values()) for t in self.depot_trains(game)]
        if self.other_trains(game, corp):
            prices.append(1)
        return min(prices) if prices else None

    def can_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        if not self.room(game, corp):
            return False
        low = self.min_train_price(game, corp)
        return low is not None and corp.cash >= low

    def has_route(self, game: Game, corp: Corporation) -> bool:
        reach = self.reach(game, corp)
        return len(reach.nodes) >= 2

    def must_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        return (not self.active_trains(game, corp) and bool(self.depot_trains(game))
                and self.has_route(game, corp))

    bankruptcy_allowed = False

    def may_declare_bankruptcy(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """Forced to buy a train that the treasury, the president's cash and everything he may
        still sell cannot pay for."""
        if not self.bankruptcy_allowed or not self.must_buy_train(game, rnd, corp):
            return False
        pres = shares.president(corp)
        if pres is None:
            return False
        have = corp.cash + game.state.player(pres).cash + self.bankruptcy_liquidity(game, rnd, corp, pres)
        return have < self.ebuy_needed(game)

    def ebuy_needed(self, game: Game) -> int:
        """What a forced purchase costs: the cheapest train in the bank (0: none)."""
        prices = [min(self.variants(t).values()) for t in self.depot_trains(game)]
        return min(prices) if prices else 0

    def bankruptcy_liquidity(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str) -> int:
        """What the president could still raise by the sales he is allowed (title hook)."""
        return 0

    def find_train(self, game: Game, corp: Corporation, train_id: str) -> Train:
        st = game.state
        train = next((t for t in st.trains if t.id == train_id), None)
        if train is None:
            raise EngineError(f"There is no train {train_id}.", rule="train.unknown")
        return train

    def buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any,
                  discount: int = 0) -> None:
        st = game.state
        train = self.find_train(game, corp, action.train)
        if train.gone:
            raise EngineError(f"Train {train.id} is no longer in play.", rule="train.gone")
        if train.owner == corp.id:
            raise EngineError(f"{corp.id} already owns train {train.id}.", rule="train.own")
        if not self.room(game, corp):
            raise EngineError(
                f"{corp.id} is at its train limit ({self.train_limit_for(game, corp)} trains).",
                rule="train.limit")
        price = int(action.price)
        variant = action.variant or (train.face if train.owner else train.name)
        if train.owner is None:
            depot = self.depot_trains(game)
            if train.name not in {t.name for t in depot}:
                nxt = depot[0].name if depot else "none"
                raise EngineError(
                    f"{corp.id} cannot buy a {train.name} train: the {nxt} trains are not sold out.",
                    rule="train.order")
            # the bank sells the first card of that kind
            train = next(t for t in depot if t.name == train.name)
            faces = self.variants(train)
            if variant not in faces:
                raise EngineError(f"A {train.name} card cannot be bought as a {variant}.", rule="train.variant")
            due = faces[variant] - discount
            if price != due:
                raise EngineError(f"A {variant} train from the bank costs ${due}, not ${price}.",
                                  rule="train.price")
            seller = None
        else:
            if price < 1:
                raise EngineError("A train bought from another corporation costs at least $1.",
                                  rule="train.price")
            err = self.train_sale_error(game, rnd, corp, train)
            if err:
                raise EngineError(err, rule="train.other")
            seller = st.corporations[train.owner]
            variant = train.face
        if price > corp.cash:
            self.cover_shortfall(game, rnd, corp, train, price, seller is None)
        corp.cash -= price
        if seller is None:
            st.bank.cash += price
        else:
            seller.cash += price
        train.owner = corp.id
        train.face = variant
        train.operated = train.operated if seller is not None else False
        rnd.turn.bought_trains += 1
        self.after_buy_train(game, rnd, corp, train, seller is None)

    def train_sale_error(self, game: Game, rnd: OperatingRound | None, corp: Corporation, train: Train) -> str | None:
        if not train.sellable:
            return f"Train {train.id} may not be sold."
        return None

    def cover_shortfall(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train,
                        price: int, from_depot: bool) -> None:
        """The treasury cannot pay: the president contributes in a forced purchase."""
        if not self.must_buy_train(game, rnd, corp):
            raise EngineError(f"{corp.id} cannot afford ${price} (treasury ${corp.cash}).", rule="train.cash")
        pres = game.state.player(shares.president(corp) or "")
        need = price - corp.cash
        if pres.cash < need:
            raise EngineError(
                f"{corp.id} needs ${need} more and its president has ${pres.cash}: sell shares first.",
                rule="train.emergency_cash")
        pres.cash -= need
        corp.cash += need

    def after_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train, from_depot: bool) -> None:
        pass

    # ------------------------------------------------------------ companies
    def purchasable_companies(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[Any]:
        pres = shares.president(corp)
        return [c for c in game.state.companies.values() if c.owner == pres and pres and not c.closed]

    def company_price_range(self, game: Game, company: Any) -> tuple[int, int]:
        return (max(1, company.value // 2), company.value * 3 // 2)

    def can_buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        comps = self.purchasable_companies(game, rnd, corp)
        return bool(comps) and min(self.company_price_range(game, c)[0] for c in comps) <= corp.cash

    def buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        st = game.state
        company = st.companies.get(action.company)
        if company is None:
            raise EngineError(f"There is no private company {action.company}.", rule="company.unknown")
        if company not in self.purchasable_companies(game, rnd, corp):
            raise EngineError(self.company_purchase_refusal(game, rnd, corp, company), rule="company.buy")
        lo, hi = self.company_price_range(game, company)
        if not lo <= action.price <= hi:
            raise EngineError(f"{company.id} must be bought for ${lo} to ${hi}.", rule="company.price")
        if action.price > corp.cash:
            raise EngineError(f"{corp.id} cannot afford ${action.price}.", rule="company.cash")
        seller = company.owner
        corp.cash -= action.price
        if seller and seller not in st.corporations:
            st.player(seller).cash += action.price
        else:
            st.bank.cash += action.price
        company.owner = corp.id
        self.after_buy_company(game, rnd, corp, company)

    def company_purchase_refusal(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any) -> str:
        return f"{corp.id} cannot buy {company.id} now."

    def after_buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any) -> None:
        pass

    # ------------------------------------------------------------ the step machine's questions
    def step_kinds(self, game: Game, rnd: OperatingRound, step: str) -> list[str]:
        corp = rnd.corp()
        if step == "track":
            if self.next_lay(game, rnd, corp):
                return ["lay_tile", "pass"]
            return ["pass"] if self.track_abilities_block(game, rnd, corp) else []
        if step == "token":
            return ["place_token", "pass"] if self.can_place_token(game, rnd, corp) else []
        if step == "route":
            return ["run_routes"] if self.active_trains(game, corp) and not rnd.turn.ran else []
        if step == "dividend":
            return ["dividend"] if rnd.turn.ran and rnd.turn.revenue > 0 else []
        if step == "buy_train":
            if self.must_buy_train(game, rnd, corp):
                return ["buy_train", "sell_shares"]
            return ["buy_train", "pass"] if self.can_buy_train(game, rnd, corp) else []
        if step == "buy_company":
            return self.blocking_company_kinds(game, rnd, corp)
        return []

    def blocking_company_kinds(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[str]:
        return []

    companies_bought_any_time = False  # a private may be bought at any point of the turn

    def anytime_kinds(self, game: Game, rnd: OperatingRound) -> list[str]:
        if self.companies_bought_any_time and self.can_buy_company(game, rnd, rnd.corp()):
            return ["buy_company"]
        return []

    def step_for_kind(self, kind: str) -> str | None:
        return STEP_OF_KIND.get(kind)

    def why_no_pass(self, game: Game, rnd: OperatingRound, step: str) -> str:
        if step == "buy_train":
            return "it has no train and must buy one."
        if step == "route":
            return "it must run its trains (an empty run is allowed)."
        if step == "dividend":
            return "it must choose to pay out or withhold."
        return "this step may not be skipped."

    def why_blocking(self, game: Game, rnd: OperatingRound, step: str) -> str:
        return {"track": "lay a tile or pass", "token": "place a token or pass",
                "route": "run its trains", "dividend": "pay out or withhold",
                "buy_train": "buy trains or pass", "buy_company": "buy a private or pass"}.get(step, "")

    def skip_step(self, game: Game, rnd: OperatingRound, step: str) -> None:
        if step == "dividend":
            corp = rnd.corp()
            self.withhold(game, corp, 0)  # type: ignore[attr-defined]
            self.price_after_dividend(game, corp, 0, "withhold")

    def on_pass(self, game: Game, rnd: OperatingRound, step: str) -> None:
        pass

    def process_step(self, game: Game, rnd: OperatingRound, corp: Corporation, step: str, action: Any) -> None:
        if action.type not in self.step_kinds(game, rnd, step):
            raise EngineError(f"{corp.id} cannot {action.type.replace('_', ' ')} now.", rule="operating.kind")
        if step == "track":
            self.lay_tile(game, rnd, corp, action)
        elif step == "token":
            self.place_token(game, rnd, corp, action)
            rnd.turn.step += 1
        elif step == "route":
            self.run_routes(game, rnd, corp, action)
            rnd.turn.step += 1
        elif step == "dividend":
            self.dividend(game, rnd, corp, action.kind)
            rnd.turn.step += 1
        elif step == "buy_train":
            self.buy_train(game, rnd, corp, action)
            if not self.can_buy_train(game, rnd, corp):
                rnd.turn.step += 1
        elif step == "buy_company":
            self.buy_company(game, rnd, corp, action)

    def process_anytime(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        if action.type == "buy_company":
            self.buy_company(game, rnd, corp, action)
            return
        raise EngineError(f"{corp.id} cannot {action.type.replace('_', ' ')} now.", rule="operating.kind")

    def process_company_action(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any, action: Any) -> None:
        raise EngineError(f"{company.id} has no ability to use now.", rule="company.ability")

    def process_player_action(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str, action: Any) -> None:
        if action.type == "sell_shares" and rnd.step_name() == "buy_train":
            self.emergency_sell(game, rnd, corp, pid, action)
            return
        raise EngineError(f"It is {corp.id}'s operating turn; players act only to raise cash for a forced train purchase.",
                          rule="turn.player")

    def emergency_certs(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str,
                        action: Any) -> tuple[Corporation, list[Any], int]:
        """Who may sell for a forced purchase, and what: (company sold, certificates, percent).
        `shares: ["GMO"]` with a percent lets the engine pick the certificates."""
        if pid != shares.president(corp):
            raise EngineError(f"Only {corp.id}'s president may sell shares to buy its train.", rule="ebuy.who")
        if not self.must_buy_train(game, rnd, corp):
            raise EngineError(f"{corp.id} is not forced to buy a train; shares may be sold only in a stock round.",
                              rule="ebuy.not_forced")
        st = game.state
        names = list(action.shares)
        if len(names) == 1 and names[0] in st.corporations and action.percent:
            names = [c.id for c in shares.pick_for_sale(st.corporations[names[0]], pid, action.percent)]
        certs = []
        for sid in names:
            c = st.corporations.get(sid.rsplit("_", 1)[0])
            cert = next((x for x in c.certs if x.id == sid), None) if c else None
            if cert is None or cert.owner != pid:
                raise EngineError(f"You do not hold {sid}.", rule="ebuy.cert")
            certs.append(cert)
        if not certs:
            raise EngineError("Name the shares to sell.", rule="ebuy.cert")
        target = st.corporations[certs[0].corp]
        return target, certs, action.percent or sum(c.percent for c in certs)

    def emergency_sell(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str, action: Any) -> None:
        from engine.flow.stock import sell_certs

        st = game.state
        target, certs, pct = self.emergency_certs(game, rnd, corp, pid, action)
        if shares.percent(target, MARKET) + pct > self.pool_limit():  # type: ignore[attr-defined]
            raise EngineError(f"The open market may not hold more than {self.pool_limit()}% of {target.id}.",  # type: ignore[attr-defined]
                              rule="ebuy.pool")
        before = shares.president(target)
        held_after = shares.percent(target, pid) - pct
        others = max((shares.percent(target, p.id) for p in st.players if p.id != pid), default=0)
        if before == pid and others > held_after:
            raise EngineError(f"Selling that would change the presidency of {target.id}, which is not allowed "
                              "while raising cash for a train.", rule="ebuy.presidency")
        sell_certs(game, target, pid, certs, pct)
        rnd.turn.sold_shares = True
        self.after_emergency_sale(game, rnd, corp)

    def after_emergency_sale(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        pass
