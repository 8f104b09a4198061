"""1870's emergency sales: what the president may sell to fund his corporation's forced train
purchase (the site's limits: the market's room, the presidencies, 60%, no more than needed),
and how much he could raise, which decides whether he may declare bankruptcy. A mixin of
Title1870 (title.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.state import MARKET, Corporation

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.game import Game
    from engine.title import Title
else:
    Title = object  # the mixin's host is Title1870 (engine/titles/t1870/title.py)


def _passes_presidency(game: Game, corp: Corporation, pid: str, pct: int) -> bool:
    """Would selling `pct`% make another player president of `corp`? As on the site, judged by
    the holdings the presidency checks count (shares.counted), which a protection may have left
    other than the certificates held: another player must count more than the seller then."""
    mine = shares.counted(corp, pid) - pct
    return any(shares.counted(corp, p.id) > mine for p in game.state.players if p.id != pid)


class EmergencySales1870(Title):
    _sale_context: tuple[str | None, str | None]

    if TYPE_CHECKING:  # Title1870's own (title.py, trains.py)
        def may_hold_above_60(self, game: Game, corp: Corporation) -> bool: ...

        def cheapest_available(self, game: Game) -> int | None: ...

    def emergency_sell(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str, action: Any) -> None:
        """The president sells to fund a forced train purchase; only the buying corporation's
        presidency must not change. The sales wait for price protection like any other."""
        from engine.flow.stock import sell_certs

        target, certs, pct = self.emergency_certs(game, rnd, corp, pid, action)
        sold: list[str] = rnd.turn.ebuy_sold
        err = self.emergency_sale_error(game, corp, pid, target, pct, sold)
        if err:
            raise EngineError(err[1], rule=err[0])
        self._sale_context = (pid, shares.president(target))
        sell_certs(game, target, pid, certs, pct)
        sold.append(target.id)
        rnd.turn.sold_shares = True

    def ebuy_needed(self, game: Game) -> int:
        """What a forced purchase costs: the cheapest train of the bank or the open market."""
        return self.cheapest_available(game) or 0

    def emergency_sale_error(self, game: Game, corp: Corporation, pid: str, target: Corporation,
                             pct: int, sold: Any = ()) -> tuple[str, str] | None:
        """(rule, message) when the president may not sell `pct`% of `target` to fund `corp`'s
        forced train purchase, else None. As on the site: the market must have room, the buying
        company's presidency must not change, he may not end above 60% (white/yellow cells), and
        he may not raise more than needed - unless selling one share less would leave him above
        60%. Each corporation is sold in one block (`sold`: those sold already for this train)."""
        st = game.state
        if target.closed or target.cell is None:
            return ("ebuy.cert", f"{target.id} shares have no price to sell at.")
        if target.id in sold:
            return ("ebuy.block", f"You have already sold {target.id} for this train: one block per corporation.")
        held = shares.percent(target, pid)
        if pct <= 0 or pct > held:
            return ("ebuy.cert", f"You hold {held}% of {target.id}.")
        if shares.percent(target, MARKET) + pct > self.pool_limit():
            return ("ebuy.pool", f"The open market may not hold more than {self.pool_limit()}% of {target.id}.")
        # who could take the president's certificate over: as the site counts holdings for
        # it (shares.counted: a presidency exchange's uneven hand-over is not counted)
        others = max((shares.counted(target, p.id) for p in st.players if p.id != pid), default=0)
        pres = shares.president_cert(target)
        if shares.president(target) == pid:
            if target.id == corp.id and _passes_presidency(game, target, pid, pct):
                return ("ebuy.presidency",
                        f"Selling that would change the presidency of {corp.id}, which is buying the train.")
            # (only a sale that takes his president's certificate: as the site's, whose check is
            # of a bundle holding it; a president apart from it sells ordinary shares freely)
            if pres.owner == pid and held - pct < pres.percent and others < pres.percent:
                return ("ebuy.presidency", f"Nobody else could take over {target.id}'s president's certificate.")
        above = not self.may_hold_above_60(game, target)
        if above and held - pct > 60:
            return ("ebuy.holding", f"After this sale you would still hold more than 60% of {target.id}.")
        price = self.share_price(target)
        have = corp.cash + st.player(pid).cash
        need = self.ebuy_needed(game)
        if have + price * pct // 10 >= need + price and not (above and held - pct + 10 > 60):
            return ("ebuy.sell_more_than_needed",
                    f"{corp.id} needs ${max(0, need - have)} more: sell no more shares than that takes.")
        return None

    def emergency_sale_options(self, game: Game, corp: Corporation, pid: str,
                               sold: Any = ()) -> list[tuple[str, int]]:
        """(corporation, percent) sales the president may make now for the forced purchase."""
        out = []
        for target in game.state.corporations.values():
            held = shares.percent(target, pid)
            for pct in range(10, held + 1, 10):
                if self.emergency_sale_error(game, corp, pid, target, pct, sold) is None:
                    out.append((target.id, pct))
        return out

    def emergency_liquidity(self, game: Game, corp: Corporation, pid: str, sold: Any = ()) -> int:
        """The most the president could raise by selling, ignoring the 'no more than needed'
        limit (one block per corporation, none of those already sold for this train)."""
        st = game.state
        total = 0
        for target in st.corporations.values():
            if target.closed or target.cell is None or target.id in sold:
                continue
            held = shares.percent(target, pid)
            best = 0
            for pct in range(10, held + 1, 10):
                if shares.percent(target, MARKET) + pct > self.pool_limit():
                    break
                others = max((shares.counted(target, p.id) for p in st.players if p.id != pid),
                             default=0)
                pres = shares.president_cert(target)
                if shares.president(target) == pid:
                    if target.id == corp.id and _passes_presidency(game, target, pid, pct):
                        break
                    if pres.owner == pid and held - pct < pres.percent and others < pres.percent:
                        break
                best = pct
            total += self.share_price(target) * best // 10
        return total

    def bankruptcy_liquidity(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str) -> int:
        return self.emergency_liquidity(game, corp, pid, rnd.turn.ebuy_sold)
