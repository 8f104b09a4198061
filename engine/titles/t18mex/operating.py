"""18MEX operating rounds: the order (minors first), mail, tile lays and the Mexico City double
hex, the Copper Canyon tile, the CdB token, running and dividends, private companies; the
operating round with its interruptions. Trains are in trains.py, the NdM merger in merger.py."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

from engine.core import shares, tiles
from engine.errors import EngineError
from engine.flow.operating import OperatingRound
from engine.state import Corporation, Train
from engine.titles.t18mex.ids import (
    COPPER_CANYON,
    COPPER_CANYON_TILE,
    DOUBLE_HEX,
    KCMO,
    KCMO_DISCOUNT,
    NOT_FOR_CORPORATIONS,
    PUEBLA,
)
from engine.titles.t18mex.state import mex_state
from engine.titles.t18mex.trains import MexTrainRules
from engine.titles.t18mex.variants import CDB, CDB_PRICE, SANTA_ROSALIA

if TYPE_CHECKING:
    from engine.game import Game
    from engine.titles.t18mex.title import Title18MEX



class MexOperatingRules(MexTrainRules):
    """Operating-round hooks: order, mail, track, tokens, running, private companies."""

    # ------------------------------------------------------------ order and turn start
    def operating_order(self, game: Game) -> list[str]:
        minors = [c.id for c in self.minors(game) if c.floated and not c.closed]
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
        named = tiles.copy_error(st, self.data, action.tile)
        if named:
            raise EngineError(named, rule="track.tile_copy")
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


# the operating steps before the site's discard step (its DiscardTrain follows the dividend)
DISCARD_WAITS = ("track", "token", "route", "dividend")


class MexOperatingRound(OperatingRound):
    """The common step machine, interrupted by the NdM merger decisions, the NdM's choice of
    token, discards over the train limit, bankruptcy and a manual end."""

    @property
    def title(self) -> Title18MEX:
        return cast("Title18MEX", self.game.title)

    def interrupt(self) -> tuple[str, str, list[str]] | None:
        pending = self.title.pending_interrupt(self.game)
        if pending is not None and pending[2] == ["discard_train"] and self._discard_waits():
            return None
        return pending

    def _discard_waits(self) -> bool:
        """As on the site, whose discard comes after the operating company's track, token, run
        and dividend: a discard over the train limit waits while the company whose turn it is
        has not reached its train step. A company merged into the NdM in its own turn ends that
        turn, and the next company's (often the NdM's own, with the merged trains: it runs
        them all, over its limit) begins before the discard (lockstep sweep, 18MEX seed 612)."""
        if self.finished or not 0 <= self.index < len(self.order):
            return False
        if self.corp().closed:
            return True
        return self.step_name() in DISCARD_WAITS

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
