"""18MS trains: which trains are for sale and at what price (other companies', the Mobile &
Ohio's offers), the forced purchase (the president's cash, emergency sales, the bank loan
and debts, as on the site) and the after-purchase rules."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares
from engine.errors import EngineError
from engine.flow.operating import OperatingRound
from engine.state import Corporation, Train
from engine.title import Title
from engine.titles.t18ms.state import ms_state

if TYPE_CHECKING:
    from engine.game import Game


class MsTrainRules(Title):
    loan_fee = 50  # 11.8.4: the president borrows what is missing, plus $50
    """Train hooks of Title18MS."""

    MO_DISCOUNT = 100

    def train_sale_error(self, game: Game, rnd: OperatingRound | None, corp: Corporation, train: Train) -> str | None:
        if not train.sellable:
            return f"Train {train.id} came with the Mississippi Central and may never be sold."
        if train.id in ms_state(game).unbuyable:
            return (f"Train {train.id} has run this operating round and is removed at its end, "
                    "so it cannot be bought.")
        return None

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
            pres.cash -= assist + self.loan_fee
            st.bank.cash += self.loan_fee
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
        # the president pays all he has and borrows the rest, plus the loan's fee
        need = price - corp.cash
        pres.cash -= need + self.loan_fee
        st.bank.cash += self.loan_fee
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
            have -= self.loan_fee
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
        if price <= corp.cash and price - corp.cash + self.loan_fee <= 0:
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
        owed = price - corp.cash + self.loan_fee
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
                and game.state.player(pres).cash >= price - corp.cash + self.loan_fee)

    def after_emergency_sale(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        """Shares sold for a forced purchase re-sort the corporations yet to operate."""
        st = game.state
        waiting = rnd.order[rnd.index + 1 :]
        waiting.sort(key=lambda cid: mk.order_key(st, self.market, st.corporations[cid]))
        rnd.order[rnd.index + 1 :] = waiting

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
