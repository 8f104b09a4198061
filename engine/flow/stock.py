"""The stock round: buy one certificate and sell any, in turn order, until all pass.

The share moves it makes (a sale's bundle and its settling, placing a par) are in
engine/flow/share_moves.py, re-exported here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.flow.asked import AskedCounts
from engine.flow.base import Round
from engine.flow.share_moves import find_cert, par_place, sale_bundle, sell_certs
from engine.state import IPO, MARKET, Cert, Corporation

if TYPE_CHECKING:
    from collections.abc import Iterator

    from engine.game import Game
    from engine.title import Title

__all__ = ["StockRound", "Turn", "par_place", "sale_bundle", "sell_certs"]


@dataclass
class Turn:
    bought: bool = False
    sold: bool = False
    sold_before_buy: bool = False
    acted: bool = False
    sold_corps: list[str] = field(default_factory=list)


class StockRound(Round, AskedCounts):
    kind = "stock"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        st = game.state
        game.turn += 1
        self.number = game.turn
        self.index = st.priority % len(st.players)
        self.passes = 0
        self.last_actor: int | None = None
        self.sold_this_round: dict[str, set[str]] = {p.id: set() for p in st.players}
        self.turn_state = Turn()
        # players passed over for having nothing to do, since the last action began (the
        # story tells them: engine/events.py)
        self.skipped: list[str] = []
        game.title.on_stock_round_start(game, self)
        self._settle()

    # ------------------------------------------------------------ helpers
    @property
    def title(self) -> Title:
        return self.game.title

    def name(self) -> str:
        return f"Stock Round {self.number}"

    def current(self) -> tuple[str, str]:
        return (self.game.state.players[self.index].id, "player")

    def player_id(self) -> str:
        return self.current()[0]

    def first_round_no_sales(self) -> bool:
        return bool(self.title.no_sell_first_sr and self.number == 1)

    def must_sell(self, pid: str) -> bool:
        return self.count_now(pid) > self.limit_now()

    # ------------------------------------------------------------ what is legal
    def kinds(self) -> list[str]:
        return self.asking(self._kinds)  # (nothing changes while it is asked)

    def _kinds(self) -> list[str]:
        pid = self.player_id()
        if self.game.state.player(pid).bankrupt:
            return []
        out: list[str] = []
        sellable: bool | None = None  # asked once: nothing changes between the two questions
        if self.must_sell(pid):
            sellable = self.sellable(pid)
            if sellable:
                return ["sell_shares"]
        if not self.turn_state.bought:
            if self.buyable(pid):
                out.append("buy_shares")
            if self.parable(pid):
                out.append("par")
        if sellable if sellable is not None else self.sellable(pid):
            out.append("sell_shares")
        out.extend(self.title.extra_stock_kinds(self.game, self, pid))
        if out:
            out.append("pass")
        return out

    def has_moves(self) -> bool:
        """Whether the player has a move besides passing (kinds() holds one), stopping at the
        first found where the kinds are the common ones."""
        if type(self).kinds is not StockRound.kinds:
            return any(k != "pass" for k in self.kinds())
        return self.asking(self._has_moves)

    def _has_moves(self) -> bool:
        """Whether the common kinds (StockRound.kinds) hold a move besides passing."""
        pid = self.player_id()
        if self.game.state.player(pid).bankrupt:
            return False
        # as _kinds: a sale (whether he must sell or may), a purchase or a par before he has
        # bought, or a title's own kind
        if self.sellable(pid) or (not self.turn_state.bought and (self.buyable(pid) or self.parable(pid))):
            return True
        return bool(self.title.extra_stock_kinds(self.game, self, pid))

    def price_for(self, cert: Cert, corp: Corporation) -> int:
        if cert.owner == MARKET:
            return self.title.share_price(corp)
        return corp.par or 0

    def buy_error(self, pid: str, corp: Corporation, cert: Cert) -> str | None:
        """Why `pid` may not buy `cert` now (None = allowed)."""
        g, t = self.game, self.title
        if self.turn_state.bought:
            return "You have already bought a certificate this turn."
        if not corp.ipoed:
            return f"{corp.id} has not been started yet: its president's certificate must be bought first (par)."
        if cert.owner not in (IPO, MARKET):
            return f"That {corp.id} certificate is not for sale."
        if corp.id in self.sold_this_round.get(pid, set()):
            return f"You sold {corp.id} this round, so you may not buy it again until the next stock round."
        err = t.extra_buy_error(g, self, pid, corp, cert)
        if err:
            return err
        held = shares.percent(corp, pid)
        if held + cert.percent > t.max_percent(corp) and not t.may_exceed_max(g, corp, cert):
            return f"You may not hold more than {t.max_percent(corp)}% of {corp.id}."
        if (
            t.counts_for_cert_limit(g, corp)
            and t.cert_counts(corp, cert)
            and self.count_now(pid) + 1 > self.limit_now()
        ):
            return f"You are at the certificate limit ({t.cert_limit(g)})."
        price = self.price_for(cert, corp) * cert.percent // 10
        if g.state.player(pid).cash < price:
            return f"You cannot afford {corp.id} (${price}); you have ${g.state.player(pid).cash}."
        return None

    def buyable_certs(self, pid: str) -> list[tuple[Cert, int]]:
        return list(self._buyable(pid))

    def _buyable(self, pid: str) -> Iterator[tuple[Cert, int]]:
        for corp in self.game.state.corporations.values():
            if corp.kind != "corporation" or not corp.ipoed or corp.closed:
                continue
            seen: set[tuple[str, int, bool]] = set()
            for cert in corp.certs:
                key = (cert.owner, cert.percent, cert.president)
                if cert.owner not in (IPO, MARKET) or cert.president or key in seen:
                    continue
                seen.add(key)
                if self.buy_error(pid, corp, cert) is None:
                    yield (cert, self.price_for(cert, corp) * cert.percent // 10)

    def buyable(self, pid: str) -> bool:
        """bool(buyable_certs(pid)), stopping at the first certificate found."""
        return next(self._buyable(pid), None) is not None

    def par_cells(self, pid: str, corp: Corporation) -> list[str]:
        return self.title.par_cells_for(self.game, pid, corp)

    def parable(self, pid: str) -> bool:
        if self.turn_state.bought:
            return False
        return any(self.par_error(pid, c.id, None) is None for c in self.game.state.corporations.values()
                   if c.kind == "corporation")

    def par_error(self, pid: str, corp_id: str, cell_id: str | None) -> str | None:
        g, t = self.game, self.title
        corp = g.state.corporations.get(corp_id)
        if corp is None or corp.kind != "corporation":
            return f"There is no corporation {corp_id}."
        if self.turn_state.bought:
            return "You have already bought a certificate this turn."
        err = t.par_error(g, self, pid, corp)
        if err:
            return err
        if corp.ipoed:
            return f"{corp.id} has already been started."
        if self.count_now(pid) + 1 > self.limit_now():
            return f"You are at the certificate limit ({t.cert_limit(g)})."
        cells = self.par_cells(pid, corp)
        cash = g.state.player(pid).cash
        pres = shares.president_cert(corp)
        if cell_id is None:
            ok = [c for c in cells if t.market.price(t.market.parse_cell_id(c)) * pres.percent // 10 <= cash]
            return None if ok else f"You cannot afford to start {corp.id}."
        if cell_id not in cells:
            vals = ", ".join(f"${t.market.price(t.market.parse_cell_id(c))}" for c in cells)
            return f"{cell_id.split(',')[0]} is not a par value you may choose for {corp.id} (choose {vals})."
        cost = t.market.price(t.market.parse_cell_id(cell_id)) * pres.percent // 10
        if cost > cash:
            return f"Starting {corp.id} there costs ${cost}; you have ${cash}."
        return None

    def sell_options(self, pid: str) -> list[tuple[str, list[int]]]:
        out = []
        for corp in self.game.state.corporations.values():
            held = shares.percent(corp, pid)
            if not held or corp.kind != "corporation":
                continue
            opts = [p for p in range(10, held + 1, 10) if self.sell_error(pid, corp, p) is None]
            if opts:
                out.append((corp.id, opts))
        return out

    def sellable(self, pid: str) -> bool:
        """bool(sell_options(pid)), stopping at the first sale found."""
        for corp in self.game.state.corporations.values():
            held = shares.percent(corp, pid)
            if not held or corp.kind != "corporation":
                continue
            if any(self.sell_error(pid, corp, p) is None for p in range(10, held + 1, 10)):
                return True
        return False

    def sell_error(self, pid: str, corp: Corporation, pct: int, certs: list[Cert] | None = None) -> str | None:
        g, t = self.game, self.title
        if self.first_round_no_sales():
            return "No one may sell certificates in the first stock round."
        if self.turn_state.sold_before_buy and self.turn_state.bought:
            return "You have sold and then bought this turn; you may not sell again (never sell-buy-sell)."
        if not t.sell_after_buy and self.turn_state.bought:
            return "You may not sell after buying in the same turn."
        err = t.sell_error(g, self, pid, corp)
        if err:
            return err
        held = shares.percent(corp, pid)
        if pct <= 0 or pct > held:
            return f"You hold only {held}% of {corp.id}."
        if shares.percent(corp, MARKET) + pct > t.pool_limit():
            return f"The open market may not hold more than {t.pool_limit()}% of {corp.id}."
        pres = shares.president_cert(corp)
        # the certificate leaves his hands if his holding drops below it or if the sale names it
        # (a partial sale: as on the site, refused unless someone could take it over too)
        if pres.owner == pid and (held - pct < pres.percent or (certs and pres in certs)):
            others = [shares.counted(corp, p.id) for p in g.state.players if p.id != pid]
            if max(others, default=0) < pres.percent:
                return (f"You may not sell the {corp.id} president's certificate: no other player "
                        f"holds {pres.percent}% to take over.")
        return None

    # ------------------------------------------------------------ processing
    def process(self, action: Any) -> None:
        self.skipped = []
        pid = str(action.entity)
        if not any(p.id == pid for p in self.game.state.players):
            raise EngineError(
                f"It is {self.game.player_name(self.player_id())}'s turn in the stock round, "
                f"not {pid}'s.", rule="turn.wrong_player")
        if action.type in self.title.extra_stock_kinds(self.game, self, pid) or (
            action.type not in ("buy_shares", "par", "sell_shares", "pass")
        ):
            if self.title.process_stock_extra(self.game, self, action):
                self._after_action(acted=True)
                return
            raise EngineError(f"You cannot {action.type.replace('_', ' ')} during a stock round.",
                              rule="stock.kind")
        if pid != self.player_id():
            raise EngineError(
                f"It is {self.game.player_name(self.player_id())}'s turn in the stock round, "
                f"not {self.game.player_name(pid)}'s.",
                rule="turn.wrong_player",
            )
        # (a refusal only: not asked again of a log accepted once, see Game.checking)
        if (self.game.checking and action.type != "sell_shares" and self.must_sell(pid)
                and self.sellable(pid)):
            raise EngineError(
                f"You hold more than {self.title.cert_limit(self.game)} certificates and must sell first.",
                rule="stock.must_sell",
            )
        if action.type == "pass":
            self.passes += 1
            self._end_turn(passed=not self.turn_state.acted)
            return
        getattr(self, f"_do_{action.type}")(pid, action)
        self._after_action(acted=True)

    def _after_action(self, acted: bool) -> None:
        self.turn_state.acted = True
        self.last_actor = self.index
        self.passes = 0
        pid = self.player_id()
        # the turn ends by itself when nothing more is possible
        if not self.has_moves():
            self._end_turn(passed=False)
        else:
            self._settle_current(pid)

    def _settle_current(self, pid: str) -> None:
        pass

    def _end_turn(self, passed: bool) -> None:
        if not passed:
            self.passes = 0
        self.turn_state = Turn()
        self._next_player()

    def _next_player(self) -> None:
        n = len(self.game.state.players)
        if self.passes >= self._active_count():
            self._finish()
            return
        self.index = (self.index + 1) % n
        self._settle()

    def _active_count(self) -> int:
        return sum(1 for p in self.game.state.players if not p.bankrupt)

    def _settle(self) -> None:
        """Skip players who can do nothing (each counts as a pass)."""
        guard = 0
        while not self.finished and not self.has_moves():
            self.skipped.append(self.player_id())
            self.passes += 1
            guard += 1
            if self.passes >= self._active_count() or guard > 4 * len(self.game.state.players):
                self._finish()
                return
            self.index = (self.index + 1) % len(self.game.state.players)

    def _finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        g, st = self.game, self.game.state
        if self.last_actor is not None:
            st.priority = (self.last_actor + 1) % len(st.players)
        self.title.end_of_stock_round(g, self)

    # ---- actions
    def _do_par(self, pid: str, action: Any) -> None:
        # (refusals only: not asked again of a log accepted once, see Game.checking)
        err = self.par_error(pid, action.corporation, action.share_price) if self.game.checking else None
        if err:
            raise EngineError(err, rule="stock.par")
        g, t = self.game, self.title
        corp = g.state.corporations[action.corporation]
        cell = t.market.parse_cell_id(action.share_price)
        t.do_par(g, self, pid, corp, cell)
        self.turn_state.bought = True
        if self.turn_state.sold:
            self.turn_state.sold_before_buy = True

    def _do_buy_shares(self, pid: str, action: Any) -> None:
        g, t = self.game, self.title
        if not action.shares:
            raise EngineError("Name the certificate to buy.", rule="stock.buy")
        cert = self._find_cert(action.shares[0], want_owner=(IPO, MARKET))
        corp = g.state.corporations[cert.corp]
        if cert.president and not corp.ipoed:
            raise EngineError(f"Start {corp.id} with a par action to buy its president's certificate.",
                              rule="stock.buy")
        err = self.buy_error(pid, corp, cert) if g.checking else None  # (as in _do_par)
        if err:
            raise EngineError(err, rule="stock.buy")
        price = self.price_for(cert, corp) * cert.percent // 10
        t.do_buy_cert(g, self, pid, corp, cert, price, action)
        self.turn_state.bought = True
        if self.turn_state.sold:
            self.turn_state.sold_before_buy = True

    def _find_cert(self, cert_id: str, want_owner: tuple[str, ...] | None = None,
                   holder: str | None = None) -> Cert:
        return find_cert(self.game, cert_id, want_owner, holder)

    def _do_sell_shares(self, pid: str, action: Any) -> None:
        g, t = self.game, self.title
        if len(action.shares) == 1 and action.shares[0] in g.state.corporations:
            # "sell 20% of GMO": the engine picks the certificates
            named = g.state.corporations[action.shares[0]]
            if not action.percent:
                raise EngineError("Say how many percent to sell.", rule="stock.sell")
            certs = shares.pick_for_sale(named, pid, action.percent)
            if not certs:
                raise EngineError(f"You hold no {named.id} shares.", rule="stock.sell")
        else:
            certs = [self._find_cert(s, holder=pid) for s in action.shares]
        corps = {c.corp for c in certs}
        if len(corps) != 1:
            raise EngineError("Sell certificates of one corporation at a time.", rule="stock.sell")
        corp = g.state.corporations[corps.pop()]
        pct = action.percent or sum(c.percent for c in certs)
        err = self.sell_error(pid, corp, pct, certs) if g.checking else None  # (as in _do_par)
        if err:
            raise EngineError(err, rule="stock.sell")
        sell_certs(g, corp, pid, certs, pct)
        self.sold_this_round.setdefault(pid, set()).add(corp.id)
        self.turn_state.sold = True
        self.turn_state.sold_corps.append(corp.id)
        t.after_sell(g, corp, pct)
