"""18MEX's share rules: what the stock round (engine/titles/t18mex/stock_round.py) asks of the
title (the NdM's 5% certificates and 10%/5% swaps, reserved trade-in certificates, privates
bought between players), certificate limits, share sales and their proceeds, and a player's
bankruptcy. The base of the title's rule mixins."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares
from engine.errors import EngineError
from engine.flow.operating import OperatingRound
from engine.state import IPO, MARKET, Cert, Corporation, Player
from engine.title import Title
from engine.titles.t18mex.ids import KCMO, NDM
from engine.titles.t18mex.state import mex_state
from engine.titles.t18mex.variants import BAJA, CDB

if TYPE_CHECKING:
    from engine.flow.base import Round
    from engine.game import Game


class MexShareRules(Title):
    """Share and certificate hooks: the base of Title18MEX's rule mixins."""

    # ------------------------------------------------------------ certificates and the stock round
    def reserved_ids(self, game: Game) -> list[str]:
        """Trade-in certificates not handed out yet (not for sale)."""
        return list(mex_state(game).reserved)

    def minors(self, game: Game) -> list[Corporation]:
        return [c for c in game.state.corporations.values() if c.kind == "minor"]

    def cert_limit(self, game: Game) -> int:
        return super().cert_limit(game) + int(mex_state(game).cert_limit_adjust)

    def cert_counts(self, corp: Corporation, cert: Cert) -> bool:
        return not (corp.id == NDM and cert.percent == 5)

    def ndm_unavailable(self, game: Game) -> bool:
        return "ndm_unavailable" in self.phase_data(game).get("engine_status_flags", [])

    def extra_buy_error(self, game: Game, rnd: Any, pid: str, corp: Corporation, cert: Cert) -> str | None:
        if corp.id == NDM and self.ndm_unavailable(game):
            return "NdM shares may not be bought or sold before phase 3½ (the first 3' train)."
        if cert.id in mex_state(game).reserved and cert.owner == IPO:
            return f"{cert.id} is a reserved trade-in certificate and cannot be bought."
        if cert.percent == 5 and game.state.player(pid).cash < self.half_share_cost(corp, cert):
            return f"You cannot afford {cert.id} (${self.half_share_cost(corp, cert)})."
        if (cert.percent == 5 and self.counts_for_cert_limit(game, corp)
                and self.cert_count(game, pid) > self.cert_limit(game)):
            # as the site: a 5% NdM certificate needs room (at the limit is enough), not over it
            return f"You are over the certificate limit ({self.cert_limit(game)})."
        return None

    def sell_error(self, game: Game, rnd: Any, pid: str, corp: Corporation) -> str | None:
        if corp.cell is None:  # the Mexican International's free CHI share before the CHI's par
            return f"A {corp.id} share is worth nothing, and cannot be sold, until someone pars {corp.id}."
        if corp.id == NDM and self.ndm_unavailable(game):
            return "NdM shares may not be bought or sold before phase 3½ (the first 3' train)."
        return None

    def par_error(self, game: Game, rnd: Any, pid: str, corp: Corporation) -> str | None:
        if corp.closed:
            return f"{corp.id} was merged into the NdM and closed: it cannot be started again."
        if corp.id == NDM and not corp.ipoed:
            return "The NdM is started by the buyer of the Mexican National, not in a stock round."
        return None

    def do_buy_cert(self, game: Game, rnd: Any, pid: str, corp: Corporation, cert: Cert,
                    price: int, action: Any) -> None:
        swap = getattr(action, "swap", None)
        if swap:
            five = next((c for c in corp.certs if c.id == swap), None)
            if (corp.id != NDM or five is None or five.owner != pid or five.percent != 5
                    or cert.owner not in (MARKET, IPO)):
                raise EngineError("Only a 5% NdM certificate may be handed in, for a 10% NdM share "
                                  "for sale.", rule="stock.swap")
            shares.move(corp, five, cert.owner)  # the 5% goes where the 10% came from
            price = self.swap_price(price)
        elif cert.percent == 5:  # half a share, rounded up as the site prices any bundle
            price = self.half_share_cost(corp, cert)
        super().do_buy_cert(game, rnd, pid, corp, cert, price, action)

    def half_share_cost(self, corp: Corporation, cert: Cert) -> int:
        unit = self.share_price(corp) if cert.owner == MARKET else corp.par or 0
        return math.ceil(unit * cert.percent / 10)

    def swap_price(self, price: int) -> int:
        """A 10% NdM share bought by handing in a 5% one: its price less the 5%'s (half, rounded up)."""
        return price - math.ceil(price / 2)

    def player_value(self, game: Game, player: Player) -> int:
        st = game.state
        value = player.cash
        for corp in st.corporations.values():
            if corp.closed or corp.cell is None:
                continue
            price = self.share_price(corp)
            value += sum(math.ceil(price * c.percent / 10) for c in corp.certs if c.owner == player.id)
        value += sum(c.value for c in st.companies.values() if c.owner == player.id and not c.closed)
        return value

    def tradeable_companies(self, game: Game, rnd: Any, pid: str) -> list[Any]:
        """Until phase 5 a player may buy a private from another player in a stock turn."""
        return [c for c in self._stock_private_list(game, rnd, pid) if c.owner != pid]

    def _stock_private_list(self, game: Game, rnd: Any, pid: str) -> list[Any]:
        """The site's list of privates in a stock turn: held by other players (never A/B/C or
        the MNR); in phase 2 with `early_buy_of_kcmo` or Baja, the KCMO/CdB whoever holds them,
        the acting player included (so his turn then waits for a pass)."""
        st = game.state
        if (rnd.turn_state.bought or st.player(pid).cash <= 0 or "can_buy_companies_from_other_players"
                not in self.phase_data(game).get("engine_status_flags", [])):
            return []
        players = {p.id for p in st.players}
        if st.phase == "2" and ("early_buy_of_kcmo" in self.options or BAJA in self.options):
            keep = {KCMO} if "early_buy_of_kcmo" in self.options else set()
            keep |= {CDB} if BAJA in self.options else set()
            return [c for c in st.companies.values() if c.id in keep and c.owner in players and not c.closed]
        return [c for c in st.companies.values() if c.owner in players - {pid} and not c.closed
                and c.id not in ("A", "B", "C", "MNR")]

    def extra_stock_kinds(self, game: Game, rnd: Any, pid: str) -> list[str]:
        return ["buy_company"] if self._stock_private_list(game, rnd, pid) else []

    def stock_round(self, game: Game) -> Round:
        from engine.titles.t18mex.stock_round import MexStockRound

        return MexStockRound(game)

    def swap_sale(self, game: Game, corp: Corporation, pid: str, certs: list[Cert], pct: int,
                  swap: str | None = None) -> bool:
        """Selling a 10% NdM share for 5%: the share goes to the pool and a 5% one comes back
        from it; the seller gets the share's price less the 5% one's and the price does not move.
        The site's action sells the 10% (percent 10) and names the pool's 5% (`swap`); without
        it (percent 5) the first 5% of the pool's list. As on the site the 5% moves first."""
        st = game.state
        pool_fives = [c for c in shares.certs_of(corp, MARKET) if c.percent == 5]
        if swap and not any(c.id == swap for c in pool_fives):
            raise EngineError(f"{swap} is not a 5% NdM certificate in the pool.", rule="stock.swap")
        five = next((c for c in pool_fives if c.id == swap or not swap), None)
        if (corp.id != NDM or five is None or len(certs) != 1 or certs[0].percent != 10 or pct != 5
                or certs[0].owner != pid or certs[0].president):
            return False
        shares.move(corp, five, pid)
        shares.move(corp, certs[0], MARKET)
        price = self.share_price(corp)
        amount = price - self.sale_proceeds(corp, price, 5)
        st.player(pid).cash += amount
        st.bank.cash -= amount
        return True

    def end_game(self, game: Game, reason: str) -> None:
        game.state.finished = True
        game.state.end_reason = reason

    def process_stock_extra(self, game: Game, rnd: Any, action: Any) -> bool:
        if action.type == "end_game":
            self.end_game(game, "manually_ended")
            rnd.finished = True
            return True
        if action.type != "buy_company":
            return False
        pid = str(action.entity)
        if pid != rnd.player_id():
            raise EngineError(f"It is {game.player_name(rnd.player_id())}'s turn in the stock round, "
                              f"not {game.player_name(pid)}'s.", rule="turn.wrong_player")
        company = game.state.companies.get(action.company)
        if company is None or company not in self.tradeable_companies(game, rnd, pid):
            raise EngineError(f"You cannot buy {action.company} from another player now.", rule="stock.buy_company")
        if not 1 <= action.price <= game.state.player(pid).cash:
            raise EngineError(f"Pay between $1 and your cash for {company.id}.", rule="stock.buy_company")
        seller = game.state.player(str(company.owner))
        game.state.player(pid).cash -= action.price
        seller.cash += action.price
        company.owner = pid
        rnd.turn_state.bought = True
        return True

    def _ndm_half_sales(self, game: Game, rnd: Any, pid: str) -> list[str]:
        """5% sales of NdM: a 5% certificate alone, or a 10% share swapped for a pool 5%."""
        corp = game.state.corporations.get(NDM)
        if corp is None or not corp.ipoed or rnd.sell_error(pid, corp, 5) is not None:
            return []
        out = []
        held = shares.certs_of(corp, pid)  # as the site's bundles: his first 5%, his first 10%
        five = next((c for c in held if c.percent == 5), None)
        if five is not None:
            out.append(five.id)
        ten = next((c for c in held if c.percent == 10 and not c.president), None)
        if ten is not None and any(c.owner == MARKET and c.percent == 5 for c in corp.certs):
            out.append(ten.id)
        return out

    # ------------------------------------------------------------ sales and bankruptcy
    def declare_bankruptcy(self, game: Game, pid: str) -> None:
        """As on the site, the player sells once for each company his largest bundle the forced
        purchase rules allow (`sale_options`); his cash goes to the bank and the game ends."""
        from engine.flow.stock import sell_certs

        st = game.state
        player = st.player(pid)
        rnd = game.round
        operating = rnd.corp() if isinstance(rnd, OperatingRound) else None
        for corp in list(st.corporations.values()):
            if corp.kind != "corporation" or corp.cell is None:
                continue
            options = self.sale_options(game, corp, pid, operating)
            if options:
                certs, pct = max(options, key=lambda o: o[1])
                sell_certs(game, corp, pid, certs, pct)
        st.bank.cash += player.cash
        player.cash = 0
        player.bankrupt = True
        self.end_game(game, "bankrupt")

    def sale_options(self, game: Game, corp: Corporation, pid: str,
                     operating: Corporation | None) -> list[tuple[list[Cert], int]]:
        """The bundles of `corp` that `pid` may sell in one go while raising cash for
        `operating`'s forced purchase, as the site forms them: his ordinary certificates, fewest
        first, then with his president's certificate (also for 10% less, a 10% share coming
        back) if another player holds enough to take it and then holds more than him; an NdM 5%
        certificate alone. None may overfill the pool, nor cost him the presidency of the
        company buying the train."""
        st = game.state
        held = shares.certs_of(corp, pid)  # in acquisition order, as the site's bundles
        pres = next((c for c in held if c.president), None)
        tens = [c for c in held if not c.president and c.percent != 5]
        bundles: list[tuple[list[Cert], int]] = [(tens[:n], 10 * n) for n in range(1, len(tens) + 1)]
        if pres is not None:
            total = 10 * len(tens) + pres.percent
            bundles += [(tens + [pres], total - 10), (tens + [pres], total)]
        five = next((c for c in held if c.percent == 5), None)
        if five is not None:
            bundles.append(([five], 5))
        room = self.pool_limit() - shares.percent(corp, MARKET)
        # holdings as the presidency checks count them (shares.counted)
        others = max((shares.counted(corp, p.id) for p in st.players if p.id != pid), default=0)
        mine = shares.counted(corp, pid)
        out = []
        for certs, pct in bundles:
            if pct > room or (pres in certs and others < pres.percent):
                continue
            if pres in certs and others <= mine - pct:
                continue  # he would stay the largest holder: the president's certificate stays
            if corp is operating and pres is not None and mine - pct < others:
                continue
            out.append((certs, pct))
        return out

    def largest_sale(self, game: Game, corp: Corporation, pid: str, operating: Corporation | None) -> int:
        """The percent of the largest bundle in `sale_options` (0 if none)."""
        return max((pct for _, pct in self.sale_options(game, corp, pid, operating)), default=0)

    def presidency_swap_pick(self, corp: Corporation, held: list[Cert], count: int) -> list[Cert]:
        """As on the site: the new president's largest certificates first, so that a 5% NdM
        one goes only when he has too few 10% ones; among equal ones the latest acquired first."""
        return sorted(reversed(held), key=lambda c: -c.percent)[:count]

    def sale_proceeds(self, corp: Corporation, price: int, pct: int) -> int:
        return math.ceil(price * pct / 10)  # a 5% NdM certificate fetches half a share, rounded up

    def move_on_sale(self, game: Game, corp: Corporation, pct: int, bundle: tuple[str, ...] = ()) -> None:
        if corp.cell is not None:
            mk.move(game.state, corp, self.market.down(corp.cell, pct // 10))
