"""Operating rules: trains on offer, the train limit, buying trains, forced purchase and bankruptcy."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.routes.reach import reaches_two_nodes
from engine.state import Corporation, Train

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.flow.or_host import OperatingHost
    from engine.game import Game
else:
    OperatingHost = object  # the typing-only view of the rest of OperatingRules


class TrainRules(OperatingHost):
    def depot_trains(self, game: Game) -> list[Train]:
        """Trains the bank offers now: the next in order plus any released by the phase."""
        st = game.state
        upcoming = [t for t in st.trains if t.owner is None and not t.gone and not t.discarded
                    and t.sellable]
        if not upcoming:
            return []
        out = [upcoming[0]]
        reached = self.phases_reached(game)
        asked: set[str] = set()  # (only a kind's first train can be added: each kind asked once)
        for t in upcoming:
            if t.name in asked:
                continue
            asked.add(t.name)
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
        return self.train_specs[name]

    def phases_reached(self, game: Game) -> set[str]:
        names = self.phase_names
        return set(names[: names.index(game.state.phase) + 1])

    def variants(self, train: Train) -> dict[str, int]:
        spec = self.train_specs[train.name]
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
        return self.phase_train_limit(game)

    def phase_train_limit(self, game: Game) -> int:
        """The phase's train limit (the common rule's limit for every corporation)."""
        return int(self.phase_data(game).get("train_limit", self.train_limit))

    def bank_train_prices(self, game: Game) -> list[int]:
        """The lowest price of each train the bank offers (a title adds its open market's)."""
        return [min(self.variants(t).values()) for t in self.depot_trains(game)]

    def min_train_price(self, game: Game, corp: Corporation) -> int | None:
        """The cheapest train the corporation could buy: the bank's, or $1 for another
        company's (None: none)."""
        prices = self.bank_train_prices(game)
        if self.other_trains(game, corp):
            prices.append(1)
        return min(prices) if prices else None

    def affords_a_train(self, game: Game, corp: Corporation) -> bool:
        """The treasury reaches min_train_price(game, corp) (never when it is None); the other
        companies' trains (at $1) are looked for only when the bank's are beyond it."""
        prices = self.bank_train_prices(game)
        if prices and corp.cash >= min(prices):
            return True
        return corp.cash >= 1 and bool(self.other_trains(game, corp))

    def can_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        if not self.room(game, corp):
            return False
        return self.affords_a_train(game, corp)

    def has_route(self, game: Game, corp: Corporation) -> bool:
        """The network touches two nodes or more (len(reach.nodes) >= 2)."""
        return reaches_two_nodes(self.reach_board(game, corp), corp.id, self.pass_through_offboards)

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
        # (the limit's, the order's, the price's and the other company's checks below only
        # refuse a purchase: not asked again of a log accepted once, see Game.checking)
        checking = game.checking
        if checking and not self.room(game, corp):
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
            # the bank sells the first card of that kind (the named one when it is itself on
            # offer: a title's open market may offer another card of the same kind)
            if train not in depot:
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
            err = self.train_sale_error(game, rnd, corp, train) if checking else None
            if err:
                raise EngineError(err, rule="train.other")
            low, high = self.other_train_bounds(game, rnd, corp, train, price) if checking else (price, price)
            if price > high and price >= low:
                face = self.variants(train).get(train.face, train.price)
                raise EngineError(
                    (f"{corp.id} may pay at most the face value, ${face}, for {train.owner}'s "
                     f"{train.face} train." if high == face else
                     f"{corp.id} may pay at most ${high} for {train.owner}'s {train.face} train "
                     "(its treasury, and below the train's face value its president's cash too).")
                    if high >= 1 else
                    f"{corp.id} cannot buy {train.owner}'s {train.face} train: its treasury and its "
                    f"president's cash come to ${high}.", rule="train.other_price")
            if price < low:
                raise EngineError(
                    f"After its president sold shares for this purchase, {corp.id} must pay at least ${low} "
                    f"for {train.owner}'s {train.face} (he may not have sold more than needed).",
                    rule="train.ebuy_min")
            if action.variant is not None and action.variant != train.face:
                raise EngineError(f"{train.id} is a {train.face} train: a train bought from another "
                                  f"corporation is bought as it is, not as a {action.variant}.",
                                  rule="train.variant")
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

    def bank_offer(self, game: Game) -> list[Train]:
        """The bank's trains for sale in the site's order: its next train and those the phase
        releases, then the open market's (one of each kind, the one discarded first)."""
        trains = self.depot_trains(game)
        return trains + [t for t in self.market_trains(game) if t not in trains]

    def forced_kinds(self, game: Game) -> tuple[str, int, frozenset[str]]:
        """In a forced purchase its president pays toward, a train from the bank must be of
        the kind of the first cheapest train the bank offers (`bank_offer`'s order, each at
        the price of its face): that train's name, its lowest price, and its kinds at that
        price. A dearer train, or one of another kind at the same price, is refused, as on
        the site."""
        offer = self.bank_offer(game)
        if not offer:
            return "", 0, frozenset()
        first = min(offer, key=lambda t: self.variants(t).get(t.face, t.price))
        kinds = self.variants(first)
        low = min(kinds.values())
        return first.name, low, frozenset(k for k, p in kinds.items() if p == low)

    def forced_kind_error(self, game: Game, corp: Corporation, kind: str) -> str | None:
        """Why a forced purchase cannot take a bank train of this kind (`forced_kinds`)."""
        first, low, kinds = self.forced_kinds(game)
        if not kinds or kind in kinds:
            return None
        return (f"{corp.id} is forced to buy a train with its president's money: it must take "
                f"the cheapest train the bank offers, the {first} (${low}), not a {kind}.")

    def market_trains(self, game: Game) -> list[Train]:
        """The open market's trains for sale (titles that have one): as on the site, one of
        each kind, the one discarded first."""
        order = game.state.title_state.open_market
        pile = [t for t in game.state.trains if t.discarded and t.owner is None and not t.gone]
        pile.sort(key=lambda t: order.index(t.id) if t.id in order else len(order))
        out: dict[str, Train] = {}
        for t in pile:
            out.setdefault(t.name, t)
        return list(out.values())

    def to_open_market(self, game: Game, train: Train) -> None:
        """A discarded train goes to the open market, behind those discarded before it."""
        train.owner, train.discarded = None, True
        order = game.state.title_state.open_market
        if train.id in order:
            order.remove(train.id)
        order.append(train.id)

    def other_train_bounds(self, game: Game, rnd: OperatingRound | None, corp: Corporation,
                           train: Train, price: int | None = None) -> tuple[int, int]:
        """What `corp` may pay for another corporation's train, as the site's spend_minmax: $1 to
        its treasury; when the treasury is below the train's face value, up to that face value
        (with its president's money, when forced to buy); and when its president has sold shares
        for this purchase, at least the money in hand (treasury and president) less the last
        share price sold at, plus $1 - so he cannot have sold more than needed. (The minimum
        is recorded by the shared emergency sale only. `price`: the offer being checked, for a
        title whose bounds depend on it.)"""
        face = self.variants(train).get(train.face, train.price)
        if corp.cash >= face:
            return 1, max(1, corp.cash)
        pid = shares.president(corp)
        have = corp.cash + (game.state.player(pid).cash if pid else 0)
        last = rnd.turn.ebuy_last_sold if rnd is not None else None
        low = max(1, have - int(last) + 1) if last else 1
        high = min(face, have) if rnd is not None and self.must_buy_train(game, rnd, corp) else corp.cash
        return low, max(1, high)

    def train_sale_error(self, game: Game, rnd: OperatingRound | None, corp: Corporation, train: Train) -> str | None:
        if not train.sellable:
            return f"Train {train.id} may not be sold."
        return None

    def shortfall_error(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train,
                        price: int) -> str | None:
        """Why `cover_shortfall` would refuse this price (None: the president's money, or a
        loan, makes it up). Tried on the real state and every cash balance put back."""
        st = game.state
        saved = [(p, p.cash) for p in st.players] + [(c, c.cash) for c in st.corporations.values()]
        bank = st.bank.cash
        try:
            self.cover_shortfall(game, rnd, corp, train, price, train.owner is None)
        except EngineError as err:
            return str(err)
        finally:
            for holder, cash in saved:
                holder.cash = cash
            st.bank.cash = bank
        return None

    def cover_shortfall(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train,
                        price: int, from_depot: bool) -> None:
        """The treasury cannot pay: the president contributes in a forced purchase."""
        if not self.must_buy_train(game, rnd, corp):
            raise EngineError(f"{corp.id} cannot afford ${price} (treasury ${corp.cash}).", rule="train.cash")
        pres = game.state.player(shares.president(corp) or "")
        need = price - corp.cash
        if pres.cash < need:
            also = " (or declare bankruptcy)" if self.bankruptcy_allowed else ""
            raise EngineError(
                f"{corp.id} needs ${need} more and its president has ${pres.cash}: sell shares first{also}.",
                rule="train.emergency_cash")
        pres.cash -= need
        corp.cash += need

    def after_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train, from_depot: bool) -> None:
        pass
