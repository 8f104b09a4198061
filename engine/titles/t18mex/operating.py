"""18MEX operating rounds: minors, mail, tile lays and the Mexico City double hex, the Copper
Canyon tile, train buying limits, phases and their events. The NdM merger is in merger.py."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares, tiles
from engine.errors import EngineError
from engine.flow.operating import OperatingRound
from engine.state import Corporation, Train
from engine.title import Title
from engine.titles.t18mex.state import mex_state
from engine.titles.t18mex.variants import CDB, CDB_PRICE, SANTA_ROSALIA

if TYPE_CHECKING:
    from engine.game import Game

NDM = "NdM"
MINOR_TRAINS = {"A": "2-0", "B": "2-1", "C": "2-2"}
MINOR_TRADE_IN = {"A": ("NdM", "NdM_7"), "B": ("NdM", "NdM_8"), "C": ("UdY", "UdY_8")}
PUEBLA, DOUBLE_HEX = "P11", ("O10", "P11")
KCMO, COPPER_CANYON, COPPER_CANYON_TILE, KCMO_DISCOUNT = "KCMO", "F5", "470", 60
NOT_FOR_CORPORATIONS = ("A", "B", "C", "MNR")
MNR = "MNR"


class MexOperatingRules(Title):
    """Operating-round hooks, mixed into Title18MEX."""

    # ------------------------------------------------------------ order and turn start
    def operating_order(self, game: Game) -> list[str]:
        minors = [c.id for c in self.minors(game) if c.floated and not c.closed]  # type: ignore[attr-defined]
        return minors + super().operating_order(game)

    def start_turn(self, game: Game, rnd: Any, corp: Corporation) -> None:
        super().start_turn(game, rnd, corp)
        if corp.kind == "corporation":
            self.pay_mail(game, corp)

    def place_home_token(self, game: Game, corp: Corporation) -> None:
        """The home token is the charter's first token (as on the site): it goes down when the
        company starts operating unless that token is down already, even if other tokens are
        on the map (the NdM merged into before its first turn holds the merged tokens)."""
        if corp.home is None or not corp.tokens or corp.tokens[0].hex is not None:
            return
        hex_name, city = corp.home
        slots = self.tokens_in(game, hex_name, city)
        if corp.id in slots or None not in slots:
            return
        self._put_token(game, corp, corp.tokens[0], hex_name, city, slots.index(None))

    def pay_mail(self, game: Game, corp: Corporation) -> None:
        """A company with a train collects its home hex's current city (or town) value."""
        if not self.active_trains(game, corp) or corp.home is None:
            return
        geo, _, _ = tiles.current_geometry(self.data, game.state, corp.home[0])
        stops = list(geo.cities) + list(geo.towns)
        income = stops[0].value(game.state.phase) if stops else 0
        if income > 0:
            corp.cash += income
            game.state.bank.cash -= income

    # ------------------------------------------------------------ track
    def tile_lays(self, game: Game, rnd: Any, corp: Corporation) -> list[dict[str, Any]]:
        if corp.kind == "minor":
            return [{"lay": True, "upgrade": False}]
        lays: list[dict[str, Any]] = [{"lay": True, "upgrade": True}, {"lay": "not_if_upgraded", "upgrade": False}]
        if "triple_yellow_first_or" in self.options and corp.id in mex_state(game).recently_floated:
            lays.append({"lay": "not_if_upgraded", "upgrade": False})
        return lays

    def next_lay(self, game: Game, rnd: Any, corp: Corporation) -> dict[str, Any] | None:
        lay = super().next_lay(game, rnd, corp)
        # a minor whose home hex is unbuilt lays only if it could pay for building there
        if (lay and corp.kind == "minor" and corp.home and corp.home[0] not in game.state.tiles
                and self.terrain_cost(game, corp, corp.home[0]) > corp.cash):
            return None
        return lay

    def track_abilities_block(self, game: Game, rnd: Any, corp: Corporation) -> bool:
        """The track step stays open while the company owns the KCMO, or, from the first 3
        (`can_buy_companies`), while it could buy the KCMO; not once F5 is built (a real log:
        18MEX_game_end_stock_market, action 96, a token the site accepted from the KCMO's owner
        after F5 was built with another tile and both lays were used)."""
        kcmo = game.state.companies[KCMO]
        if kcmo.closed or COPPER_CANYON in game.state.tiles:  # the ability is lost once F5 is built
            return False
        if kcmo.owner == corp.id:
            return True
        return (self.can_buy_companies_phase(game)
                and kcmo in self.purchasable_companies(game, rnd, corp)
                and self.company_price_range(game, kcmo)[0] <= corp.cash)

    def can_buy_companies_phase(self, game: Game) -> bool:
        return "can_buy_companies" in self.phase_data(game).get("engine_status_flags", [])

    def terrain_cost(self, game: Game, corp: Corporation, hex_name: str) -> int:
        placed = game.state.tiles.get(hex_name)
        if placed is not None:
            return sum(int(t.get("cost", 0)) for t in self.data.tiles[placed.tile].terrain)
        return int(self.data.hexes[hex_name].terrain_cost)

    def lay_tile(self, game: Game, rnd: Any, corp: Corporation, action: Any, **kw: Any) -> None:
        if action.hex not in DOUBLE_HEX:
            super().lay_tile(game, rnd, corp, action, **kw)
            return
        # the double hex: the laying company pays Puebla's cost, whichever half it names,
        # and the partner half goes down at rotation 0 with no lay or connection check
        st = game.state
        cost = self.terrain_cost(game, corp, PUEBLA)
        if cost > corp.cash:
            raise EngineError(f"{corp.id} cannot pay the ${cost} cost of upgrading Mexico City and Puebla.",
                              rule="track.cost")
        super().lay_tile(game, rnd, corp, action, free=True, **kw)
        corp.cash -= cost
        st.bank.cash += cost
        laid = self.data.tiles[st.tiles[action.hex].tile]
        pair = laid.extra["double_hex"]["pair"]
        other = self.data.tiles[pair].extra["double_hex"]["hex"]
        found = tiles.take_tile(st, self.data, pair)
        if found is None or not found[1]:
            raise EngineError(f"The partner tile {pair} is not available.", rule="track.double_hex")
        tiles.place_tile(st, self.data, other, found[0], found[1], 0)
        self.move_tokens_on_upgrade(game, other)
        game.last_hexes = (*game.last_hexes, other)

    def cdb_token_error(self, game: Game, rnd: Any, corp: Corporation) -> str | None:
        """Why the Compagnie du Boleo's company may not place its Santa Rosalia token now."""
        st = game.state
        cdb = st.companies.get(CDB)
        if cdb is None or cdb.closed or cdb.owner != corp.id:
            return f"{corp.id} does not own the Compagnie du Boleo."
        if cdb.uses:
            return "The Compagnie du Boleo's token has already been placed."
        if rnd.step_name() == "done":
            return f"{corp.id}'s operating turn is over."
        slots = self.tokens_in(game, SANTA_ROSALIA, 0)
        if corp.id in slots:
            return f"{corp.id} already has a token in Santa Rosalia."
        if None not in slots:
            return "Santa Rosalia has no free token space."
        if not self.unplaced_tokens(corp):
            return f"{corp.id} has no token left on its charter for Santa Rosalia."
        return None

    def cdb_token_choices(self, game: Game, rnd: Any, corp: Corporation) -> list[dict[str, Any]]:
        if self.cdb_token_error(game, rnd, corp) is not None:
            return []
        city = self.city_id(game, SANTA_ROSALIA, 0)
        slot = self.tokens_in(game, SANTA_ROSALIA, 0).index(None)
        return [{"entity": CDB, "entity_type": "company", "type": "place_token", "city": city, "slot": slot}]

    def _cdb_token(self, game: Game, rnd: Any, corp: Corporation, company: Any, action: Any) -> None:
        """Baja variant: the owning company's next charter token, free, in Santa Rosalia (H3),
        at any time in its operating turn and besides its normal token; no connection needed
        (as on the site, the ability's token comes from the owner's charter)."""
        err = self.cdb_token_error(game, rnd, corp)
        if err:
            raise EngineError(err, rule="company.cdb")
        hex_name, city = self.parse_city(game, str(action.city))
        if hex_name != SANTA_ROSALIA:
            raise EngineError("The Compagnie du Boleo places its token only in Santa Rosalia (H3).",
                              rule="company.cdb")
        slots = self.tokens_in(game, hex_name, city)
        slot = action.slot if action.slot is not None and 0 <= action.slot < len(slots) \
            and slots[action.slot] is None else slots.index(None)
        token = self.unplaced_tokens(corp)[0]
        self._put_token(game, corp, token, hex_name, city, slot)
        company.uses += 1
        game.last_hexes = (hex_name,)

    def process_company_action(self, game: Game, rnd: Any, corp: Corporation, company: Any, action: Any) -> None:
        if company.id == CDB and action.type == "place_token":
            self._cdb_token(game, rnd, corp, company, action)
            return
        if company.id != KCMO or action.type != "lay_tile":
            raise EngineError(f"{company.id} has no ability that does that.", rule="company.ability")
        st = game.state
        if rnd.step_name() != "track":
            raise EngineError("The Copper Canyon tile is laid during the track step.", rule="company.timing")
        if action.hex != COPPER_CANYON or action.tile.rsplit("-", 1)[0] != COPPER_CANYON_TILE:
            raise EngineError("The Kansas City, Mexico & Orient lays only the Copper Canyon tile (#470) in F5.",
                              rule="company.kcmo")
        if COPPER_CANYON in st.tiles:
            raise EngineError("F5 is already built: the Copper Canyon tile can no longer be laid.",
                              rule="company.kcmo")
        found = tiles.take_tile(st, self.data, action.tile)
        assert found is not None
        tile, copy_id = found
        if not tile.geometry.exits(action.rotation) <= self.data.hexes[COPPER_CANYON].passable_edges:
            raise EngineError(f"Tile 470 at rotation {action.rotation} would run track off the map.",
                              rule="track.tile")
        cost = self.terrain_cost(game, corp, COPPER_CANYON) - KCMO_DISCOUNT
        if cost > corp.cash:
            raise EngineError(f"{corp.id} cannot pay ${cost} for the Copper Canyon tile.", rule="track.cost")
        corp.cash -= cost
        st.bank.cash += cost
        tiles.place_tile(st, self.data, COPPER_CANYON, tile, copy_id, action.rotation)
        game.last_hexes = (COPPER_CANYON,)
        company.closed, company.owner = True, None

    # ------------------------------------------------------------ running
    def after_run(self, game: Game, rnd: Any, corp: Corporation) -> None:
        if corp.kind != "minor":
            return
        st = game.state
        revenue = rnd.turn.revenue
        half = revenue // 2
        owner = corp.owner
        corp.cash += half
        if isinstance(owner, str):
            st.player(owner).cash += revenue - half
        st.bank.cash -= revenue
        rnd.turn.revenue = 0

    def runnable_trains(self, game: Game, corp: Corporation) -> list[Train]:
        """As on the site, a train runs once an operating round: one that has operated (for any
        owner: a merged company's, one bought from a company or the open market after it ran)
        waits for the next round."""
        return [t for t in self.active_trains(game, corp) if not t.operated]

    def best_run(self, game: Game, corp: Corporation, *, time_limit_ms: int | None = None) -> Any:
        from engine.routes.solver import Solution, best_routes

        trains = {t.id: self.train_spec(game, t) for t in self.runnable_trains(game, corp)}
        if not trains:
            return Solution(routes=[], revenue=0, exact=True)
        return best_routes(self.board(game), corp.id, trains, self.route_rules(game, corp),
                           time_limit_ms=time_limit_ms)

    def run_routes(self, game: Game, rnd: Any, corp: Corporation, action: Any) -> None:
        ran = {t.id for t in self.active_trains(game, corp) if t.operated}
        for r in action.routes:
            if r.train in ran:
                raise EngineError(f"Train {r.train} has already run this operating round.",
                                  rule="route.operated")
        super().run_routes(game, rnd, corp, action)

    def mark_operated(self, game: Game, corp: Corporation) -> None:
        """As on the site, the dividend step (taken or skipped) marks all the company's trains
        as having operated this round."""
        for t in self.active_trains(game, corp):
            t.operated = True

    def step_kinds(self, game: Game, rnd: Any, step: str) -> list[str]:
        corp = rnd.corp()
        if corp.kind == "minor" and step in ("dividend", "buy_train", "buy_company", "token"):
            return []
        if step == "route" and not self.has_route(game, corp):
            return []  # as the site: no route available, no run (the dividend withholds $0)
        if step == "route" and not self.runnable_trains(game, corp):
            return []  # as the site: every train has run this round (e.g. a merged company's)
        return super().step_kinds(game, rnd, step)

    def affordable_company(self, game: Game, rnd: Any, corp: Corporation) -> bool:
        comps = self.purchasable_companies(game, rnd, corp)
        return bool(comps) and min(self.company_price_range(game, c)[0] for c in comps) <= corp.cash

    def blocking_company_kinds(self, game: Game, rnd: Any, corp: Corporation) -> list[str]:
        """The turn's last step waits, as the site's blocking BuyCompany step: for a purchase or
        a pass from the first 3 when a private is affordable; for a pass while the company holds
        an unused Compagnie du Boleo token ability (timed for its own turn). A private bought in
        phase 2 (early KCMO, Baja CdB) is bought any time and never holds the turn."""
        if self.can_buy_companies_phase(game) and self.affordable_company(game, rnd, corp):
            return ["buy_company", "pass"]
        if self.cdb_ability_pending(game, corp):
            return ["pass"]
        return []

    def cdb_ability_pending(self, game: Game, corp: Corporation) -> bool:
        """The site's ability_usable? for the CdB's `from_owner` token: owned by `corp`, unused,
        a charter token left and none in Santa Rosalia yet (free space not required)."""
        cdb = game.state.companies.get(CDB)
        if cdb is None or cdb.closed or cdb.owner != corp.id or cdb.uses:
            return False
        if any(t.hex == SANTA_ROSALIA for t in corp.tokens):
            return False
        return bool(self.unplaced_tokens(corp))

    def anytime_kinds(self, game: Game, rnd: Any) -> list[str]:
        corp = rnd.corp()
        return ["buy_company"] if self.affordable_company(game, rnd, corp) else []

    def skip_step(self, game: Game, rnd: Any, step: str) -> None:
        corp = rnd.corp()
        if step == "dividend" and corp.kind == "minor":
            return
        super().skip_step(game, rnd, step)
        if step == "dividend":
            self.mark_operated(game, corp)
            self.drop_obsolete(game, corp)

    def dividend(self, game: Game, rnd: Any, corp: Corporation, kind: str) -> None:
        super().dividend(game, rnd, corp, kind)
        self.mark_operated(game, corp)
        self.drop_obsolete(game, corp)

    def drop_obsolete(self, game: Game, corp: Corporation) -> None:
        """An obsolete 4 leaves its owner after the owner's next dividend step."""
        st = game.state
        for t in st.trains:
            if t.owner == corp.id and t.id in mex_state(game).obsolete:
                t.owner, t.gone = None, True

    # ------------------------------------------------------------ trains
    def is_obsolete(self, game: Game, train: Train) -> bool:
        return train.id in mex_state(game).obsolete

    def train_limit_for(self, game: Game, corp: Corporation) -> int:
        limit = int(self.phase_data(game).get("train_limit", 2))
        return limit + 1 if corp.id == NDM else limit

    def counted_trains(self, game: Game, corp: Corporation) -> list[Train]:
        return [t for t in self.active_trains(game, corp) if not self.is_obsolete(game, t)]

    def room(self, game: Game, corp: Corporation) -> bool:
        return len(self.counted_trains(game, corp)) < self.train_limit_for(game, corp)

    def depot_trains(self, game: Game) -> list[Train]:
        """The bank's trains on offer, then the open market's: as on the site, one of each kind
        there, the one discarded first (beside the bank's own trains of that kind, if any)."""
        return list(super().depot_trains(game)) + self.market_trains(game)

    def limited_train_buy(self, game: Game) -> bool:
        return "limited_train_buy" in self.phase_data(game).get("engine_status_flags", [])

    def depot_closed_this_turn(self, game: Game, rnd: Any) -> bool:
        return self.limited_train_buy(game) and bool(rnd.turn.depot_bought)

    def can_buy_train(self, game: Game, rnd: Any, corp: Corporation) -> bool:
        """As the site's train step: open while the company has room and its treasury reaches
        the cheapest train on offer - a bank train (even when the one-a-turn limit has closed
        the bank to it this turn) or $1 for another company's train - until it passes, or a
        bank purchase under the limit ended it (see buy_train)."""
        if corp.kind == "minor" or not self.room(game, corp) or rnd.turn.train_step_over:
            return False
        prices = [min(self.variants(t).values()) for t in self.depot_trains(game)]
        if self.other_trains(game, corp):
            prices.append(1)
        return bool(prices) and corp.cash >= min(prices)

    def other_train_buyable(self, game: Game, rnd: Any, corp: Corporation) -> bool:
        """Whether some other company's train may be bought now at a price in its range."""
        for train in self.other_trains(game, corp):
            lo, hi = self.other_train_range(game, rnd, corp, train)
            if lo <= hi:
                return True
        return False

    def must_buy_train(self, game: Game, rnd: Any, corp: Corporation) -> bool:
        if corp.kind == "minor":
            return False
        return super().must_buy_train(game, rnd, corp)

    def train_sale_error(self, game: Game, rnd: Any, corp: Corporation, train: Train) -> str | None:
        if not train.sellable:
            return f"Train {train.id} belongs to a minor and is never sold."
        if self.is_obsolete(game, train):
            return f"Train {train.id} is obsolete and cannot be sold."
        return None

    def buy_train(self, game: Game, rnd: Any, corp: Corporation, action: Any, discount: int = 0) -> None:
        st = game.state
        train = self.find_train(game, corp, action.train)
        from_depot = train.owner is None
        if from_depot and self.depot_closed_this_turn(game, rnd):
            raise EngineError(f"{corp.id} has already bought a train from the bank this turn; until the "
                              "first 4 only one bank train may be bought per turn.", rule="train.one_from_bank")
        if not from_depot:
            err = self.other_train_refusal(game, rnd, corp, train)
            if err:
                raise EngineError(err, rule="train.other")
            lo, hi = self.other_train_range(game, rnd, corp, train)
            if NDM in (corp.id, train.owner) and action.price != train.price:
                raise EngineError(f"Trains change hands with the NdM at face value (${train.price}).",
                                  rule="train.ndm_face")
            if not lo <= action.price <= hi:
                raise EngineError(f"{corp.id} may pay at most its treasury (${corp.cash}) for {train.owner}'s "
                                  f"{train.name}: the president never adds money for another company's "
                                  "train.", rule="train.cash")
        elif self.must_buy_train(game, rnd, corp) and action.price > corp.cash:
            cheapest = min(min(self.variants(t).values()) for t in self.depot_trains(game))
            if action.price > cheapest:
                raise EngineError(f"A forced purchase takes the cheapest train in the bank (${cheapest}).",
                                  rule="train.forced_cheapest")
        if train.discarded and train not in self.market_trains(game):
            raise EngineError(f"Only the first {train.name} train discarded to the open market is for "
                              "sale now.", rule="train.market_order")
        ran = train.operated
        super().buy_train(game, rnd, corp, action, discount)
        if train.owner == corp.id and train.discarded:
            # as on the site, a train from the open market keeps its mark of having run
            train.discarded, train.operated = False, ran
        if from_depot:
            rnd.turn.depot_bought = True
            # as on the site: a bank purchase under the one-a-turn limit ends the step unless
            # another company's train may still be bought
            if self.limited_train_buy(game) and not self.other_train_buyable(game, rnd, corp):
                rnd.turn.train_step_over = True
        del st

    def other_train_refusal(self, game: Game, rnd: Any, corp: Corporation, train: Train) -> str | None:
        """Why `corp` may not buy another company's train at all now, as on the site (no
        emergency purchase from other companies): never with an empty treasury, and not once
        its president has sold shares for a forced purchase the treasury cannot pay."""
        if corp.cash <= 0:
            return f"{corp.id} has no money: it may not buy a train from another company."
        if (rnd is not None and rnd.turn.ebuy_sold_price
                and corp.cash < self.ebuy_needed(game)):
            return (f"{corp.id}'s president has sold shares for a train from the bank: {corp.id} may no "
                    "longer buy one from another company.")
        return None

    def other_train_range(self, game: Game, rnd: Any, corp: Corporation, train: Train) -> tuple[int, int]:
        """What `corp` may pay for another company's train: $1 to its treasury, never more (the
        president does not help, even in a forced purchase; as on the site); at face value when
        the NdM is buyer or seller (an empty range when the treasury cannot pay it)."""
        if self.other_train_refusal(game, rnd, corp, train):
            return 1, 0
        if NDM in (corp.id, train.owner):
            return (train.price, train.price) if train.price <= corp.cash else (train.price, train.price - 1)
        return 1, corp.cash

    def other_train_bounds(self, game: Game, rnd: Any, corp: Corporation, train: Train,
                           price: int | None = None) -> tuple[int, int]:
        return self.other_train_range(game, rnd, corp, train)

    def after_buy_train(self, game: Game, rnd: Any, corp: Corporation, train: Train, from_depot: bool) -> None:
        st = game.state
        mnr = st.companies[MNR]
        if corp.id == NDM and not mnr.closed:
            mnr.closed, mnr.owner = True, None
        firsts: list[str] = mex_state(game).first_bought
        if not from_depot or train.name in firsts:
            return
        firsts.append(train.name)
        spec = self.train_specs[train.name]
        if spec.get("starts_phase"):
            st.phase = spec["starts_phase"]
        # as the site's rust_trains!, every train of the game: a company's and the open market's
        def affected(t: Train, name: str) -> bool:
            if t.name != name or t.gone:
                return False
            if t.owner is None:
                return t.discarded
            return t.owner in st.corporations and st.corporations[t.owner].kind != "minor"

        for other in self.data.trains:
            hard_rust = "hard_rust_t4" in self.options and other["name"] == "4"
            rusts_on = other.get("obsolete_on_first") if hard_rust else other.get("rusts_on_first")
            if rusts_on == train.name:
                for t in st.trains:
                    if affected(t, other["name"]):
                        t.owner, t.gone, t.discarded = None, True, False
            elif other.get("obsolete_on_first") == train.name:
                for t in st.trains:
                    if affected(t, other["name"]):
                        mex_state(game).obsolete.append(t.id)
        for event in spec.get("events_on_first_purchase", []) or []:
            if event == "minors_closed" and "delay_minor_close" in self.options:
                mex_state(game).minor_close_pending = True  # at the start of the next stock round
            elif event == "minors_closed":
                self.close_minors(game)
            elif event == "close_companies":
                for c in st.companies.values():
                    c.closed, c.owner = True, None
            elif event == "ndm_merger":
                self.start_merger(game, shares.president(corp))  # type: ignore[attr-defined]

    def close_minors(self, game: Game) -> None:
        """Phase 3½: each minor's treasury goes to its major, its train and token leave, and its
        owner receives the trade-in certificate."""
        st = game.state
        players = [p.id for p in st.players]
        for minor_id, (major_id, cert_id) in MINOR_TRADE_IN.items():
            minor, major = st.corporations[minor_id], st.corporations[major_id]
            if minor.closed:
                continue
            owner = minor.owner
            cert = next(c for c in major.certs if c.id == cert_id)
            if isinstance(owner, str):
                shares.move(major, cert, owner)
                mex_state(game).reserved.remove(cert_id)
                shares.update_presidency(major, players, shares.president(major),
                                         self.presidency_swap_pick)
                # as the site's exchange purchase: 50% sold floats the company (10 x par) now;
                # it operates from the next operating round
                self.float_check(game, major)
            major.cash += minor.cash
            minor.cash = 0
            for key, slots in st.city_tokens.items():
                st.city_tokens[key] = [None if s == minor_id else s for s in slots]
            for tok in minor.tokens:
                tok.hex = None
            for t in st.trains:
                if t.owner == minor_id:
                    t.owner, t.gone = None, True
            minor.closed, minor.floated = True, False
            minor.owner = None
            company = st.companies[minor_id]
            company.closed, company.owner = True, None

    def emergency_sell(self, game: Game, rnd: Any, corp: Corporation, pid: str, action: Any) -> None:
        """A president raising cash for a forced purchase may sell anything the pool can take,
        except a sale that would cost him the presidency of the buying company."""
        from engine.flow.stock import sell_certs

        st = game.state
        target, certs, pct = self.emergency_certs(game, rnd, corp, pid, action)
        named = sum(c.percent for c in certs)
        partial = any(c.president for c in certs) and pct == named - 10  # a 10% share comes back
        if (pct != named and not partial) or any(c.corp != target.id for c in certs):
            raise EngineError(f"Name the certificates of one company that make up the {pct}% sold.",
                              rule="ebuy.cert")
        err = self.ebuy_sale_error(game, corp, pid, target, pct)
        if err:
            raise EngineError(err[1], rule=err[0])
        if any(c.president for c in certs) and not any(
                {c.id for c in b} == {c.id for c in certs} and p == pct
                for b, p in self.sale_options(game, target, pid, corp)):  # type: ignore[attr-defined]
            raise EngineError(f"The president's certificate of {target.id} goes to the open market only with "
                              "the presidency: another player must then hold more than you.",
                              rule="ebuy.president_cert")
        price = self.share_price(target)
        sell_certs(game, target, pid, certs, pct)
        rnd.turn.sold_shares = True
        rnd.turn.ebuy_sold_price = price
        # the companies yet to operate this round are re-sorted by their new prices
        waiting = [c for c in rnd.order[rnd.index + 1:] if st.corporations[c].cell is not None]
        waiting.sort(key=lambda cid: mk.order_key(st, self.market, st.corporations[cid]))
        rnd.order[rnd.index + 1:] = [c for c in rnd.order[rnd.index + 1:] if c not in waiting] + waiting

    def ebuy_sale_error(self, game: Game, corp: Corporation, pid: str, target: Corporation,
                        pct: int) -> tuple[str, str] | None:
        """(rule, message) if the president may not sell `pct`% of `target` for `corp`'s forced
        purchase: the pool's limit, the buying company's presidency, never more than needed."""
        st = game.state
        if shares.percent(target, "market") + pct > self.pool_limit():
            return ("ebuy.pool", f"The open market may not hold more than {self.pool_limit()}% of {target.id}.")
        others = max((shares.percent(target, p.id) for p in st.players if p.id != pid), default=0)
        if target is corp and others > shares.percent(target, pid) - pct:
            return ("ebuy.presidency",
                    f"Selling that would hand over the presidency of {corp.id}, which is buying the train.")
        if pct not in {p for _, p in self.sale_options(game, target, pid, corp)}:  # type: ignore[attr-defined]
            return ("ebuy.bundle", f"{pct}% of {target.id} is not a bundle you may sell (the president's "
                    "certificate only if another player can take it over; an NdM 5% certificate alone).")
        # never sell more than needed: no sale once the money is there, and no sale that
        # would leave a whole share's price or more over the cheapest train
        needed, have = self.ebuy_needed(game), corp.cash + st.player(pid).cash
        if have >= needed:
            return ("ebuy.enough", f"{corp.id} and its president already have the ${needed} for the cheapest "
                    "train: no more shares may be sold.")
        price = self.share_price(target)
        if have + self.sale_proceeds(target, price, pct) >= needed + price:
            return ("ebuy.too_much", f"Selling {pct}% of {target.id} raises more than needed "
                    f"(${needed - have} short): sell fewer shares.")
        return None

    def ebuy_sales(self, game: Game, rnd: Any, corp: Corporation) -> list[dict[str, Any]]:
        """The president's allowed sales for `corp`'s forced purchase, as complete actions: n
        ordinary certificates of a company, or a 5% NdM certificate alone."""
        pid = shares.president(corp)
        if pid is None or not self.must_buy_train(game, rnd, corp):
            return []
        out = []
        for target in game.state.corporations.values():
            if target.kind != "corporation" or target.cell is None or target.closed:
                continue
            for bundle, pct in self.sale_options(game, target, pid, corp):  # type: ignore[attr-defined]
                if self.ebuy_sale_error(game, corp, pid, target, pct) is None:
                    out.append({"entity": pid, "entity_type": "player", "type": "sell_shares",
                                "shares": [c.id for c in bundle], "percent": pct})
        return out

    def emergency_liquidity(self, game: Game, corp: Corporation, pid: str) -> int:
        """What the president could raise for a forced purchase, as on the site: for each
        company the largest bundle he may sell (see Title18MEX.sale_options), at the current
        price."""
        total = 0
        for target in game.state.corporations.values():
            if target.kind != "corporation" or target.cell is None or target.closed:
                continue
            pct = self.largest_sale(game, target, pid, corp)  # type: ignore[attr-defined]
            if pct:
                total += self.sale_proceeds(target, self.share_price(target), pct)
        return total

    def bankruptcy_liquidity(self, game: Game, rnd: Any, corp: Corporation, pid: str) -> int:
        return self.emergency_liquidity(game, corp, pid)

    # ------------------------------------------------------------ private companies
    def purchasable_companies(self, game: Game, rnd: Any, corp: Corporation) -> list[Any]:
        st = game.state
        players = {p.id for p in st.players}
        kcmo = st.companies[KCMO]
        if corp.kind == "minor":
            return []
        if "can_buy_companies" not in self.phase_data(game).get("engine_status_flags", []):
            early = [kcmo] if st.phase == "2" and "early_buy_of_kcmo" in self.options else []
            cdb = st.companies.get(CDB)  # Baja variant: the CdB may be bought from phase 2
            return [c for c in [*early, cdb] if c is not None and c.owner in players and not c.closed]
        return [c for c in st.companies.values()
                if c.owner in players and not c.closed and c.id not in NOT_FOR_CORPORATIONS]

    def company_price_range(self, game: Game, company: Any) -> tuple[int, int]:
        if company.id == CDB:  # the site keeps its $30 top when the first 3 resets the others
            return CDB_PRICE
        if company.id == KCMO and game.state.phase == "2" and "early_buy_of_kcmo" in self.options:
            return (1, company.value)
        return (math.ceil(company.value / 2), math.floor(company.value * 3 / 2))

    def company_purchase_refusal(self, game: Game, rnd: Any, corp: Corporation, company: Any) -> str:
        if company.id in NOT_FOR_CORPORATIONS:
            return f"{company.id} may never be sold to a company."
        if game.state.phase == "2":
            return "Companies may buy private companies only from the first 3 train."
        return f"{corp.id} cannot buy {company.id} now."


class MexOperatingRound(OperatingRound):
    """The common step machine, interrupted by the NdM merger decisions, the NdM's choice of
    token, discards over the train limit, bankruptcy and a manual end."""

    def interrupt(self) -> tuple[str, str, list[str]] | None:
        return self.title.pending_interrupt(self.game)

    def _settle(self) -> None:
        if self.interrupt() is None:  # the turn (and the round) waits for the interruption
            super()._settle()

    def current(self) -> tuple[str, str]:
        pending = self.interrupt()
        if pending is not None:
            return (pending[0], pending[1])
        return super().current()

    def kinds(self) -> list[str]:
        pending = self.interrupt()
        if pending is not None:
            return list(pending[2])
        return super().kinds()

    def process(self, action: Any) -> None:
        g, t = self.game, self.title
        if action.type == "end_game":
            t.end_game(g, "manually_ended")
            return
        if action.type == "bankrupt":
            pres = shares.president(self.corp())
            if str(action.entity) != self.corp().id or pres is None:
                raise EngineError("Only the operating company's president may declare bankruptcy.",
                                  rule="bankrupt.who")
            if not t.must_buy_train(g, self, self.corp()):
                raise EngineError(f"{self.corp().id} is not forced to buy a train, so its president "
                                  "cannot go bankrupt.", rule="bankrupt.not_forced")
            if not t.may_declare_bankruptcy(g, self, self.corp()):
                raise EngineError(f"{pres} can still raise the ${t.ebuy_needed(g)} for the cheapest train "
                                  "(cash and shares he may sell): no bankruptcy.", rule="bankrupt.can_pay")
            t.declare_bankruptcy(g, pres)
            return
        pending = self.interrupt()
        if pending is not None:
            t.process_interrupt(g, self, action, pending)
            t.check_end_trigger(g)
            self._settle()
            return
        super().process(action)
        t.check_end_trigger(g)
