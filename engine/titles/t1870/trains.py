"""1870 trains: the open market for discarded trains, forced purchases of the cheapest train,
the diesel variant's D trains and trade-ins, rusting and discards."""

from __future__ import annotations

import copy
import dataclasses
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.flow.or_trains import TrainRules
from engine.state import Corporation, Train
from engine.titles.t1870.ids import D_COPIES, D_DISCOUNT, D_DISTANCE
from engine.titles.t1870.state import state1870

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.game import Game
    from engine.title import Title
else:
    Title = object  # the mixin's host is Title1870 (engine/titles/t1870/title.py)


class TrainRules1870(Title):
    def depot_trains(self, game: Game) -> list[Train]:
        return super().depot_trains(game)

    def to_open_market(self, game: Game, train: Train) -> None:
        """A train discarded (or traded in, or left by a closing company) goes to the open
        market (its run this round forgotten), behind those discarded before it."""
        train.operated = False
        super().to_open_market(game, train)

    def bank_train_prices(self, game: Game) -> list[int]:
        """The bank's trains and the open market's, at their prices."""
        return [t.price for t in self.depot_trains(game) + self.market_trains(game)]

    def must_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        return (not self.active_trains(game, corp)
                and bool(self.depot_trains(game) or self.market_trains(game))
                and self.has_route(game, corp))

    def cheapest_available(self, game: Game) -> int | None:
        prices = [t.price for t in self.depot_trains(game) + self.market_trains(game)]
        return min(prices) if prices else None

    def trade_ins(self, game: Game, corp: Corporation) -> list[Train]:
        """Trains the corporation may hand in for a D train ($300 off), under the diesels option."""
        if "diesels" not in self.options:
            return []
        spec = self.train_specs.get("D") or {}
        names = set((spec.get("trade_in_discount") or {}).keys())
        return [t for t in self.active_trains(game, corp) if t.name in names]

    def can_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """Also at the train limit, a D may be bought by trading in a 4, 5 or 6 (diesels)."""
        return super().can_buy_train(game, rnd, corp) or bool(self.d_trade_price(game, corp))

    def d_trade_price(self, game: Game, corp: Corporation) -> int | None:
        """The price of a D bought with a trade-in, when the bank offers one and it is affordable."""
        if not self.trade_ins(game, corp) or not any(t.name == "D" for t in self.depot_trains(game)):
            return None
        price = int(self.train_specs["D"]["price"]) - D_DISCOUNT
        return price if price <= corp.cash else None

    def buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any, discount: int = 0) -> None:
        st = game.state
        train = self.find_train(game, corp, action.train)
        if getattr(action, "exchange", None):
            old = next((t for t in self.trade_ins(game, corp) if t.id == action.exchange), None)
            if old is None or train.name != "D" or train.owner is not None or train.discarded:
                raise EngineError(f"{corp.id} may hand in one of its 4, 5 or 6 trains only for a D train "
                                  "from the bank (diesels option).", rule="train.exchange")
            # the traded train goes to the open market first (so a company at its train limit may
            # trade); a 4 traded for the first D then rusts with the others
            self.to_open_market(game, old)
            super().buy_train(game, rnd, corp, action, D_DISCOUNT)
            return
        forced = self.must_buy_train(game, rnd, corp) and int(action.price) > corp.cash
        if forced and train.owner in st.corporations:
            raise EngineError(f"{corp.id} is forced to buy a train and may not buy one from another "
                              "corporation: it must take the cheapest train of the bank or the open market.",
                              rule="train.forced_other")
        err = self.forced_kind_error(game, corp, train.name) if forced else None
        if err:  # (the cheapest train; of two kinds at its price, the one the bank offers first)
            raise EngineError(err, rule="train.forced_cheapest")
        if train.discarded and train.owner is None:
            if train not in self.market_trains(game):
                raise EngineError(f"Only the first {train.name} train discarded to the open market is for "
                                  "sale now.", rule="train.market_order")
            if not self.room(game, corp):
                raise EngineError(f"{corp.id} is at its train limit ({self.train_limit_for(game, corp)} trains).",
                                  rule="train.limit")
            if int(action.price) != train.price:
                raise EngineError(f"A {train.name} train from the open market costs ${train.price}.",
                                  rule="train.price")
            if train.price > corp.cash:
                self.cover_shortfall(game, rnd, corp, train, train.price, True)
            corp.cash -= train.price
            st.bank.cash += train.price
            train.owner, train.discarded, train.operated = corp.id, False, False
            self.note_acquired(game, train)
            rnd.turn.bought_trains += 1
            return
        super().buy_train(game, rnd, corp, action, discount)

    def note_acquired(self, game: Game, train: Train) -> None:
        """A corporation's trains keep the order it acquired them in (as on the site): a closing
        company leaves them to the open market in that order."""
        order: list[str] = state1870(game).train_order
        if train.id in order:
            order.remove(train.id)
        order.append(train.id)

    def trains_in_order(self, game: Game, corp_id: str) -> list[Train]:
        """The corporation's trains in the order it acquired them."""
        order: list[str] = state1870(game).train_order
        held = [t for t in game.state.trains if t.owner == corp_id]
        return sorted(held, key=lambda t: order.index(t.id) if t.id in order else -1)

    def after_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train, from_depot: bool) -> None:
        st = game.state
        self.note_acquired(game, train)
        if not from_depot:
            return
        for ph in self.data.phases:
            if ph.get("trigger_train") == train.name and self.phase_names.index(ph["name"]) > self.phase_names.index(st.phase):
                st.phase = ph["name"]
        spec = self.train_specs[train.name]
        first = sum(1 for t in st.trains if t.name == train.name and (t.owner or t.gone or t.discarded)) == 1
        if not first:
            return
        for t in st.trains:
            rust = self.train_specs[t.name].get("rusts_on_first")
            if rust == train.name and not t.gone:
                t.gone, t.owner, t.discarded = True, None, False
        for event in spec.get("events_on_first_purchase") or []:
            if event == "companies_buyable":
                state1870(game).river_max = 80
            elif event == "close_companies":
                for c in st.companies.values():
                    c.closed = True
            elif event == "remove_tokens":
                state1870(game).assignments = {}

    def crowded(self, game: Game) -> list[Corporation]:
        """Corporations over their train limit (asked at every step: one pass over the trains)."""
        st = game.state
        owners = [t.owner for t in st.trains if t.owner is not None and not t.gone]
        if not owners:
            return []
        corps = st.corporations
        if type(self).train_limit_for is TrainRules.train_limit_for:
            # the common rule's limit is the phase's, the same for every corporation: who holds
            # more trains than it depends only on the held trains and the phase (kept on the
            # game for the next question while they stay the same)
            memo = game.crowd_memo
            if memo is not None and memo[0] == owners and memo[1] == st.phase:
                over: set[str] = memo[2]
            else:
                limit = self.phase_train_limit(game)
                over = {o for o in set(owners) if owners.count(o) > limit}
                game.crowd_memo = (owners, st.phase, over)
            return [c for c in corps.values() if c.id in over and not c.closed] if over else []
        held: dict[str, int] = {}
        for owner in owners:
            held[owner] = held.get(owner, 0) + 1
        over = set()
        for o, n in held.items():
            c = corps.get(o)
            if c is not None and not c.closed and n > self.train_limit_for(game, c):
                over.add(o)
        return [c for c in corps.values() if c.id in over] if over else []

    def discard_train(self, game: Game, corp: Corporation, action: Any) -> None:
        train = self.find_train(game, corp, action.train)
        if train.owner != corp.id:
            raise EngineError(f"{corp.id} does not own train {train.id}.", rule="train.discard")
        if corp not in self.crowded(game):
            raise EngineError(f"{corp.id} is within its train limit and need not discard.", rule="train.discard")
        self.to_open_market(game, train)


def diesel_data(data: Any) -> Any:
    """The title's facts under the diesels option: trains 2-6 and unlimited D trains, phases
    1-5 and D (reference train_rules.diesel_variant_trains / diesel_variant_phases)."""
    rules = data.train_rules
    trains = copy.deepcopy(rules["diesel_variant_trains"])
    for t in trains:
        if t["name"] == "D":
            t["distance"]["max_stops"] = D_DISTANCE
            t["max_count"] = D_COPIES
    return dataclasses.replace(data, trains=trains, phases=copy.deepcopy(rules["diesel_variant_phases"]))
