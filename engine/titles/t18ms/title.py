"""18MS (Mark Derrick): the title's hooks over the common rules. Facts are in the JSON files
beside this module; the rule choices that follow the 18xx.games logs are in RULES.md."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares
from engine.errors import EngineError
from engine.flow.draft import DraftRound
from engine.flow.operating import OperatingRound
from engine.routes.types import Board, NodeRef, RouteRules
from engine.state import Corporation, State, Train
from engine.title import Title
from engine.titles.t18ms.state import MsState, ms_state

if TYPE_CHECKING:
    from engine.flow.base import Round
    from engine.game import Game

OBSOLETE_AFTER_OR = {4: ("2+", 20), 6: ("3+", 30), 8: ("4+", 60)}
FREE_TRAIN = "2+-4"  # set aside for the MC exchange
TILE_COMPANIES = {"AGS": 1, "BS": 2}
NEW_ORLEANS, CHATTANOOGA, CHATTANOOGA_ARROW = "I1", "B12", "B10"


class Title18MS(Title):
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

    # ------------------------------------------------------------ trains
    def train_sale_error(self, game: Game, rnd: OperatingRound | None, corp: Corporation, train: Train) -> str | None:
        if not train.sellable:
            return f"Train {train.id} came with the Mississippi Central and may never be sold."
        if train.id in ms_state(game).unbuyable:
            return (f"Train {train.id} has run this operating round and is removed at its end, "
                    "so it cannot be bought.")
        return None

    MO_DISCOUNT = 100

    def mo_offers(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[tuple[Train, str, int]]:
        """The bank's 3+ and 4+ trains the company may buy with its unused Mobile & Ohio now
        (in its train step, with room): (train, variant, discounted price)."""
        mo = game.state.companies.get("M&O")
        if (mo is None or mo.closed or mo.owner != corp.id or rnd.step_name() != "buy_train"
                or not self.room(game, corp)):
            return []
        return [(t, face, price - self.MO_DISCOUNT) for t in self.depot_trains(game)
                for face, price in self.variants(t).items() if face in ("3+", "4+")]

    def can_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """As on the site, the Mobile & Ohio's discounted price counts among the prices the
        company could pay (its train step stays open for it)."""
        if super().can_buy_train(game, rnd, corp):
            return True
        return any(price <= corp.cash for _, _, price in self.mo_offers(game, rnd, corp))

    def cover_shortfall(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train,
                        price: int, from_depot: bool) -> None:
        st = game.state
        pres = st.player(shares.president(corp) or "")
        if self._assisted(game, corp, train, price):
            assist = price - corp.cash
            pres.cash -= assist + 50
            st.bank.cash += 50
            corp.cash += assist
            return
        if not self.must_buy_train(game, rnd, corp):
            raise EngineError(
                f"{corp.id} cannot afford ${price} (treasury ${corp.cash}); a president may add money "
                "only for a permanent train when the company owns a train and has half the price.",
                rule="train.cash")
        # the site's forced purchase: no contribution while the treasury alone can pay for the
        # cheapest bank train, nor above a train's face value
        cheapest_bank = min((min(self.variants(t).values()) for t in self.depot_trains(game)), default=None)
        if cheapest_bank is not None and cheapest_bank <= corp.cash:
            raise EngineError(f"{corp.id} can pay for a ${cheapest_bank} train itself, so its president "
                              "may not add money.", rule="train.contribution_affordable")
        need = price - corp.cash
        if pres.cash >= need:
            pres.cash -= need
            corp.cash += need
            return
        # a loan: only when nothing more may be sold and no bank train is affordable
        if self._can_sell_anything(game, rnd, corp, pres.id):
            raise EngineError(f"{pres.name} must sell shares before borrowing from the bank.",
                              rule="train.loan_sell_first")
        cheapest = min((min(self.variants(t).values()) for t in self.depot_trains(game)), default=0)
        if cheapest <= corp.cash + pres.cash:
            raise EngineError(f"{pres.name} may not borrow while a ${cheapest} train is affordable.",
                              rule="train.loan_affordable")
        # the president pays all he has and borrows the rest, plus $50 interest
        need = price - corp.cash
        pres.cash -= need + 50
        st.bank.cash += 50
        corp.cash += need

    def _can_sell_anything(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str) -> bool:
        from engine.state import MARKET

        st = game.state
        for c in st.corporations.values():
            held = shares.percent(c, pid)
            if not held:
                continue
            pres = shares.president(c)
            others = max((shares.percent(c, p.id) for p in st.players if p.id != pid), default=0)
            for pct in range(10, held + 1, 10):
                if shares.percent(c, MARKET) + pct > self.pool_limit():
                    break
                if pres == pid and others > held - pct:
                    break
                if pres == pid and held - pct < 20:
                    break
                return True
        return False

    def after_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train, from_depot: bool) -> None:
        st = game.state
        if train.face == "6" and st.phase in ("2", "3"):
            st.phase = "6"
            for c in st.companies.values():
                c.closed = True
            ms_state(game).no_bonus = []
        if "D" in train.face and st.phase != "D":
            st.phase = "D"

    def may_sell_for_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """As on the site (BuyTrain offers the president sell_shares whenever EBUY_CAN_SELL_SHARES,
        and 18MS may sell more than needed): in the company's train step its president may sell,
        also when it is not forced to buy (e.g. to fund a presidential contribution)."""
        return True

    def other_train_bounds(self, game: Game, rnd: OperatingRound | None, corp: Corporation,
                           train: Train, price: int | None = None) -> tuple[int, int]:
        """The site pays a presidential contribution ($50 fee) before it checks the price range,
        so the money in hand behind the minimum is $50 less then (and no minimum applies when
        the contribution brings the treasury to the train's face value)."""
        face = self.variants(train).get(train.face, train.price)
        if corp.cash >= face:
            return 1, corp.cash
        if price is not None and rnd is not None and self._loan_buy(game, rnd, corp, train, price):
            # the site lends the price first and then checks the range with it in the treasury
            pres = game.state.player(shares.president(corp) or "")
            lent = corp.cash + price
            if lent >= face:
                return 1, lent
            have = lent + pres.cash
            last = rnd.turn.ebuy_last_sold
            return max(1, have - int(last) + 1 if last else 1), min(face, have)
        # below the face value: up to the treasury plus the president's cash (a president in
        # debt lowers it, possibly below $1: then no such train), at most the face value
        pid = shares.president(corp)
        have = corp.cash + (game.state.player(pid).cash if pid else 0)
        last = rnd.turn.ebuy_last_sold if rnd is not None else None
        low = have - int(last) + 1 if last else 1
        if price is not None and self._assisted(game, corp, train, price):
            # after the contribution the treasury holds the price: at face value or more the
            # site checks only $1 to the treasury; below it the fee is gone from the money
            if price >= face:
                return 1, price
            have -= 50
            low = have - int(last) + 1 if last else 1
        return max(1, low), min(face, have)

    def _other_price_ok(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train, price: int,
                        site: bool = True) -> bool:
        low, high = self.other_train_bounds(game, rnd, corp, train, price)
        return (low <= price <= high and self._loan_error(game, rnd, corp, train, price, site) is None
                and self._debt_refusal(game, rnd, corp, train, price) is None)

    def _loan_error(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train, price: int,
                    site: bool = True) -> str | None:
        """Two loans the site cannot make, though the printed rules allow them: with an empty
        treasury (it fails emptying a treasury of $0), and a loan of $0 or less (the site takes
        the loan whenever the price exceeds the treasury plus the president's cash, so also when
        the treasury alone could pay, the president being in debt; the president then owes the
        price less the treasury plus $50). With `site` false (the site would leave the company
        no train at all, see `site_stuck`) the printed rules apply."""
        if not site or not self._loan_buy(game, rnd, corp, train, price):
            return None
        if corp.cash == 0:
            return (f"{corp.id} cannot buy that train for ${price} with the bank's loan: as on "
                    "18xx.games, the bank lends only to a company with money in its treasury.")
        if price <= corp.cash and price - corp.cash + 50 <= 0:
            return (f"{corp.id} cannot buy that train for ${price}: with its president in debt the site "
                    "takes a loan here, and a loan of $0 or less is refused.")
        return None

    def site_stuck(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """A forced purchase where the site's two loan failures (`_loan_error`) leave no train
        at all: the site's game cannot go on there, so the printed rules decide."""
        from engine.legal import train_options

        return (self.must_buy_train(game, rnd, corp)
                and not self._train_offers(game, rnd, corp, train_options(game, corp), site=True))

    def buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any,
                  discount: int = 0) -> None:
        train = self.find_train(game, corp, action.train)
        price = int(action.price)
        refusal = self._debt_refusal(game, rnd, corp, train, price)
        if refusal:
            raise EngineError(refusal, rule="train.debt_loan")
        pid = shares.president(corp)
        if price > corp.cash or pid is None or not self._loan_buy(game, rnd, corp, train, price):
            err = self._loan_error(game, rnd, corp, train, price)
            if err and not self.site_stuck(game, rnd, corp):
                raise EngineError(err, rule="train.debt_loan")
            super().buy_train(game, rnd, corp, action, discount)
            return
        err = self._loan_error(game, rnd, corp, train, price)
        if err and not self.site_stuck(game, rnd, corp):
            raise EngineError(err, rule="train.debt_loan")
        if err:  # the printed rules: the treasury pays, no loan is needed
            super().buy_train(game, rnd, corp, action, discount)
            return
        st, pres = game.state, game.state.player(pid)
        owed = price - corp.cash + 50
        super().buy_train(game, rnd, corp, action, discount)
        # the treasury left goes to the bank; the president borrows the rest plus $50
        st.bank.cash += corp.cash + owed
        corp.cash = 0
        pres.cash -= owed

    def _debt_refusal(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train,
                      price: int) -> str | None:
        """A forced purchase above the treasury and the president's cash together (a president
        in debt lowers that sum, so also a price within the treasury) needs the bank's loan, and
        the bank lends only when the president may sell nothing and no bank train costs that
        sum or less."""
        pid = shares.president(corp)
        if pid is None or not self.must_buy_train(game, rnd, corp) or self._assisted(game, corp, train, price):
            return None
        have = corp.cash + game.state.player(pid).cash
        if price <= have:
            return None
        money = f"${have}" if have >= 0 else f"-${-have}"
        if self._can_sell_anything(game, rnd, corp, pid):
            return (f"{corp.id} cannot pay ${price} with its treasury and its president's cash "
                    f"({money}): the president must sell shares first; the bank lends only when "
                    "he has none left that he may sell.")
        cheapest = min((min(self.variants(t).values()) for t in self.depot_trains(game)), default=None)
        if cheapest is not None and cheapest <= have:
            return (f"{corp.id} cannot pay ${price} with its treasury and its president's cash "
                    f"({money}): the bank lends nothing while a train from the bank costs "
                    f"${cheapest}, within that money.")
        return None

    def _loan_buy(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train, price: int) -> bool:
        """A forced purchase the bank lends for (the site's emergency loan, $50 interest): the
        price is above the treasury and the president's cash together, he may sell nothing
        more, and no bank train is affordable with that money."""
        pid = shares.president(corp)
        if pid is None or not self.must_buy_train(game, rnd, corp) or self._assisted(game, corp, train, price):
            return False
        have = corp.cash + game.state.player(pid).cash
        cheapest = min((min(self.variants(t).values()) for t in self.depot_trains(game)), default=0)
        return price > have and cheapest > have and not self._can_sell_anything(game, rnd, corp, pid)

    def _assisted(self, game: Game, corp: Corporation, train: Train, price: int) -> bool:
        """The site's president_assisted_buy: a permanent train, the company owns a train and
        holds at least half the price, and the president can pay the rest plus the $50 fee."""
        pres = shares.president(corp)
        return (bool(self.active_trains(game, corp)) and "+" not in train.name and corp.cash >= price // 2
                and price > corp.cash and pres is not None
                and game.state.player(pres).cash >= price - corp.cash + 50)

    def after_emergency_sale(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        """Shares sold for a forced purchase re-sort the corporations yet to operate."""
        st = game.state
        waiting = rnd.order[rnd.index + 1 :]
        waiting.sort(key=lambda cid: mk.order_key(st, self.market, st.corporations[cid]))
        rnd.order[rnd.index + 1 :] = waiting

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

    def _train_offers(self, game: Game, rnd: OperatingRound, corp: Corporation,
                      trains: list[tuple[str, str, int, int, str]], site: bool
                      ) -> list[tuple[str, str, int, int, str]]:
        """The trains of the base answer at the prices this title accepts (`legal_extras`)."""
        cheapest = min((min(self.variants(t).values()) for t in self.depot_trains(game)), default=None)
        out = []
        for tid, face, lo, hi, seller in trains:
            if seller != "bank":
                train = self.find_train(game, corp, tid)
                lo, hi = self.other_train_bounds(game, rnd, corp, train)
                if hi > corp.cash and cheapest is not None and cheapest <= corp.cash:
                    hi = max(1, corp.cash)
                value = self.variants(train).get(train.face, train.price)
                if self._loan_buy(game, rnd, corp, train, max(hi, value)):
                    # with the bank's loan other prices are accepted (and some refused): the
                    # first run of accepted prices up to the larger of the face value and the
                    # treasury
                    lo, hi = 1, 0
                    for p in range(1, max(value, corp.cash) + 1):
                        if self._other_price_ok(game, rnd, corp, train, p, site):
                            lo, hi = (p, p) if hi < lo else (lo, p)
                        elif hi >= lo:
                            break
                if hi > corp.cash and self.shortfall_error(game, rnd, corp, train, hi):
                    hi = corp.cash  # the president may not add the rest
                if self._debt_refusal(game, rnd, corp, train, hi):
                    pid = shares.president(corp)
                    hi = min(hi, corp.cash + (game.state.player(pid).cash if pid else 0))
                if lo > hi:
                    continue
            else:
                train = self.find_train(game, corp, tid)
                if (self._debt_refusal(game, rnd, corp, train, lo) or self._loan_error(game, rnd, corp, train, lo, site)
                        or (lo > corp.cash and self.shortfall_error(game, rnd, corp, train, lo))):
                    continue  # refused, or beyond the treasury and the president may not add the rest
            out.append((tid, face, lo, hi, seller))
        return out

    def player_value(self, game: Game, player: Any) -> int:
        return super().player_value(game, player)
