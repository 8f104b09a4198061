"""18MEX's stock round: the NdM's 5% certificates and the 10%/5% swaps, reserved trade-in
certificates, sales as the title counts them (engine/titles/t18mex/shares.py owns the rules
the round asks)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

from engine.core import shares
from engine.errors import EngineError
from engine.flow.stock import StockRound, sale_bundle
from engine.state import IPO, MARKET, Cert, Corporation
from engine.titles.t18mex.ids import NDM

if TYPE_CHECKING:
    from engine.titles.t18mex.title import Title18MEX


class MexStockRound(StockRound):
    """The common stock round; an NdM sale may swap a 10% share for a 5% one from the pool, and
    a 10% NdM share may be bought from the pool by handing in a 5% one."""

    @property
    def title(self) -> Title18MEX:
        return cast("Title18MEX", self.game.title)

    def must_sell(self, pid: str) -> bool:
        """Over the certificate limit, or (as the site's must-sell check) holding more than the
        60% limit of a company of which he may sell some (minor C's trade-in share can lift a
        holding over it)."""
        if super().must_sell(pid):
            return True
        t = self.title
        for corp in self.game.state.corporations.values():
            if (corp.kind == "corporation" and not corp.closed
                    and shares.percent(corp, pid) > t.max_percent(corp)
                    and any(self.sell_error(pid, corp, p) is None for p in (10, 5))):
                return True
        return False

    def sell_error(self, pid: str, corp: Corporation, pct: int, certs: list[Cert] | None = None) -> str | None:
        """The common checks, and: a sale that takes the president's certificate must leave
        another player holding more than the seller. NdM 5% certificates count in a holding
        but never fill a larger sale, so without this he could stay the largest holder, and so
        president, with his certificate in the pool (the site accepts that sale)."""
        err = super().sell_error(pid, corp, pct, certs)
        if err or pct < 10:
            return err
        bundle = sale_bundle(corp, pid, certs, pct) if certs else shares.pick_for_sale(corp, pid, pct)
        if not any(c.president for c in bundle):
            return None
        left = shares.counted(corp, pid) - pct  # holdings as the presidency check counts them
        others = max((shares.counted(corp, p.id) for p in self.game.state.players if p.id != pid), default=0)
        if others <= left:
            return (f"You may not sell the {corp.id} president's certificate here: you would still hold "
                    f"{shares.percent(corp, pid) - pct}%, no less than any other player, and stay "
                    "president without it.")
        return None

    def swap_buy_error(self, pid: str, cert: Cert, five: Cert | None) -> str | None:
        """Why `pid` may not buy the 10% NdM `cert` by handing in `five` (None = allowed). As on
        the site, the purchase is judged as if it were a 5% one: half the price, 5% more held."""
        g, t = self.game, self.title
        corp = g.state.corporations[NDM]
        if five is None or five.corp != NDM or five.owner != pid or five.percent != 5:
            return "Only a 5% NdM certificate of yours may be handed in, for a 10% NdM share."
        if cert.corp != NDM or cert.percent != 10 or cert.owner not in (MARKET, IPO):
            return "A 5% NdM certificate may be swapped only for a 10% NdM share for sale."
        if self.turn_state.bought:
            return "You have already bought a certificate this turn."
        if corp.id in self.sold_this_round.get(pid, set()):
            return f"You sold {corp.id} this round, so you may not buy it again until the next stock round."
        err = t.extra_buy_error(g, self, pid, corp, cert)
        if err:
            return err
        if shares.percent(corp, pid) + 5 > t.max_percent(corp):
            return f"You may not hold more than {t.max_percent(corp)}% of {corp.id}."
        if t.cert_count(g, pid) + 1 > t.cert_limit(g):
            return f"You are at the certificate limit ({t.cert_limit(g)})."
        # judged as a 5% purchase: the cash must cover half the price rounded up, though the
        # swap then costs the price less that half
        price = t.share_price(corp) if cert.owner == MARKET else corp.par or 0
        need = math.ceil(price / 2)
        if g.state.player(pid).cash < need:
            return (f"The swap needs ${need} in cash (the price of a 5% purchase), though it costs "
                    f"${t.swap_price(price)}; you have ${g.state.player(pid).cash}.")
        return None

    def swap_options(self, pid: str) -> list[tuple[str, str, int]]:
        """(10% share from the pool, 5% certificate handed in, price to pay) for each allowed swap."""
        corp = self.game.state.corporations.get(NDM)
        if corp is None or not corp.ipoed:
            return []
        # as on the site: his first 5% and the first 10% of the market's list
        five = next((c for c in shares.certs_of(corp, pid) if c.percent == 5), None)
        ten = next((c for c in shares.certs_of(corp, MARKET) if c.percent == 10), None)
        if five is None or ten is None or self.swap_buy_error(pid, ten, five) is not None:
            return []
        return [(ten.id, five.id, self.title.swap_price(self.title.share_price(corp)))]

    def buyable(self, pid: str) -> bool:
        return super().buyable(pid) or bool(self.swap_options(pid))

    def process(self, action: Any) -> None:
        super().process(action)
        self.title.check_end_trigger(self.game)  # the bank breaks the moment it cannot pay

    def sellable(self, pid: str) -> bool:
        return super().sellable(pid) or bool(self.title._ndm_half_sales(self.game, self, pid))

    def _do_buy_shares(self, pid: str, action: Any) -> None:
        swap = getattr(action, "swap", None)
        if not swap:
            super()._do_buy_shares(pid, action)
            return
        corp = self.game.state.corporations[NDM]
        named = next((c for c in corp.certs if action.shares and c.id == action.shares[0]), None)
        cert = named
        if named is not None and named.owner not in (MARKET, IPO):  # an equivalent share will do
            cert = next((c for c in shares.certs_of(corp, MARKET) if c.percent == named.percent), named)
        five = next((c for c in corp.certs if c.id == swap), None)
        err = "Name the 10% NdM share to buy." if cert is None else self.swap_buy_error(pid, cert, five)
        if err:
            raise EngineError(err, rule="stock.swap")
        assert cert is not None
        price = self.title.share_price(corp) if cert.owner == MARKET else corp.par or 0
        self.title.do_buy_cert(self.game, self, pid, corp, cert, price, action)
        self.turn_state.bought = True
        if self.turn_state.sold:
            self.turn_state.sold_before_buy = True

    def _do_sell_shares(self, pid: str, action: Any) -> None:
        corp = self.game.state.corporations.get(str(action.shares[0]).rsplit("_", 1)[0]) if action.shares else None
        certs = [c for c in corp.certs if c.id in action.shares] if corp else []
        swap = getattr(action, "swap", None)
        if swap and (corp is None or corp.id != NDM or action.percent != 10 or len(certs) != 1
                     or certs[0].percent != 10):
            raise EngineError("A swap sale sells one 10% NdM share (percent 10) for a 5% one from the pool.",
                              rule="stock.swap")
        if corp is not None and (swap or (action.percent == 5 and sum(c.percent for c in certs) == 10)):
            err = self.sell_error(pid, corp, 5)
            if err:
                raise EngineError(err, rule="stock.sell")
        swapped = corp is not None and self.title.swap_sale(
            self.game, corp, pid, certs, 5 if swap else action.percent or 0, swap)
        if swap and not swapped:
            raise EngineError("Only an ordinary 10% NdM share of yours may be sold for a 5% one.", rule="stock.swap")
        if swapped:
            assert corp is not None
            self.sold_this_round.setdefault(pid, set()).add(corp.id)
            self.turn_state.sold = True
            self.turn_state.sold_corps.append(corp.id)
            return
        super()._do_sell_shares(pid, action)
