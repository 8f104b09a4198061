"""1870 (Bill Dixon): the title's hooks over the common rules. Facts are in the JSON files beside
this module; the round classes are in rounds.py; the rule choices that follow the 18xx.games logs
are in RULES.md."""

from __future__ import annotations

import copy
import dataclasses
import math
from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares, tiles
from engine.errors import EngineError
from engine.routes.types import Board, NodeRef, RouteRules
from engine.state import IPO, MARKET, Corporation, Player, State, Token, Train
from engine.title import Title
from engine.titles.t1870 import market as zones

if TYPE_CHECKING:
    from engine.flow.base import Round
    from engine.flow.operating import OperatingRound
    from engine.game import Game

RIVER_COMPANY, CATTLE, PORT = "MRBC", "SCC", "GSC"
RIVER_CORPS = ("MP", "SSW")
NO_BUY_COMPANIES = ("SLSF",)
DESTINATION_TOKEN_COST = 100
D_DISTANCE, D_COPIES = 999, 20  # the site's D train: distance 999, 20 cards
D_DISCOUNT = 300  # trading a 4, 5 or 6 in for a D
BLUE_REVENUE_PHASE = "6"  # a standard phase paying the blue off-board values
WALK_BUDGET = 200_000  # link steps of one connection check


class Title1870(Title):
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

    def revenue_phase(self, game: Game) -> str:
        """The phase whose off-board values apply: phase D pays the third (blue) value."""
        phase = game.state.phase
        return BLUE_REVENUE_PHASE if phase == "D" else phase

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
            corp.extra["destination"] = spec["destination"]["hex"]  # marker still on the map
        st.extra.update(
            sell_queue=[],  # [{corp, pct, certs, president, seller}] awaiting price protection
            reissued=[],
            assignments={},  # company -> {"hex", "corp", "closed"}
            river_max=40,
            ors_in_set=1,
            bank_broken=False,
        )
        self._logged_checks: list[list[str]] | None = None
        self._site_log = False  # the log carries the site's own connection checks
        self._board_for: str | None = None
        self._count_as_protected: str | None = None
        self._sale_context: tuple[str | None, str | None] = (None, None)
        return st

    def first_round(self, game: Game) -> Round:
        from engine.titles.t1870.rounds import Auction1870

        return Auction1870(game)

    def stock_round(self, game: Game) -> Round:
        from engine.titles.t1870.rounds import StockRound1870

        return StockRound1870(game)

    def operating_round(self, game: Game, round_num: int) -> Round:
        from engine.titles.t1870.rounds import OperatingRound1870

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
            st.extra["ors_in_set"] = int(self.phase_data(game)["operating_rounds_per_set"])
            return self.operating_round(game, 1)
        rnd: OperatingRound = finished  # type: ignore[assignment]
        last = rnd.round_num >= int(st.extra["ors_in_set"])  # type: ignore[call-overload]
        if last and st.extra["bank_broken"]:
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
        if getattr(rnd, "last_actor", None) is not None or st.extra["sell_queue"]:
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
            st.extra["bank_broken"] = True
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
        # a sale waiting for price protection that would take the price into a free zone
        if corp.id == getattr(self, "_count_as_protected", None):
            return True
        for sale in game.state.extra["sell_queue"]:  # type: ignore[attr-defined]
            if sale["corp"] == corp.id:
                cell = zones.drop_cell(game, corp, sale["pct"] // 10)
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
        if from_ipo and corp.id in st.extra["reissued"]:  # type: ignore[operator]
            corp.cash += price  # incremental after a reissue
        else:
            st.bank.cash += price
        cert.owner = pid
        shares.update_presidency(corp, [p.id for p in st.players], shares.president(corp))
        self.float_check(game, corp)

    def move_on_sale(self, game: Game, corp: Corporation, pct: int) -> None:
        """A sale does not move the price yet: it waits in the price-protection queue."""
        st = game.state
        seller, pres = getattr(self, "_sale_context", (None, None))
        st.extra["sell_queue"].append({  # type: ignore[attr-defined]
            "corp": corp.id, "pct": pct, "president": pres, "seller": seller,
        })

    def end_of_stock_round(self, game: Game, rnd: Any) -> None:
        st = game.state
        corps = [c for c in st.corporations.values() if c.cell is not None and not c.closed and c.floated]
        corps.sort(key=lambda c: mk.order_key(st, self.market, c))
        for corp in corps:
            if self.sold_out(corp):
                zones.sold_out_move(game, corp)

    def after_price_move(self, game: Game, corp: Corporation) -> None:
        if corp.cell is not None and "close" in zones.zone(game, corp.cell):
            self.close_corporation(game, corp)
        if (corp.cell is not None and "finish_on_400" in self.options
                and self.market.price(corp.cell) >= 400):
            game.state.finished = True
            game.state.end_reason = "stock_market"

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
        for t in st.trains:
            if t.owner == corp.id:
                t.owner = None
                t.discarded = True
        for c in st.companies.values():
            if c.owner == corp.id:
                c.closed = True
        corp.extra["destination"] = None

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
        else:
            self.withhold(game, corp, revenue)
            zones.move_left(game, corp)

    def skip_step(self, game: Game, rnd: OperatingRound, step: str) -> None:
        if step == "dividend":
            zones.move_left(game, rnd.corp())

    # ------------------------------------------------------------ operating round
    def on_operating_round_start(self, game: Game, rnd: OperatingRound) -> None:
        self.pay_companies(game)
        rnd.conn_runs.extend(self.connection_check(game, rnd))  # type: ignore[attr-defined]

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
        placed = game.state.extra["assignments"].get(company.id)  # type: ignore[attr-defined]
        return placed is None or (company.id == PORT and not placed["closed"])

    def emergency_sell(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str, action: Any) -> None:
        """The president sells to fund a forced train purchase; only the buying corporation's
        presidency must not change. The sales wait for price protection like any other."""
        from engine.flow.stock import sell_certs

        target, certs, pct = self.emergency_certs(game, rnd, corp, pid, action)
        sold: list[str] = rnd.turn.extra.setdefault("ebuy_sold", [])
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
        others = max((shares.percent(target, p.id) for p in st.players if p.id != pid), default=0)
        pres = shares.president_cert(target)
        if shares.president(target) == pid:
            if target.id == corp.id and others > held - pct:
                return ("ebuy.presidency",
                        f"Selling that would change the presidency of {corp.id}, which is buying the train.")
            if held - pct < pres.percent and others < pres.percent:
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
                others = max((shares.percent(target, p.id) for p in st.players if p.id != pid), default=0)
                pres = shares.president_cert(target)
                if shares.president(target) == pid:
                    if target.id == corp.id and others > held - pct:
                        break
                    if held - pct < pres.percent and others < pres.percent:
                        break
                best = pct
            total += self.share_price(target) * best // 10
        return total

    def bankruptcy_liquidity(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str) -> int:
        return self.emergency_liquidity(game, corp, pid, rnd.turn.extra.get("ebuy_sold", ()))

    def tile_lays(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[dict[str, Any]]:
        return [{"lay": True, "upgrade": True}, {"lay": "not_if_upgraded", "upgrade": False}]

    def track_abilities_block(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """The owner of an unused bridge company's lay passes its track step explicitly."""
        bridge = game.state.companies.get(RIVER_COMPANY)
        return bridge is not None and bridge.owner == corp.id and not bridge.closed and bridge.uses < 1

    def lay_tile(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any, **kw: Any) -> None:
        if action.hex in rnd.turn.laid_hexes:
            raise EngineError(f"{corp.id} has already laid a tile on {action.hex} this turn.",
                              rule="track.same_hex")
        self.allow_old_copy(game, action.tile)
        found = tiles.take_tile(game.state, self.data, action.tile)
        if found is not None:
            err = self.river_error(game, action.hex, found[0], action.rotation)
            if err:
                raise EngineError(err, rule="track.river")
        super().lay_tile(game, rnd, corp, action, **kw)

    def allow_old_copy(self, game: Game, copy_id: str) -> None:
        """Logs from before 2021-04-23 had five copies of #5 and #6: a copy the current manifest
        does not know, and that is nowhere on the map, is taken as an extra copy (follow the log)."""
        name, _, num = copy_id.rpartition("-")
        tile = self.data.tiles.get(name)
        if tile is None or not num.isdigit() or copy_id in tile.copy_ids or tile.count is None:
            return
        if any(p.copy_id == copy_id for p in game.state.tiles.values()):
            return
        supply = game.state.tile_supply.setdefault(name, [])
        if copy_id not in supply and int(num) < 5:
            supply.append(copy_id)

    def river_error(self, game: Game, hex_name: str, tile: Any, rotation: int) -> str | None:
        """While a player holds the Mississippi River Bridge Company no track may cross the river."""
        bridge = game.state.companies.get(RIVER_COMPANY)
        if bridge is None or bridge.closed or bridge.owner is None or bridge.owner in game.state.corporations:
            return None
        parts = self.data.hexes[hex_name].extra.get("partitions") or []
        if not parts:
            return None
        groups = _edge_groups(tile.geometry, rotation)
        for part in parts:
            a, b = set(part["side_a_edges"]), set(part["side_b_edges"])
            stay = part.get("track_must_stay_on")
            for edges, has_node in groups:
                if not (edges <= a or edges <= b):
                    return (f"The Mississippi River Bridge Company is held by a player: track on {hex_name} "
                            "may not cross the river.")
                if has_node and stay == "side_a" and not edges <= a:
                    return f"The city on {hex_name} lies on the other bank: its track may not cross the river."
                if has_node and stay == "side_b" and not edges <= b:
                    return f"The city on {hex_name} lies on the other bank: its track may not cross the river."
        return None

    # ------------------------------------------------------------ tokens
    def destination_uses_city_space(self, dest: str) -> bool:
        """Station wars: a destination token on a map city takes a city space (squeezing in as an
        extra space when the city is full); on an off-board it always sits in an extra slot."""
        return self.option("station_wars") and self.data.hexes[dest].kind != "offboard"

    def extra_slot_hex(self, corp: Corporation) -> str | None:
        """Where the corporation's destination token sits in an extra slot taking no city space."""
        hex_name = corp.extra.get("destination_hex_reached")
        if not isinstance(hex_name, str) or corp.extra.get("destination_in_city"):
            return None
        return hex_name

    def dest_tokens(self, game: Game, hex_name: str, city: int) -> list[str]:
        """Destination tokens in a city that sit in extra slots taking no city space."""
        if city != 0:
            return []
        return [c.id for c in game.state.corporations.values()
                if not c.closed and self.extra_slot_hex(c) == hex_name]

    def tokens_in(self, game: Game, hex_name: str, city: int) -> list[str | None]:
        """The city's spaces (a space squeezed in by station wars, or left open by a closed
        corporation in it, counts until the next upgrade), then its extra-slot tokens."""
        slots = self.city_slots(game, hex_name, city)
        extras = self.dest_tokens(game, hex_name, city)
        cur = [s for s in game.state.city_tokens.get((hex_name, city), []) if s not in extras]
        return [*cur, *[None] * max(0, slots - len(cur)), *extras]

    def move_tokens_on_upgrade(self, game: Game, hex_name: str) -> None:
        """Tokens keep their spaces on the new tile; when squeezed-in spaces are over the new
        city's size the tokens fill its spaces in order and only what is still left over stays
        squeezed in."""
        st = game.state
        for (h, c) in list(st.city_tokens):
            if h != hex_name:
                continue
            extras = self.dest_tokens(game, h, c)
            cur = [s for s in st.city_tokens[(h, c)] if s not in extras]
            n = self.city_slots(game, h, c)
            if len(cur) > n:
                cur = [s for s in cur if s is not None]
            st.city_tokens[(h, c)] = [*cur, *[None] * max(0, n - len(cur)), *extras]

    def board(self, game: Game) -> Board:
        """Others' destination tokens are left out: they take no city space, so they never
        block a city (a corporation's own destination token is a station for it)."""
        board = super().board(game)
        me = getattr(self, "_board_for", None)
        if me is None and game.round.kind == "operating" and not game.round.finished:
            me = game.round.current()[0]
        extras = {self.extra_slot_hex(c): c.id for c in game.state.corporations.values()
                  if self.extra_slot_hex(c) and c.id != me}
        if not extras:
            return board
        toks = {}
        for (h, c), v in board.tokens.items():
            drop = extras.get(h) if c == 0 else None
            toks[(h, c)] = tuple(s for s in v if s is None or s != drop or s == me) if drop else v
        return Board(board.data, board.tiles, toks)

    def reach(self, game: Game, corp: Corporation) -> Any:
        self._board_for = corp.id
        try:
            return super().reach(game, corp)
        finally:
            self._board_for = None

    def run_routes(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        self._board_for = corp.id
        try:
            super().run_routes(game, rnd, corp, action)
        finally:
            self._board_for = None

    # ------------------------------------------------------------ routes
    def route_rules(self, game: Game, corp: Corporation) -> RouteRules:
        st = game.state
        assigned = copy.deepcopy(dict(st.extra["assignments"]))  # type: ignore[call-overload]
        dest = corp.extra.get("destination_hex_reached")
        data = self.data
        phase = self.revenue_phase(game)

        def node_value(board: Board, ref: NodeRef) -> int:
            hex_name, kind, idx = ref
            placed = board.tiles.get(hex_name)
            geo = data.tiles[placed[0]].geometry if placed else data.hexes[hex_name].geometry
            return int(geo.node(kind, idx).value(phase))

        def bonus(board: Board, corp_id: str, stops: list[NodeRef]) -> int:
            total = 0
            hexes = {s[0] for s in stops}
            cattle = assigned.get(CATTLE)
            if cattle and cattle["corp"] == corp_id and cattle["hex"] in hexes:
                total += 10
            port = assigned.get(PORT)
            if port and port["hex"] in hexes:
                if port["corp"] == corp_id:
                    total += 20
                elif not port["closed"]:
                    total += 10
            if dest and len(stops) >= 2:
                ends = [s for s in (stops[0], stops[-1]) if s[0] == dest]
                if ends:
                    total += node_value(board, ends[0])
            return total

        # an upper bound on one route's bonus lets the solver prune by revenue
        cattle_a, port_a = assigned.get(CATTLE), assigned.get(PORT)
        bound = 10 if cattle_a and cattle_a["corp"] == corp.id else 0
        if port_a:
            bound += 20 if port_a["corp"] == corp.id else (0 if port_a["closed"] else 10)
        if isinstance(dest, str):
            placed = st.tiles.get(dest)
            geo = data.tiles[placed.tile].geometry if placed else data.hexes[dest].geometry
            bound += max((int(n.value(phase)) for n in geo.nodes()), default=0)
        return RouteRules(phase=phase, route_bonus=bonus, route_bonus_max=bound)

    # ------------------------------------------------------------ trains
    def depot_trains(self, game: Game) -> list[Train]:
        return super().depot_trains(game)

    def market_trains(self, game: Game) -> list[Train]:
        """Discarded and scrapped trains, for sale to anyone at their printed price."""
        return [t for t in game.state.trains if t.discarded and t.owner is None and not t.gone]

    def min_train_price(self, game: Game, corp: Corporation) -> int | None:
        prices = [t.price for t in self.depot_trains(game) + self.market_trains(game)]
        if self.other_trains(game, corp):
            prices.append(1)
        return min(prices) if prices else None

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
            old.owner, old.discarded, old.operated = None, True, False
            super().buy_train(game, rnd, corp, action, D_DISCOUNT)
            return
        forced = self.must_buy_train(game, rnd, corp) and int(action.price) > corp.cash
        if forced and train.owner in st.corporations:
            raise EngineError(f"{corp.id} is forced to buy a train and may not buy one from another "
                              "corporation: it must take the cheapest train of the bank or the open market.",
                              rule="train.forced_other")
        if forced and train.price > (self.cheapest_available(game) or 0):
            raise EngineError(f"{corp.id} is forced to buy a train: it must take the cheapest one "
                              f"(${self.cheapest_available(game)}).", rule="train.forced_cheapest")
        if train.discarded and train.owner is None:
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
            rnd.turn.bought_trains += 1
            return
        super().buy_train(game, rnd, corp, action, discount)

    def cover_shortfall(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train,
                        price: int, from_depot: bool) -> None:
        if not self.must_buy_train(game, rnd, corp):
            raise EngineError(f"{corp.id} cannot afford ${price} (treasury ${corp.cash}).", rule="train.cash")
        pres = game.state.player(shares.president(corp) or "")
        need = price - corp.cash
        if pres.cash < need:
            raise EngineError(
                f"{corp.id} needs ${need} more and its president has ${pres.cash}: sell shares first "
                "(or declare bankruptcy).", rule="train.emergency_cash")
        pres.cash -= need
        corp.cash += need

    def after_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, train: Train, from_depot: bool) -> None:
        st = game.state
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
                st.extra["river_max"] = 80
            elif event == "close_companies":
                for c in st.companies.values():
                    c.closed = True
            elif event == "remove_tokens":
                st.extra["assignments"] = {}

    def crowded(self, game: Game) -> list[Corporation]:
        return [c for c in game.state.corporations.values()
                if not c.closed and len(self.active_trains(game, c)) > self.train_limit_for(game, c)]

    def discard_train(self, game: Game, corp: Corporation, action: Any) -> None:
        train = self.find_train(game, corp, action.train)
        if train.owner != corp.id:
            raise EngineError(f"{corp.id} does not own train {train.id}.", rule="train.discard")
        if corp not in self.crowded(game):
            raise EngineError(f"{corp.id} is within its train limit and need not discard.", rule="train.discard")
        train.owner, train.discarded, train.operated = None, True, False

    # ------------------------------------------------------------ private companies
    def purchasable_companies(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[Any]:
        st = game.state
        owned = [c for c in st.companies.values()
                 if not c.closed and c.owner in {p.id for p in st.players} and c.id not in NO_BUY_COMPANIES]
        if "can_buy_companies" not in (self.phase_data(game).get("engine_status_flags") or []):
            owned = []
        if st.phase == "1":  # the site offers the bridge to MP and SSW even once one of them holds it
            river = st.companies[RIVER_COMPANY]
            return [river] if corp.id in RIVER_CORPS and not river.closed else []
        return owned

    def company_price_range(self, game: Game, company: Any) -> tuple[int, int]:
        if company.id == RIVER_COMPANY:
            return (math.ceil(company.value / 2), int(game.state.extra["river_max"]))  # type: ignore[call-overload]
        return (math.ceil(company.value / 2), company.value * 2)

    def company_purchase_refusal(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any) -> str:
        if company.id in NO_BUY_COMPANIES:
            return f"No corporation may buy {company.id}."
        if game.state.phase == "1":
            return "In phase 1 only the MP or the SSW may buy a private company: the Mississippi River Bridge."
        return f"{company.id} is not held by a player, so {corp.id} cannot buy it."


    def buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        company = game.state.companies.get(action.company)
        if company is not None and company.owner not in {p.id for p in game.state.players}:
            raise EngineError(f"{company.id} is not held by a player, so {corp.id} cannot buy it.",
                              rule="company.buy")
        super().buy_company(game, rnd, corp, action)

    def process_company_action(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any, action: Any) -> None:
        if action.type == "assign" and company.id in (CATTLE, PORT):
            self.assign(game, corp, company, action.target)
            return
        if action.type == "lay_tile" and company.id == RIVER_COMPANY:
            if company.uses >= 1:
                raise EngineError("The Mississippi River Bridge Company's tile lay is used up.", rule="company.used")
            spec = next(c for c in self.data.companies if c["id"] == RIVER_COMPANY)
            ability = next(a for a in spec["ability"] if a["type"] == "discounted_tile_lay")
            if action.hex not in ability["hexes"]:
                raise EngineError(f"The bridge company's lay must be in a river hex, not {action.hex}.",
                                  rule="company.hex")
            home_extra = (corp.id in RIVER_CORPS and corp.operated_turns == 0
                          and corp.home is not None and action.hex == corp.home[0])
            cost = max(0, self.terrain_cost(game, corp, action.hex) - 40)
            if home_extra:
                cost = 0
            self._lay_with_cost(game, rnd, corp, action, cost, count_lay=not home_extra)
            company.uses += 1
            return
        raise EngineError(f"{company.id} has no ability that does that.", rule="company.ability")

    def _lay_with_cost(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any,
                       cost: int, count_lay: bool) -> None:
        st = game.state
        before = corp.cash
        self.lay_tile(game, rnd, corp, action, free=True, count_lay=count_lay)
        if cost > before:
            raise EngineError(f"{corp.id} cannot pay ${cost} for {action.hex}.", rule="track.cost")
        corp.cash -= cost
        st.bank.cash += cost

    def assign(self, game: Game, corp: Corporation, company: Any, target: str) -> None:
        st = game.state
        assigned: dict[str, Any] = st.extra["assignments"]  # type: ignore[assignment]
        spec = next(c for c in self.data.companies if c["id"] == company.id)
        if target not in spec["ability"]["hexes"]:
            raise EngineError(f"{company.id}'s token may not go on {target}.", rule="company.assign_hex")
        if company.id == CATTLE:
            if CATTLE in assigned:
                raise EngineError("The cattle token is already placed.", rule="company.used")
            assigned[CATTLE] = {"hex": target, "corp": corp.id, "closed": False}
            return
        port = assigned.get(PORT)
        if port is None:
            assigned[PORT] = {"hex": target, "corp": corp.id, "closed": False}
            return
        if port["closed"] or port["hex"] != target:
            raise EngineError("The closed port may only replace the open port on its own city.",
                              rule="company.port")
        port["closed"] = True
        company.closed = True

    # ------------------------------------------------------------ connection runs
    def destination_hex(self, corp: Corporation) -> str | None:
        d = corp.extra.get("destination")
        return d if isinstance(d, str) else None

    def connected_to_destination(self, game: Game, corp: Corporation) -> bool:
        """The site's check: a walk along the track from the destination city reaches the home
        hex. Like a route it never uses a piece of track twice nor visits a node twice, it cannot
        run through a city full of other corporations' tokens or through an off-board, and it
        counts nodes (the destination city included) up to the distance of the longest train;
        it succeeds as soon as the track it walks enters the home hex."""
        return self.connection_walk(game, corp) is not None

    def connection_walk(self, game: Game, corp: Corporation) -> list[tuple[int, Any]] | None:
        """The walk of connected_to_destination: [(node, link to the next node)...] from the
        destination city, the last link entering the home hex; None when not connected."""
        dest = self.destination_hex(corp)
        if dest is None or corp.closed or not self.active_trains(game, corp):
            return None
        if corp.home is None or not any(t.hex == corp.home[0] for t in corp.tokens):
            return None
        from engine.routes.graph import can_pass, track_graph

        self._board_for = corp.id
        try:
            board = self.board(game)
        finally:
            self._board_for = None
        g = track_graph(board)
        home_hex = corp.home[0]
        longest = max(self.train_spec(game, t).max_stops or 10**6 for t in self.active_trains(game, corp))
        starts = [i for i, n in enumerate(g.nodes) if n.ref[0] == dest]
        if not starts:
            return None
        start = min(starts, key=lambda i: (g.nodes[i].ref[1] != "city", g.nodes[i].ref[2]))
        passable = [can_pass(board, n, corp.id, self.pass_through_offboards) for n in g.nodes]
        on_path = {start}
        steps: list[tuple[int, Any]] = []
        budget = [WALK_BUDGET]

        def walk(node: int, depth: int, used: int) -> bool:
            if depth >= longest:
                return False
            for link in g.links_from[node]:
                budget[0] -= 1
                if budget[0] < 0:  # a huge network: give up (counts as not connected yet)
                    return False
                if link.mask & used:
                    continue
                steps.append((node, link))
                if home_hex in link.chain:
                    return True
                nxt = link.b if link.a == node else link.a
                if nxt not in on_path and passable[nxt]:
                    on_path.add(nxt)
                    found = walk(nxt, depth + 1, used | link.mask)
                    on_path.discard(nxt)
                    if found:
                        return True
                steps.pop()
            return False

        if not walk(start, 1, 0):
            return None
        self._walk_graph = g
        return steps

    def connection_route(self, game: Game, corp: Corporation) -> dict[str, Any] | None:
        """A run_routes route for the connection run: the longest train along the walk from the
        destination to the home city (None when the walk does not end at a stop in the home hex)."""
        home_hex = corp.home[0] if corp.home else None
        dest = corp.extra.get("destination_run_hex")
        marker = corp.extra.get("destination")
        corp.extra["destination"] = dest  # walk as before the marker was taken
        try:
            steps = self.connection_walk(game, corp)
        finally:
            corp.extra["destination"] = marker
        if not steps:
            return None
        g = self._walk_graph
        chains, stops = [], [g.nodes[steps[0][0]].ref[0]]
        for node, link in steps:
            chain = list(link.chain) if link.a == node else list(reversed(link.chain))
            chains.append(chain)
            nxt = link.b if link.a == node else link.a
            stops.append(g.nodes[nxt].ref[0])
        if stops[-1] != home_hex:
            return None
        train = max(self.active_trains(game, corp), key=lambda t: self.train_spec(game, t).max_stops)
        return {"train": train.id, "connections": chains, "hexes": stops}

    def connection_route_error(self, game: Game, corp: Corporation, action: Any) -> str | None:
        """A connection run needs one train running from the home hex to the destination hex
        (both ends of its route in those two hexes)."""
        home = corp.home[0] if corp.home else None
        dest = corp.extra.get("destination_run_hex")
        ends_ok = {home, dest}
        for r in action.routes:
            stops = list(r.hexes or []) or _route_ends(r.connections)
            if len(stops) >= 2 and {stops[0], stops[-1]} <= ends_ok:
                return None
        return f"At least one of {corp.id}'s trains must run from its home ({home}) to its destination ({dest})."

    def destination_choices(self, game: Game, corp: Corporation) -> list[str]:
        dest = self.destination_hex(corp)
        if dest is not None and any(t.hex == dest for t in corp.tokens):
            return ["Charter"]
        return ["Map", "Charter"]

    def choose_destination(self, game: Game, corp: Corporation, choice: str) -> None:
        dest = self.destination_hex(corp)
        if dest is None:
            raise EngineError(f"{corp.id} has no destination marker left.", rule="connection.none")
        if choice not in self.destination_choices(game, corp):
            raise EngineError(f"{corp.id} must choose {' or '.join(self.destination_choices(game, corp))}.",
                              rule="connection.choice")
        token = Token(DESTINATION_TOKEN_COST)
        corp.tokens.append(token)
        corp.extra["destination"] = None
        corp.extra["destination_run_hex"] = dest
        if choice == "Map":
            key = (dest, 0)
            cur = self.tokens_in(game, dest, 0)
            corp.extra["destination_hex_reached"] = dest
            if self.destination_uses_city_space(dest):
                corp.extra["destination_in_city"] = True
                free = [i for i, s in enumerate(cur) if s is None]
                if len(free) > self.reserved_for_others(game, corp, dest, 0):
                    slot = free[0]  # an open space (spaces kept for home tokens stay open)
                    cur[slot] = corp.id
                else:  # a full city: it squeezes in as one more space
                    slot = len(cur)
                    cur.append(corp.id)
            else:
                slot = len(cur)
                cur.append(corp.id)  # an extra slot: it takes no city space
            game.state.city_tokens[key] = cur
            token.hex, token.city, token.slot = dest, 0, slot
        for t in self.active_trains(game, corp):
            t.operated = False

    def connection_check(self, game: Game, rnd: Any) -> list[str]:
        """Corporations that make a connection run now: as logged by the site when the log says,
        else computed (in operating order)."""
        if self._logged_checks is not None:
            found = [c for batch in self._logged_checks for c in batch]
            self._logged_checks = []
            return [c for c in dict.fromkeys(found) if self.destination_hex(game.state.corporations[c])]
        if self._site_log:  # a site log without a check here: none (a logged `choose` still starts one)
            return []
        corps = [c for c in game.state.corporations.values() if c.floated and not c.closed]
        corps.sort(key=lambda c: mk.order_key(game.state, self.market, c) if c.cell else (0, 0, 0, 0))
        return [c.id for c in corps if self.connected_to_destination(game, c)]

    def note_logged_checks(self, action: Any) -> None:
        subs = [a for a in (action.auto_actions or []) if _atype(a) == "destination_connection"]
        if subs:
            self._site_log = True
            self._logged_checks = [list(_aget(a, "corporations") or []) for a in subs]
        else:
            self._logged_checks = None


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


def _route_ends(connections: list[list[str]]) -> list[str]:
    """The two end hexes of a route given only as hex chains between its stops."""
    if len(connections) == 1:
        return [connections[0][0], connections[0][-1]] if connections[0] else []
    count: dict[str, int] = {}
    for chain in connections:
        for h in (chain[0], chain[-1]) if chain else ():
            count[h] = count.get(h, 0) + 1
    return [h for h, n in count.items() if n % 2 == 1]


def _atype(a: Any) -> str:
    return str(a.get("type") if isinstance(a, dict) else getattr(a, "type", ""))


def _aget(a: Any, key: str) -> Any:
    return a.get(key) if isinstance(a, dict) else getattr(a, key, None)


def _edge_groups(geo: Any, rotation: int) -> list[tuple[set[int], bool]]:
    """Track of a tile as groups of edges joined directly or through a city/town."""
    groups: list[tuple[set[int], bool]] = []
    by_node: dict[tuple[str, int], set[int]] = {}
    for p in geo.paths:
        ends = [(p.a[0], p.a[1]), (p.b[0], p.b[1])]
        edges = {(e[1] + rotation) % 6 for e in ends if e[0] == "edge"}
        nodes = [e for e in ends if e[0] != "edge"]
        if nodes:
            for n in nodes:
                by_node.setdefault(n, set()).update(edges)
        else:
            groups.append((edges, False))
    groups.extend((edges, True) for edges in by_node.values())
    return groups
