"""18MS (Mark Derrick): the title's hooks over the common rules. Facts are in the JSON files
beside this module; the rule choices that follow the 18xx.games logs are in RULES.md. This
module owns the rounds and the game's end, tile lays and bonuses, private companies and the
legal answer; buying trains (the Mobile & Ohio, loans, debts) is in trains.py."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.flow.draft import DraftRound
from engine.flow.operating import OperatingRound
from engine.routes.types import Board, NodeRef, RouteRules
from engine.state import Corporation, State
from engine.titles.t18ms.state import MsState, ms_state
from engine.titles.t18ms.trains import MsTrainRules

if TYPE_CHECKING:
    from engine.flow.base import Round
    from engine.game import Game

OBSOLETE_AFTER_OR = {4: ("2+", 20), 6: ("3+", 30), 8: ("4+", 60)}
FREE_TRAIN = "2+-4"  # set aside for the MC exchange
TILE_COMPANIES = {"AGS": 1, "BS": 2}
NEW_ORLEANS, CHATTANOOGA, CHATTANOOGA_ARROW = "I1", "B12", "B10"


class Title18MS(MsTrainRules):
    name = "18MS"
    pass_through_offboards = frozenset({"A1", "I1"})
    companies_bought_any_time = True

    # ------------------------------------------------------------ setup
    def setup(self, game: Game) -> State:
        st = super().setup(game)
        free = next(t for t in st.trains if t.id == FREE_TRAIN)
        free.sellable = False  # held aside; never sold by the bank
        st.title_state = MsState(last_or=11 if "or_11" in self.options else 10)
        return st

    def first_round(self, game: Game) -> Round:
        return DraftRound(game, reverse=True)

    def next_round(self, game: Game, finished: Round) -> Round | None:
        st = game.state
        if finished.kind == "draft":
            return self.stock_round(game)
        last_or = ms_state(game).last_or
        # The end after the last OR is noticed only when a move is made while that round is
        # under way or over (as on the site): an operating round with no company to operate
        # passes with no move, so an empty last OR is followed by one more stock round.
        if game.or_number >= last_or and (not isinstance(finished, OperatingRound)
                                      or not finished.started_finished):
            ms_state(game).end_noticed = True
        if not isinstance(finished, OperatingRound):  # a stock round
            return self._new_or(game, 1)
        rnd = finished
        if game.or_number >= last_or and ms_state(game).end_noticed:
            st.end_reason = "fixed_round"
            return None
        per_set = 3 if ("or_11" in self.options and game.turn == 5) else 2
        if rnd.round_num < per_set:
            return self._new_or(game, rnd.round_num + 1)
        return self.stock_round(game)

    def _new_or(self, game: Game, round_num: int) -> Round:
        return self.operating_round(game, round_num)

    # ------------------------------------------------------------ rounds
    def or_name(self, game: Game, rnd: OperatingRound) -> str:
        return f"Operating Round {rnd.number} (of {ms_state(game).last_or})"

    def on_operating_round_start(self, game: Game, rnd: OperatingRound) -> None:
        st = game.state
        if rnd.number == 2:
            st.phase = "3"
        if rnd.round_num == 1:
            for p in st.players:
                if p.cash < 0:  # a debt grows by half at the first OR after each stock round
                    interest = math.ceil(-p.cash / 2)
                    p.cash -= interest
                    st.bank.cash += interest
        self.pay_companies(game)

    def on_float(self, game: Game, corp: Corporation) -> None:
        ms_state(game).recently_floated.append(corp.id)

    def end_of_operating_round(self, game: Game, rnd: OperatingRound) -> None:
        st = game.state
        super().end_of_operating_round(game, rnd)
        ms_state(game).recently_floated = []
        if rnd.number in OBSOLETE_AFTER_OR:
            name, salvage = OBSOLETE_AFTER_OR[rnd.number]
            for t in st.trains:
                if t.name != name or t.gone:
                    continue
                if t.owner in st.corporations:
                    st.corporations[t.owner].cash += salvage
                    st.bank.cash -= salvage
                t.gone = True
                t.owner = None

    def tile_lays(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[dict[str, Any]]:
        """In a company's first turn (it floated in the stock round before) two lays, as on the
        site: the second may be a yellow lay, or an upgrade unless the first was one."""
        if corp.id in ms_state(game).recently_floated:
            return [{"lay": True, "upgrade": True}, {"lay": True, "upgrade": "not_if_upgraded"}]
        return [{"lay": True, "upgrade": True}]

    def step_kinds(self, game: Game, rnd: OperatingRound, step: str) -> list[str]:
        """The site's Route step has no action for a company with trains but no route
        (can_run_route?): the step, and then the dividend (withheld, price left), are skipped."""
        if step == "route" and not self.has_route(game, rnd.corp()):
            return []
        return super().step_kinds(game, rnd, step)

    def track_abilities_block(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """The track step waits for a pass while the company holds an unused AGS/BS lay, or (in
        phase 3, when privates may be bought) could buy the AGS or BS from its president."""
        if any(self._tile_ability_left(game, c) for c in game.state.companies.values()
               if c.owner == corp.id and not c.closed):
            return True
        return game.state.phase == "3" and self.can_buy_tile_layer(game, rnd, corp, frozenset(TILE_COMPANIES))

    def _tile_ability_left(self, game: Game, company: Any) -> bool:
        if company.id not in TILE_COMPANIES or company.uses >= TILE_COMPANIES[company.id]:
            return False
        return not (company.id == "BS" and ms_state(game).bs_or not in (None, game.or_number))

    # ------------------------------------------------------------ bonuses
    def after_lay_tile(self, game: Game, rnd: OperatingRound, corp: Corporation, hex_name: str) -> None:
        st = game.state
        if ms_state(game).chattanooga or hex_name != CHATTANOOGA_ARROW:
            return
        if CHATTANOOGA in self.reach(game, corp).connected_hexes:
            ms_state(game).chattanooga = True
            corp.cash += 50
            st.bank.cash -= 50

    def can_place_token(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """The token step is also open when only the M&M's half price is affordable (the site
        counts the ability's price among the token prices)."""
        if super().can_place_token(game, rnd, corp):
            return True
        mm = game.state.companies.get("M&M")
        cost = self.next_token_cost(game, corp)
        if (rnd.turn.tokened or mm is None or mm.owner != corp.id or mm.closed or mm.uses >= 1
                or cost is None or math.ceil(cost / 2) > corp.cash):
            return False
        return bool(self.token_targets(game, corp))

    _special_token = False  # set while the M&M places a token (no New Orleans bonus then)

    def after_place_token(self, game: Game, rnd: OperatingRound, corp: Corporation, hex_name: str, city: int) -> None:
        # The site pays the New Orleans bonuses only for a token placed in the normal token
        # step; a token placed with the Meridian & Memphis ability gets neither.
        if hex_name != NEW_ORLEANS or self._special_token:
            return
        phase = game.state.phase
        if (int(phase) if phase.isdigit() else 0) < 6:
            ms_state(game).no_bonus.append(corp.id)
        corp.cash += 100
        game.state.bank.cash -= 100

    def route_rules(self, game: Game, corp: Corporation) -> RouteRules:
        bonus_corps: tuple[str, ...] = tuple(ms_state(game).no_bonus)

        def bonus(board: Board, corp_id: str, stops: list[NodeRef]) -> int:
            if corp_id in bonus_corps and any(s[0] == NEW_ORLEANS for s in stops):
                return 10
            return 0

        return RouteRules(phase=game.state.phase, route_bonus=bonus,
                          pass_through_offboards=self.pass_through_offboards)

    def after_run(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        if rnd.turn.routes:
            self._mark_rusting(game, rnd, corp)

    def _mark_rusting(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        """In the second OR of a set the trains removed at its end may no longer be bought once
        their company has run at least one route (the site marks them when it counts the
        revenue of the company's routes; a company with no route, or that ran none, does not
        mark its trains)."""
        if rnd.round_num == 2 and "allow_buy_rusting" not in self.options:
            name = f"{game.turn}+"
            marked: list[str] = ms_state(game).unbuyable
            for t in self.active_trains(game, corp):
                if t.name == name and t.id not in marked:
                    marked.append(t.id)

    # ------------------------------------------------------------ private companies
    def purchasable_companies(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[Any]:
        st = game.state
        pres = shares.president(corp)
        comps = [c for c in st.companies.values() if c.owner == pres and pres and not c.closed]
        full = len(self.active_trains(game, corp)) >= self.train_limit_for(game, corp)
        comps = [c for c in comps if not (c.id == "MC" and (game.turn >= 3 or full))]
        if st.phase == "2":
            return [c for c in comps if c.id in TILE_COMPANIES] if game.turn <= 1 else []
        return comps

    def company_price_range(self, game: Game, company: Any) -> tuple[int, int]:
        if game.or_number <= 1:
            return (company.value, company.value)
        return (math.ceil(company.value / 2), company.value * 3 // 2)

    def company_purchase_refusal(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any) -> str:
        pres = shares.president(corp)
        if company.owner != pres:
            return f"{corp.id} may buy a private company only from its own president."
        if company.id == "MC":
            return "The Mississippi Central may be sold to a company only until OR 4, and only to one below its train limit."
        if game.state.phase == "2":
            return "In OR 1 only the Alabama Great Southern and Birmingham Southern may be bought."
        return f"{corp.id} cannot buy {company.id} now."


    def blocking_company_kinds(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[str]:
        if game.state.phase == "3" and self.anytime_kinds(game, rnd):
            return ["buy_company", "pass"]
        ags = game.state.companies["AGS"]
        if ags.owner == corp.id and not ags.closed and ags.uses < 1:
            return ["pass"]
        return []

    def after_buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any) -> None:
        if company.id == "MC":
            train = next(t for t in game.state.trains if t.id == FREE_TRAIN)
            train.owner = corp.id
            company.closed = True
            company.owner = None

    def process_company_action(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any, action: Any) -> None:
        if action.type == "lay_tile" and company.id in TILE_COMPANIES:
            if not self._tile_ability_left(game, company):
                raise EngineError(f"{company.id}'s extra tile lays are used up (the Birmingham Southern's "
                                  "must all be made in one operating round).", rule="company.used")
            if company.id == "BS" and rnd.step_name() != "track":
                raise EngineError(f"{corp.id} may use the Birmingham Southern only in its track step.",
                                  rule="company.timing")
            # the site checks no track restriction for a private's lay
            self.lay_tile(game, rnd, corp, action, free=True, count_lay=False, restrict=False)
            company.uses += 1
            if company.id == "BS":
                ms_state(game).bs_or = game.or_number
            return
        if action.type == "place_token" and company.id == "M&M":
            if company.uses >= 1:
                raise EngineError("The Meridian & Memphis half-price token is used up.", rule="company.used")
            if rnd.step_name() != "token":
                raise EngineError(f"{corp.id} may use the Meridian & Memphis only in its token step.",
                                  rule="company.timing")
            self._special_token = True
            try:
                self.place_token(game, rnd, corp, action, price_factor=0.5)
            finally:
                self._special_token = False
            company.uses += 1
            if rnd.step_name() == "token":
                rnd.turn.step += 1
            return
        if action.type == "buy_train" and company.id == "M&O":
            # the site's SpecialBuyTrain step: reachable once the turn is at its train step (or
            # the company step after it); a 3+ or 4+ from the bank at $100 off, or from another
            # company at the agreed price; either way the M&O closes
            step = rnd.step_name()
            if step not in ("buy_train", "buy_company"):
                raise EngineError(f"{corp.id} may use the Mobile & Ohio discount only while buying trains.",
                                  rule="company.timing")
            train = self.find_train(game, corp, action.train)
            if train.name not in ("3+", "4+"):
                raise EngineError("The Mobile & Ohio discount applies to a 3+ or 4+ train from the bank.",
                                  rule="company.mo_train")
            self.buy_train(game, rnd, corp, action, discount=100 if train.owner is None else 0)
            company.closed = True
            company.owner = None
            if step == "buy_train" and not self.can_buy_train(game, rnd, corp):
                rnd.turn.step += 1
            return
        raise EngineError(f"{company.id} has no ability that does that.", rule="company.ability")

    # ------------------------------------------------------------ legal answer
    def legal_extras(self, game: Game, base: dict[str, Any]) -> None:
        """Other companies' trains at the prices the site accepts (its spend_minmax): up to face
        value with the president's money in a forced purchase (none while the treasury can pay
        the cheapest bank train), and after his sales at least the money in hand less the last
        price sold at, plus $1. A train whose minimum is above its maximum is not offered."""
        rnd: Any = game.round
        if rnd.kind != "operating" or rnd.finished:
            return
        corp = rnd.corp()
        if rnd.step_name() != "track":  # the Birmingham Southern lays only in the track step
            base["company_abilities"] = [a for a in base["company_abilities"] if a != ("BS", "lay_tile")]
        if "buy_train" in base["kinds"]:
            offers = [(t, face, price) for t, face, price in self.mo_offers(game, rnd, corp) if price <= corp.cash]
            if offers:
                base["company_abilities"] = [*base["company_abilities"], ("M&O", "buy_train")]
                base["choices"] = [*base.get("choices", []), *(
                    {"entity": "M&O", "entity_type": "company", "type": "buy_train", "train": t.id,
                     "variant": face, "price": price} for t, face, price in offers)]
        if not base.get("trains"):
            return
        out = self._train_offers(game, rnd, corp, base["trains"], site=True)
        if not out and self.must_buy_train(game, rnd, corp):
            out = self._train_offers(game, rnd, corp, base["trains"], site=False)
        base["trains"] = out

    def player_value(self, game: Game, player: Any) -> int:
        return super().player_value(game, player)
