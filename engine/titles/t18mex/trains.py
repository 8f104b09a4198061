"""18MEX trains: obsolete trains and the train limit, the depot and the open market, buying
limits (limited_train_buy), prices of other companies' trains, the phase events (rusting,
the minors closing and their trade-in, the merger's start), emergency sales of shares."""



from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares
from engine.errors import EngineError
from engine.state import Corporation, Train
from engine.titles.t18mex.ids import (
    MINOR_TRADE_IN,
    MNR,
    NDM,
)
from engine.titles.t18mex.merger import MergerRules
from engine.titles.t18mex.state import mex_state

if TYPE_CHECKING:
    from engine.game import Game


class MexTrainRules(MergerRules):
    """Train hooks of Title18MEX."""

    def is_obsolete(self, game: Game, train: Train) -> bool:
        return train.id in mex_state(game).obsolete

    def train_limit_for(self, game: Game, corp: Corporation) -> int:
        limit = int(self.phase_data(game).get("train_limit", 2))
        return limit + 1 if corp.id == NDM else limit

    def counted_trains(self, game: Game, corp: Corporation) -> list[Train]:
        return [t for t in self.active_trains(game, corp) if not self.is_obsolete(game, t)]

    def counted_holdings(self, game: Game) -> dict[str, int]:
        """len(counted_trains(game, c)) of each holder c, in one pass over the trains."""
        held: dict[str, int] = {}
        obsolete = mex_state(game).obsolete  # (is_obsolete, asked after every action: inline)
        for t in game.state.trains:
            if t.owner is not None and not t.gone and t.id not in obsolete:
                held[t.owner] = held.get(t.owner, 0) + 1
        return held

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
        return self.affords_a_train(game, corp)

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
            # (the 3 and the 3' cost the same: only the one the bank offers first)
            err = self.forced_kind_error(game, corp, action.variant or train.name)
            if err:
                raise EngineError(err, rule="train.forced_cheapest")
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
            # as on the site: a bank purchase ends the step when the bank has no train left to
            # sell it this turn (the one-a-turn limit, or its last train just bought) and no
            # other company's train may be bought at a price the treasury pays (the NdM's at
            # face value)
            bank_left = bool(self.depot_trains(game)) and not self.depot_closed_this_turn(game, rnd)
            if not bank_left and not self.other_train_buyable(game, rnd, corp):
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
                    if not affected(t, other["name"]):
                        continue
                    mex_state(game).obsolete.append(t.id)  # a company's runs on, obsolete
                    if t.owner is None:  # the open market's leaves the game: the site's depot
                        t.gone, t.discarded = True, False  # rusts it (lockstep sweep, seed 758)
        for event in spec.get("events_on_first_purchase", []) or []:
            if event == "minors_closed" and "delay_minor_close" in self.options:
                mex_state(game).minor_close_pending = True  # at the start of the next stock round
            elif event == "minors_closed":
                self.close_minors(game)
            elif event == "close_companies":
                for c in st.companies.values():
                    c.closed, c.owner = True, None
            elif event == "ndm_merger":
                self.start_merger(game, shares.president(corp))

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
                for b, p in self.sale_options(game, target, pid, corp)):
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
        others = max((shares.counted(target, p.id) for p in st.players if p.id != pid), default=0)
        if target is corp and others > shares.counted(target, pid) - pct:
            return ("ebuy.presidency",
                    f"Selling that would hand over the presidency of {corp.id}, which is buying the train.")
        if pct not in {p for _, p in self.sale_options(game, target, pid, corp)}:
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
            for bundle, pct in self.sale_options(game, target, pid, corp):
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
            pct = self.largest_sale(game, target, pid, corp)
            if pct:
                total += self.sale_proceeds(target, self.share_price(target), pct)
        return total

    def bankruptcy_liquidity(self, game: Game, rnd: Any, corp: Corporation, pid: str) -> int:
        return self.emergency_liquidity(game, corp, pid)
