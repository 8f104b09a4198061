"""The Title base: builds the starting state from the title data and holds the hooks that
rounds call. A title subclass overrides only what differs (see engine/titles/*/title.py)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.core.data import TitleData, load_title_data
from engine.core.market import Market
from engine.flow.or_rules import OperatingRules
from engine.state import (
    IPO,
    MARKET,
    Bank,
    Cert,
    Company,
    Corporation,
    Player,
    State,
    Token,
    Train,
)

if TYPE_CHECKING:
    from engine.flow.base import Round
    from engine.game import Game


class Title(OperatingRules):
    name = ""
    # ---- rule constants a title may override
    sell_after_buy = True  # a player may sell after buying in the same turn (not sell-buy-sell)
    no_sell_first_sr = True
    train_limit = 3
    dividend_kinds: tuple[str, ...] = ("payout", "withhold")
    market_shares_pay_corporation = True
    capitalization = "full"
    loan_fee = 0  # what a bank loan to a president costs on top of the sum borrowed (18MS: $50)

    def __init__(self, options: tuple[str, ...] = ()) -> None:
        self.options = options
        self.data: TitleData = load_title_data(self.name)
        self.market = Market(self.data.market)
        self.train_specs = {t["name"]: t for t in self.data.trains}
        self.phase_names = [p["name"] for p in self.data.phases]
        self._phase_index: tuple[list[dict[str, Any]], dict[str, dict[str, Any]]] | None = None

    def option(self, name: str) -> bool:
        """An optional rule is on (a title may make one option imply others)."""
        return name in self.options

    # ------------------------------------------------------------ setup
    def setup(self, game: Game) -> State:
        meta = self.data.meta
        n = len(game.players)
        cash = meta["starting_cash"].get(str(n), 0)
        bank = Bank(meta["bank_cash"] - cash * n)
        players = [Player(pid, name, cash) for pid, name in game.players]
        corps = {c["id"]: self._corporation(c) for c in self.data.corporations}
        for m in self.data.minors:
            corps[m["id"]] = self._corporation(m, kind="minor")
        companies = {
            c["id"]: Company(c["id"], c["name"], c["value"], c["revenue"])
            for c in self.data.companies
        }
        trains: list[Train] = []
        for t in self.data.trains:
            for tid in t["ids"]["ids"]:
                trains.append(Train(tid, t["name"], t["name"], t["price"]))
        state = State(players, corps, companies, trains, bank, phase=self.phase_names[0])
        for name, tile in self.data.tiles.items():
            state.tile_supply[name] = list(tile.copy_ids)
        return state

    def _corporation(self, c: dict[str, Any], kind: str = "corporation") -> Corporation:
        home = (c["home"]["hex"], c["home"].get("city_index", 0)) if c.get("home") else None
        costs = c.get("tokens", {}).get("costs", [])
        certs = [
            Cert(s["id"], c["id"], s["percent"], bool(s.get("president")))
            for s in c.get("shares", [])
        ]
        return Corporation(
            id=c["id"],
            name=c["name"],
            color=c.get("color", "gray"),
            kind=kind,
            home=home,
            tokens=[Token(cost) for cost in costs],
            float_percent=c.get("float_percent", 60),
            certs=certs,
        )

    # ------------------------------------------------------------ flow
    def first_round(self, game: Game) -> Round:
        raise NotImplementedError

    def next_round(self, game: Game, finished: Round) -> Round | None:
        raise NotImplementedError

    def action_processed(self, game: Game) -> None:
        """After every action the round processed, before the next round is settled: a title's
        end-of-action rules (1870 closes the companies at $0 here); default nothing."""

    def action_over(self, game: Game) -> None:
        """After an action and all that followed from it (the rounds settled, its automatic
        actions processed): what a title keeps only while one action is processed is let go,
        so that the state between actions is the same whether the action was made live or
        replayed from the log (a refused live move is rolled back by a replay); default
        nothing."""

    # ------------------------------------------------------------ who controls what
    def take_auto_actions(self, game: Game) -> list[dict[str, Any]]:
        """Automatic actions the rules made while the last action was processed, to be stored
        with it as the site records them (e.g. 1870's connection checks); default none."""
        return []

    def controller(self, game: Game, eid: str, etype: str) -> str | None:
        st = game.state
        if etype == "player":
            return eid
        if etype in ("corporation", "minor") and eid in st.corporations:
            corp = st.corporations[eid]
            if corp.kind == "minor":
                return corp.owner
            return shares.president(corp)
        if etype == "company" and eid in st.companies:
            owner = st.companies[eid].owner
            if owner in st.corporations:
                return shares.president(st.corporations[owner])
            return owner
        return None

    # ------------------------------------------------------------ stock market facts
    def cert_limit(self, game: Game) -> int:
        return int(self.data.meta["cert_limit"][str(len(game.players))])

    def counts_for_cert_limit(self, game: Game, corp: Corporation) -> bool:
        if corp.cell is None:
            return True
        return "no_cert_limit" not in self.market.types(corp.cell)

    def cert_count(self, game: Game, pid: str) -> int:
        st = game.state
        n = 0
        counts = self.cert_counts
        for corp in st.corporations.values():
            held = [c for c in corp.certs if c.owner == pid]
            # (whether a corporation counts is asked only where the player holds some: the
            # titles' answers read the state and change nothing)
            if held and self.counts_for_cert_limit(game, corp):
                n += sum(1 for c in held if counts(corp, c))
        n += sum(1 for c in st.companies.values() if c.owner == pid and not c.closed)
        return n

    def cert_counts(self, corp: Corporation, cert: Cert) -> bool:
        return True

    def max_percent(self, corp: Corporation) -> int:
        return int(self.data.meta.get("max_percent_per_player", 60))

    def pool_limit(self) -> int:
        return int(self.data.meta.get("market_pool_limit_percent", 50))

    def share_price(self, corp: Corporation) -> int:
        return self.market.price(corp.cell) if corp.cell else (corp.par or 0)

    def player_value(self, game: Game, player: Player) -> int:
        st = game.state
        value = player.cash
        for corp in st.corporations.values():
            if corp.closed or corp.cell is None:
                continue
            pct = shares.percent(corp, player.id)
            value += pct * self.share_price(corp) // 10
        value += sum(c.value for c in st.companies.values() if c.owner == player.id and not c.closed)
        return value

    def float_check(self, game: Game, corp: Corporation) -> None:
        """Float a corporation once enough of it has left the initial offering."""
        if corp.floated or not corp.ipoed:
            return
        sold = 100 - shares.percent(corp, IPO)
        if sold >= corp.float_percent:
            corp.floated = True
            if self.capitalization == "full" and corp.par:
                amount = corp.par * 10
                self.bank_pays(game, amount)
                corp.cash += amount
            self.on_float(game, corp)

    def on_float(self, game: Game, corp: Corporation) -> None:
        pass

    # ------------------------------------------------------------ dividends
    def payout(self, game: Game, corp: Corporation, revenue: int) -> None:
        """Pay `revenue` out: each holder gets ceil(percent / 10 * revenue / 10)."""
        st = game.state
        per_share = revenue / 10
        for p in st.players:
            pct = shares.percent(corp, p.id)
            if pct:
                amount = math.ceil(pct / 10 * per_share)
                p.cash += amount
                st.bank.cash -= amount
        if self.market_shares_pay_corporation:
            pct = shares.percent(corp, MARKET)
            if pct:
                amount = math.ceil(pct / 10 * per_share)
                corp.cash += amount
                st.bank.cash -= amount

    def withhold(self, game: Game, corp: Corporation, revenue: int) -> None:
        corp.cash += revenue
        game.state.bank.cash -= revenue

    # ------------------------------------------------------------ phases
    def phase_data(self, game: Game) -> dict[str, Any]:
        phases = self.data.phases
        index = self._phase_index
        if index is None or index[0] is not phases:  # built once per title's phase list
            index = self._phase_index = (phases, {p["name"]: p for p in reversed(phases)})
        found = index[1].get(game.state.phase)
        return found if found is not None else phases[0]

    def tile_colors(self, game: Game) -> tuple[str, ...]:
        return tuple(self.phase_data(game)["tile_colors"])

    # ------------------------------------------------------------ rounds hooks (overridden)
    def stock_round(self, game: Game) -> Round:
        from engine.flow.stock import StockRound

        return StockRound(game)

    def operating_round(self, game: Game, round_num: int) -> Round:
        from engine.flow.operating import OperatingRound

        return OperatingRound(game, round_num)

    # ------------------------------------------------------------ stock round hooks
    def on_stock_round_start(self, game: Game, rnd: Any) -> None:
        pass

    def extra_stock_kinds(self, game: Game, rnd: Any, pid: str) -> list[str]:
        return []

    def process_stock_extra(self, game: Game, rnd: Any, action: Any) -> bool:
        return False

    def extra_buy_error(self, game: Game, rnd: Any, pid: str, corp: Corporation, cert: Cert) -> str | None:
        return None

    def may_exceed_max(self, game: Game, corp: Corporation, cert: Cert) -> bool:
        return False

    def par_cells_for(self, game: Game, pid: str, corp: Corporation) -> list[str]:
        return list(self.market.par_cells)

    def par_error(self, game: Game, rnd: Any, pid: str, corp: Corporation) -> str | None:
        return None

    def sell_error(self, game: Game, rnd: Any, pid: str, corp: Corporation) -> str | None:
        return None

    def do_par(self, game: Game, rnd: Any, pid: str, corp: Corporation, cell: tuple[int, int]) -> None:
        from engine.flow.stock import par_place

        st = game.state
        par_place(game, corp, cell)
        pres = shares.president_cert(corp)
        cost = (corp.par or 0) * pres.percent // 10
        st.player(pid).cash -= cost
        st.bank.cash += cost
        shares.move(corp, pres, pid)
        self.float_check(game, corp)

    def do_buy_cert(self, game: Game, rnd: Any, pid: str, corp: Corporation, cert: Cert,
                    price: int, action: Any) -> None:
        st = game.state
        st.player(pid).cash -= price
        st.bank.cash += price
        shares.move(corp, cert, pid)
        shares.update_presidency(corp, [p.id for p in st.players], shares.president(corp),
                                 self.presidency_swap_pick)
        self.float_check(game, corp)

    def presidency_swap_pick(self, corp: Corporation, held: list[Cert], count: int) -> list[Cert]:
        """The `count` certificates a new president hands over for the president's certificate,
        from his certificates in acquisition order (default: the first acquired)."""
        return shares.first_acquired(corp, held, count)

    def sale_proceeds(self, corp: Corporation, price: int, pct: int) -> int:
        """What the seller of `pct` percent at `price` a share receives."""
        return price * pct // 10

    def after_sell(self, game: Game, corp: Corporation, pct: int) -> None:
        pass

    def move_on_sale(self, game: Game, corp: Corporation, pct: int, bundle: tuple[str, ...] = ()) -> None:
        """The price after a sale of `pct` percent (`bundle`: the certificates sold, in order)."""
        from engine.core import market as mk

        if corp.cell is not None:
            mk.move(game.state, corp, self.market.down(corp.cell, pct // 10))

    def end_of_stock_round(self, game: Game, rnd: Any) -> None:
        """Sold-out corporations rise one row, in operating order."""
        from engine.core import market as mk

        st = game.state
        corps = [c for c in st.corporations.values() if c.cell is not None and c.kind == "corporation"]
        corps.sort(key=lambda c: mk.order_key(st, self.market, c))
        for corp in corps:
            if shares.sold_out(corp) and corp.cell is not None:
                mk.move(st, corp, self.market.up(corp.cell))
