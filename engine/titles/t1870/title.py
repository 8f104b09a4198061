"""1870 (Bill Dixon): the title's hooks over the common rules. Facts are in the JSON files beside
this module; the rule choices that follow the 18xx.games logs are in RULES.md.

This module holds setup, the round sequence, certificates and limits, the stock-round hooks,
dividends and the operating-round hooks; the rest is in mixins: destinations.py (destination
tokens, station wars, connection runs), privates.py (route bonuses, privates, the river),
trains.py (open market, forced purchases, diesels), emergency.py (the president's sales to fund
a forced purchase, bankruptcy's reach). Round classes are in rounds.py (auction, stock round) and
operating_round.py, price protection in protection.py, the market zones in market.py, 1870's
part of the legal answer in legal.py."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares
from engine.errors import EngineError
from engine.state import IPO, MARKET, Corporation, Player, State
from engine.title import Title
from engine.titles.t1870 import market as zones
from engine.titles.t1870.destinations import DestinationRules
from engine.titles.t1870.emergency import EmergencySales1870
from engine.titles.t1870.ids import CATTLE, PORT
from engine.titles.t1870.privates import PrivateRules
from engine.titles.t1870.state import Corp1870, Sale, State1870, corp1870, state1870
from engine.titles.t1870.trains import TrainRules1870, diesel_data

if TYPE_CHECKING:
    from engine.flow.base import Round
    from engine.flow.operating import OperatingRound
    from engine.game import Game


class Title1870(DestinationRules, PrivateRules, TrainRules1870, EmergencySales1870, Title):
    name = "1870"
    bankruptcy_allowed = True
    companies_bought_any_time = True
    dividend_kinds = ("payout", "half", "withhold")
    market_shares_pay_corporation = False

    def __init__(self, options: tuple[str, ...] = ()) -> None:
        super().__init__(options)
        if "diesels" in self.options:
            self.data = diesel_data(self.data)
            self.train_specs = {t["name"]: t for t in self.data.trains}
            self.phase_names = [p["name"] for p in self.data.phases]
        if self.option("original_market"):  # 1832/1850 market: three cells change zone
            for cell in self.data.market.get("variant_cells", {}).get("original_market", []):
                self.market.cell_types[(cell["row"], cell["col"])] = tuple(cell["types"])

    def option(self, name: str) -> bool:
        """An optional rule is on (`original_rules` turns on every one of Dixon's originals)."""
        originals = ("station_wars", "original_tiles", "max_reissue_200", "can_protect_if_sold",
                     "original_market")
        return name in self.options or (name in originals and "original_rules" in self.options)

    # ------------------------------------------------------------ setup
    def setup(self, game: Game) -> State:
        data = self.data
        unlimited = [t for t in data.trains if "ids" in t and "ids" not in t["ids"]]
        for t in unlimited:  # the 12-train: one card per id, as many as the bank will sell
            t["ids"]["ids"] = [f"{t['name']}-{i}" for i in range(int(t.get("max_count", 12)))]
        st = super().setup(game)
        if self.option("original_tiles"):  # the smaller original tile set
            for tile in data.tiles.values():
                removed = tile.extra.get("original_tiles_variant", {}).get("removed_copies", [])
                st.tile_supply[tile.name] = [c for c in st.tile_supply[tile.name] if c not in removed]
        for corp in st.corporations.values():
            spec = next(c for c in data.corporations if c["id"] == corp.id)
            corp.title_state = Corp1870(destination=spec["destination"]["hex"])  # marker still on the map
        st.title_state = State1870()
        self._logged_checks = None
        self._checks_made = []  # connection checks computed for the action in progress
        self._board_for = None
        self._count_as_protected = False
        self._sale_context: tuple[str | None, str | None] = (None, None)
        return st

    def first_round(self, game: Game) -> Round:
        from engine.titles.t1870.rounds import Auction1870

        return Auction1870(game)

    def stock_round(self, game: Game) -> Round:
        from engine.titles.t1870.rounds import StockRound1870

        return StockRound1870(game)

    def operating_round(self, game: Game, round_num: int) -> Round:
        from engine.titles.t1870.operating_round import OperatingRound1870

        return OperatingRound1870(game, round_num)

    def next_round(self, game: Game, finished: Round) -> Round | None:
        st = game.state
        if st.finished:
            return None
        if finished.kind in ("auction", "draft"):
            return self.stock_round(game)
        if finished.kind == "stock":
            if self.dead_end(game, finished):
                st.finished = True
                st.end_reason = "no_moves"
                return None
            state1870(game).ors_in_set = int(self.phase_data(game)["operating_rounds_per_set"])
            return self.operating_round(game, 1)
        from engine.titles.t1870.operating_round import OperatingRound1870

        rnd = finished
        assert isinstance(rnd, OperatingRound1870)  # 1870's rounds: auction, stock, operating
        last = rnd.round_num >= int(state1870(game).ors_in_set)
        if last and state1870(game).bank_broken:
            st.end_reason = "bank"
            return None
        if not last:
            return self.operating_round(game, rnd.round_num + 1)
        return self.stock_round(game)

    def legal_extras(self, game: Game, base: dict[str, Any]) -> None:
        """1870's own decisions in the legal answer (see legal.py)."""
        from engine.titles.t1870.legal import legal_extras

        legal_extras(game, base)

    def dead_end(self, game: Game, rnd: Any) -> bool:
        """Nothing can ever change again: nobody acted in this stock round nor could buy, par or
        sell, no corporation is left to operate and no private pays anything (e.g. every
        corporation has closed). The engine then ends the game (reason `no_moves`) instead of
        cycling empty rounds forever."""
        st = game.state
        if getattr(rnd, "last_actor", None) is not None or state1870(game).sell_queue:
            return False
        if any(c.floated and not c.closed for c in st.corporations.values()):
            return False
        if any(c.owner is not None and not c.closed and c.revenue for c in st.companies.values()):
            return False
        return not any(rnd.buyable(p.id) or rnd.parable(p.id) or rnd.sellable(p.id)
                       for p in st.players if not p.bankrupt)

    # ------------------------------------------------------------ bank
    def bank_pays(self, game: Game, amount: int) -> None:
        """Money out of the bank; paying more than it holds breaks it (the payment still happens)."""
        st = game.state
        if amount > st.bank.cash:
            state1870(game).bank_broken = True
        st.bank.cash -= amount

    # ------------------------------------------------------------ certificates and limits
    def corporations_left(self, game: Game) -> int:
        return sum(1 for c in game.state.corporations.values() if not c.closed)

    def cert_limit(self, game: Game) -> int:
        """By player count and corporations left (10, 9; Dixon's original rules add an 8 column)."""
        key_name = "cert_limit_original_rules_variant" if "original_rules" in self.options else "cert_limit"
        table = self.data.meta[key_name][str(len(game.players))]
        left = self.corporations_left(game)
        keys = sorted(int(k) for k in table)
        key = next((k for k in keys if k >= left), keys[-1])
        key = max(key, keys[0])
        return int(table[str(key)])

    def counts_for_cert_limit(self, game: Game, corp: Corporation) -> bool:
        if corp.closed:
            return False
        if corp.cell is not None and any(z in zones.NO_LIMIT for z in zones.zone(game, corp.cell)):
            return False
        # a sale waiting for price protection that would take the price into a free zone; while
        # a protection's room is checked every holding counts as if protected (as the site)
        if getattr(self, "_count_as_protected", False):
            return True
        for sale in state1870(game).sell_queue:
            if sale.corp == corp.id:
                cell = zones.drop_cell(game, corp, sale.pct // 10)
                if any(z in zones.NO_LIMIT for z in zones.zone(game, cell)):
                    return False
        return True

    def cert_counts(self, corp: Corporation, cert: Any) -> bool:
        return True

    def may_hold_above_60(self, game: Game, corp: Corporation) -> bool:
        return any(z in zones.ABOVE_60 for z in zones.zone(game, corp.cell))

    def may_exceed_max(self, game: Game, corp: Corporation, cert: Any) -> bool:
        return self.may_hold_above_60(game, corp)

    def treasury_certs(self, corp: Corporation) -> list[Any]:
        """Unsold (IPO) and redeemed (held by the corporation, unbuyable) certificates."""
        return [c for c in corp.certs if c.owner in (IPO, corp.id)]

    def sold_out(self, corp: Corporation) -> bool:
        """No certificate in the offering or the market; or, while a protection that took the
        president's certificate back has left the players counting other than they hold
        (shares.counted), as on the site: the players' counted holdings plus the redeemed
        shares in its treasury make exactly 100%, wherever the other certificates are."""
        if sum(corp.uncounted.values()):
            players = ({str(c.owner) for c in corp.certs} | set(corp.uncounted)) - {IPO, MARKET, corp.id}
            return (sum(shares.counted(corp, p) for p in players)
                    + shares.percent(corp, corp.id)) == 100
        return all(c.owner not in (IPO, MARKET) for c in corp.certs)

    def player_value(self, game: Game, player: Player) -> int:
        st = game.state
        value = player.cash
        for corp in st.corporations.values():
            if corp.closed or corp.cell is None:
                continue
            value += math.ceil(shares.percent(corp, player.id) * self.share_price(corp) / 10)
        value += sum(c.value for c in st.companies.values() if c.owner == player.id and not c.closed)
        return value

    # ------------------------------------------------------------ stock hooks
    def par_error(self, game: Game, rnd: Any, pid: str, corp: Corporation) -> str | None:
        if corp.closed:
            return f"{corp.id} has closed and may never be restarted."
        if corp.id == "SLSF":
            return "The SLSF president's certificate is the SLSF private company: it is bought in the auction."
        return None

    def do_buy_cert(self, game: Game, rnd: Any, pid: str, corp: Corporation, cert: Any,
                    price: int, action: Any) -> None:
        st = game.state
        from_ipo = cert.owner == IPO
        st.player(pid).cash -= price
        if from_ipo and corp.id in state1870(game).reissued:
            corp.cash += price  # incremental after a reissue
        else:
            st.bank.cash += price
        shares.move(corp, cert, pid)
        shares.update_presidency(corp, [p.id for p in st.players], shares.president(corp),
                                 self.presidency_swap_pick)
        self.float_check(game, corp)

    def move_on_sale(self, game: Game, corp: Corporation, pct: int, bundle: tuple[str, ...] = ()) -> None:
        """A sale does not move the price yet: it waits in the price-protection queue with the
        certificates sold (`bundle`, what a protection buys back). The bank has just paid the
        seller: proceeds it could not cover break it (as any payment)."""
        st = game.state
        if st.bank.cash < 0:
            state1870(game).bank_broken = True
        seller, pres = getattr(self, "_sale_context", (None, None))
        state1870(game).sell_queue.append(
            Sale(corp=corp.id, pct=pct, president=pres, seller=seller, certs=list(bundle)))

    def end_of_stock_round(self, game: Game, rnd: Any) -> None:
        st = game.state
        corps = [c for c in st.corporations.values() if c.cell is not None and not c.closed and c.floated]
        corps.sort(key=lambda c: mk.order_key(st, self.market, c))
        for corp in corps:
            if self.sold_out(corp):
                zones.sold_out_move(game, corp)

    def after_price_move(self, game: Game, corp: Corporation) -> None:
        """A price at $0 closes the company only when the action is over (`action_processed`),
        as on the site; a price of $400 ends the game at once where that option is on."""
        if (corp.cell is not None and "finish_on_400" in self.options
                and self.market.price(corp.cell) >= 400):
            game.state.finished = True
            game.state.end_reason = "stock_market"

    def closing(self, game: Game, corp: Corporation) -> bool:
        """Open, with its price in a black $0 cell: it closes when the action is over."""
        # (asked of every company after every action: the market's cell types read directly)
        return not corp.closed and corp.cell is not None and corp.cell in self.market.cells_of("close")

    def close_at_zero(self, game: Game) -> list[Corporation]:
        """Close every company at $0, in the order of the charter list."""
        # (asked after every action: `closing` inline, the black cells found once; a company
        # without a price, cell None, is in none of them)
        black = self.market.cells_of("close")
        at_zero = [c for c in game.state.corporations.values() if c.cell in black and not c.closed]
        for corp in at_zero:
            self.close_corporation(game, corp)
        return at_zero

    def action_over(self, game: Game) -> None:
        """The connection checks logged with the action are used up by now (the next action
        notes its own, engine/titles/t1870/destinations.py): none kept between actions, as a
        live move (which carries none) leaves it."""
        self._logged_checks = None

    def action_processed(self, game: Game) -> None:
        """At the end of every action each company whose price is in a black $0 cell closes, in
        the order of the charter list; the round then moves past anyone left with nothing to do
        (a protection of a closed company, the closed company's own turn)."""
        at_zero = self.close_at_zero(game)
        after = getattr(game.round, "after_closing", None)
        if at_zero and after is not None:
            after()

    def close_corporation(self, game: Game, corp: Corporation) -> None:
        st = game.state
        mk.remove(st, corp)
        corp.closed = True
        extra_slot = self.extra_slot_hex(corp)
        for key, slots in st.city_tokens.items():
            if key == (extra_slot, 0):  # an extra slot goes with its token
                st.city_tokens[key] = [s for s in slots if s != corp.id]
            else:  # a city space stays, open (a squeezed-in space too, until the next upgrade)
                st.city_tokens[key] = [None if s == corp.id else s for s in slots]
        for tok in corp.tokens:
            tok.hex = None
        st.bank.cash += corp.cash
        corp.cash = 0
        for t in self.trains_in_order(game, corp.id):  # in the order it acquired them
            self.to_open_market(game, t)
        for c in st.companies.values():
            if c.owner == corp.id:
                c.closed = True
        for cert in corp.certs:  # as the site: its certificates leave every holder
            cert.owner = IPO
        corp1870(corp).destination = None

    # ------------------------------------------------------------ dividends
    def pay_holders(self, game: Game, corp: Corporation, amount: int) -> None:
        """Shareholders get ceil(shares x amount / 10) each; treasury shares pay the corporation,
        market shares nothing."""
        st = game.state
        per_share = amount / 10
        for p in st.players:
            pct = shares.percent(corp, p.id)
            if pct:
                due = math.ceil(pct / 10 * per_share)
                p.cash += due
                self.bank_pays(game, due)
        pct = shares.percent(corp, IPO) + shares.percent(corp, corp.id)
        if pct:
            due = math.ceil(pct / 10 * per_share)
            corp.cash += due
            self.bank_pays(game, due)

    def payout(self, game: Game, corp: Corporation, revenue: int) -> None:
        self.pay_holders(game, corp, revenue)

    def withhold(self, game: Game, corp: Corporation, revenue: int) -> None:
        corp.cash += revenue
        self.bank_pays(game, revenue)

    def dividend(self, game: Game, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        revenue = rnd.turn.revenue
        if kind not in self.dividend_kinds:
            raise EngineError(f"{kind} is not a dividend choice (payout, half or withhold).",
                              rule="dividend.kind")
        if kind == "payout":
            self.payout(game, corp, revenue)
            if revenue > 0:
                zones.move_right(game, corp)
            else:
                zones.move_left(game, corp)
        elif kind == "half":
            keep = revenue // 20 * 10
            self.withhold(game, corp, keep)
            self.pay_holders(game, corp, revenue - keep)
            if revenue <= 0:
                zones.move_left(game, corp)
            elif keep == 0:  # the holders get the whole revenue (e.g. $10): as a payout (site)
                zones.move_right(game, corp)
        else:
            self.withhold(game, corp, revenue)
            zones.move_left(game, corp)

    def step_kinds(self, game: Game, rnd: OperatingRound, step: str) -> list[str]:
        """As on the site, a corporation with trains whose network offers no route (fewer than
        two revenue stops reachable) does not run: the route step and the dividend (withheld,
        price left) are skipped."""
        kinds = super().step_kinds(game, rnd, step)
        if kinds and step == "route" and not self.has_route(game, rnd.corp()):  # (walked only if it matters)
            return []
        return kinds

    def skip_step(self, game: Game, rnd: OperatingRound, step: str) -> None:
        if step == "dividend":
            zones.move_left(game, rnd.corp())

    # ------------------------------------------------------------ operating round
    def on_operating_round_start(self, game: Game, rnd: OperatingRound) -> None:
        self.pay_companies(game)
        order = self.operating_order(game)
        if order:  # the site checks at the start of the round's first turn
            from engine.titles.t1870.operating_round import OperatingRound1870

            assert isinstance(rnd, OperatingRound1870)
            rnd.conn_runs.extend(self.connection_check(game, rnd, order[0]))

    def start_turn(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        super().start_turn(game, rnd, corp)
        self.turn_check(game, rnd, corp)

    def blocking_company_kinds(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[str]:
        """After buying trains the corporation passes explicitly while it could buy a private, or
        while it holds a private whose token it may still place (the site's blocking step)."""
        if self.anytime_kinds(game, rnd):
            return ["buy_company", "pass"]
        if any(self.assign_left(game, c) for c in game.state.companies.values() if c.owner == corp.id):
            return ["pass"]
        return []

    def assign_left(self, game: Game, company: Any) -> bool:
        if company.closed or company.id not in (CATTLE, PORT):
            return False
        placed = state1870(game).assignments.get(company.id)
        return placed is None or (company.id == PORT and not placed.closed)
