"""1870's rounds: the private auction and the stock round (price protection, redemption,
reissue, brown-zone buying). The operating round is in operating_round.py."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.flow.auction import WaterfallAuction
from engine.flow.stock import StockRound, Turn, par_place
from engine.state import IPO, MARKET, Corporation
from engine.titles.t1870 import market as zones
from engine.titles.t1870 import protection
from engine.titles.t1870.legal import redeemable
from engine.titles.t1870.state import Sale, state1870, title1870

if TYPE_CHECKING:
    from engine.game import Game
    from engine.titles.t1870.title import Title1870

SHARE_COMPANIES = {"SLSF": "SLSF_0", "MKT": "MKT_1"}  # private -> the certificate it brings


def end_manually(game: Game) -> None:
    game.state.finished = True
    game.state.end_reason = "manually_ended"


def _cert(corp: Corporation, cert_id: str) -> Any:
    return next(c for c in corp.certs if c.id == cert_id)


# ================================================================ auction
class Auction1870(WaterfallAuction):
    """The waterfall auction; the SLSF buyer sets its par at once, the MKT buyer gets a share."""

    def after_buy(self, pid: str, item: str, price: int) -> None:
        st = self.game.state
        if item in SHARE_COMPANIES:
            cert_id = SHARE_COMPANIES[item]
            corp = st.corporations[cert_id.rsplit("_", 1)[0]]
            shares.move(corp, _cert(corp, cert_id), pid)
            if _cert(corp, cert_id).president:
                self.pending_par.append((pid, corp.id))

    def process_par(self, pid: str, action: Any) -> None:
        g = self.game
        corp_id = self.pending_par[0][1]
        if action.corporation != corp_id:
            raise EngineError(f"Choose a par value for {corp_id} first.", rule="auction.par")
        t = g.title
        if action.share_price not in t.market.par_cells:
            vals = ", ".join(f"${t.market.price(c)}" for c in t.market.par_cells.values())
            raise EngineError(f"{corp_id}'s par must be one of {vals}.", rule="auction.par")
        corp = g.state.corporations[corp_id]
        par_place(g, corp, t.market.parse_cell_id(action.share_price))
        t.float_check(g, corp)
        g.state.companies[corp_id].closed = True

    def process(self, action: Any) -> None:
        title1870(self.game).note_logged_checks(action)
        if action.type == "end_game":
            end_manually(self.game)
            return
        super().process(action)


# ================================================================ stock round
class Round1870:
    """Mixed into 1870's rounds: their title typed as Title1870 for the checker; at run time the
    game's title as it is (without cast's call: asked very often)."""

    game: Game
    if TYPE_CHECKING:
        @property
        def title(self) -> Title1870: ...
    else:
        @property
        def title(self):  # (self.game.title, a Title1870: without cast's call, asked very often)
            return self.game.title


class StockRound1870(Round1870, StockRound):

    def __init__(self, game: Game) -> None:
        self.protect_mode = False
        self.multi_corp: str | None = None
        self.corp_acted = False
        self.redeemed: set[str] = set()
        super().__init__(game)

    def queue(self) -> list[Sale]:
        return protection.queue(self.game)

    def in_protection(self) -> bool:
        return self.protect_mode and bool(self.queue())

    def current(self) -> tuple[str, str]:
        if self.in_protection():
            return (str(self.queue()[0].president), "player")
        return super().current()

    def kinds(self) -> list[str]:
        if self.in_protection():
            return ["buy_shares", "pass"]
        if self.corp_acted:
            return []
        out = super().kinds()
        if self.turn_state.bought and self.multi_corp and "buy_shares" not in out and self.buyable(self.player_id()):
            out = ["buy_shares", *out] if out else ["buy_shares", "pass"]
        if out != ["sell_shares"] and self.tradeable_companies(self.player_id()):
            out = [*out[:-1], "buy_company", "pass"] if out else ["buy_company", "pass"]
        return out

    # ---- privates bought from other players (phases 2-3, as the site)
    def tradeable_companies(self, pid: str) -> list[Any]:
        """Privates `pid` may buy from another player now: in phases 2 and 3 (the site's
        'can_buy_companies_from_other_players', whose phase-1 list holds no private for a player),
        as his turn's purchase, not the SLSF (no_buy, closed anyway)."""
        g = self.game
        st = g.state
        flags = self.title.phase_data(g).get("engine_status_flags") or []
        if (st.phase == "1" or "can_buy_companies_from_other_players" not in flags
                or self.turn_state.bought or st.player(pid).cash <= 0):
            return []
        others = {p.id for p in st.players if p.id != pid and not p.bankrupt}
        return [c for c in st.companies.values() if c.owner in others and not c.closed and c.id != "SLSF"]

    def has_moves(self) -> bool:
        """As kinds() holding a move besides passing, stopping at the first one found (the
        common kinds, a brown-zone purchase after buying, a private from another player)."""
        if type(self).kinds is not StockRound1870.kinds:
            return super().has_moves()
        if self.in_protection():
            return True
        if self.corp_acted:
            return False
        pid = self.player_id()
        if self.asking(self._has_moves):
            return True
        if self.turn_state.bought and self.multi_corp and self.buyable(pid):
            return True
        return bool(self.tradeable_companies(pid))

    def _buy_company(self, pid: str, action: Any) -> None:
        st = self.game.state
        if pid != self.player_id():
            raise EngineError(f"It is {self.game.player_name(self.player_id())}'s turn in the stock round, "
                              f"not {self.game.player_name(pid)}'s.", rule="turn.wrong_player")
        if self.must_sell(pid) and self.sellable(pid):
            raise EngineError(f"You hold more than {self.title.cert_limit(self.game)} certificates and must "
                              "sell first.", rule="stock.must_sell")
        company = st.companies.get(str(action.company))
        if company is None or company not in self.tradeable_companies(pid):
            raise EngineError(f"You cannot buy {action.company} from another player now (phases 2-3, as your "
                              "turn's purchase).", rule="stock.buy_company")
        price = int(action.price)
        if not 1 <= price <= st.player(pid).cash:
            raise EngineError(f"Pay between $1 and your cash for {company.id}.", rule="stock.buy_company")
        st.player(pid).cash -= price
        st.player(str(company.owner)).cash += price
        company.owner = pid
        # a purchase of the turn (no other buy but brown market shares of one company may follow);
        # like the site it does not make him the last to act for the priority deal
        self.turn_state.bought = True
        self.turn_state.acted = True
        self.multi_corp = "*"

    # ---- buying and selling rules
    def buy_error(self, pid: str, corp: Corporation, cert: Any) -> str | None:
        ts = self.turn_state
        if (ts.bought and self.multi_corp in (corp.id, "*") and cert.owner == MARKET
                and "multiple_buy" in zones.zone(self.game, corp.cell)):
            ts.bought = False
            try:
                return super().buy_error(pid, corp, cert)
            finally:
                ts.bought = True
        if corp.closed:
            return f"{corp.id} has closed."
        return super().buy_error(pid, corp, cert)

    def sell_error(self, pid: str, corp: Corporation, pct: int, certs: list[Any] | None = None) -> str | None:
        if corp.closed:
            return f"{corp.id} has closed: its certificates are worthless and cannot be sold."
        if corp.cell is None:  # as the site: no bundles of a corporation never parred
            return f"{corp.id} has no share price yet: its certificates cannot be sold."
        err = super().sell_error(pid, corp, pct, certs)
        if err:
            return err
        if corp.id in self.turn_state.sold_corps:
            return f"You have already sold {corp.id} this turn: a turn's sales of one corporation form one block."
        held = shares.percent(corp, pid)
        if held - pct > 60 and not self.title.may_hold_above_60(self.game, corp):
            return f"After price protection you hold {held}% of {corp.id}: a sale must bring you back to 60%."
        return None

    # ---- processing
    def process(self, action: Any) -> None:
        g, t = self.game, self.title
        t.note_logged_checks(action)
        if action.type == "end_game":
            end_manually(g)
            return
        if self.in_protection():
            self._protection(action)
            return
        if action.entity_type == "corporation":
            self._corporate(action)
            return
        if action.type == "buy_company":
            self._buy_company(str(action.entity), action)
            return
        super().process(action)

    def _do_sell_shares(self, pid: str, action: Any) -> None:
        cert_id = action.shares[0] if action.shares else ""
        corp = self.game.state.corporations.get(cert_id.rsplit("_", 1)[0])
        self.title._sale_context = (pid, shares.president(corp) if corp else None)
        super()._do_sell_shares(pid, action)

    def _do_buy_shares(self, pid: str, action: Any) -> None:
        cert = self._find_cert(action.shares[0], want_owner=(IPO, MARKET)) if action.shares else None
        source = cert.owner if cert else None
        super()._do_buy_shares(pid, action)
        if cert is not None:
            corp = self.game.state.corporations[cert.corp]
            brown = "multiple_buy" in zones.zone(self.game, corp.cell)
            self.multi_corp = corp.id if (brown and source == MARKET) else None

    def _end_turn(self, passed: bool) -> None:
        if not passed:
            self.passes = 0
        self.turn_state = Turn()
        self.multi_corp = None
        self.corp_acted = False
        if self.queue():
            self.protect_mode = True
            self._skip_unprotectable()
            if self.queue():
                return
            self.protect_mode = False
        self._next_player()

    def after_closing(self) -> None:
        """Companies closed at the end of the action: a protection of one is void; with none
        left to decide, play goes on to the next player; a player left with nothing to do (his
        only sale was of the closed company) ends his turn."""
        if self.protect_mode:
            self._skip_unprotectable()
            if not self.queue():
                self.protect_mode = False
                self._next_player()
        if not self.finished and not self.kinds():
            self._end_turn(passed=False)

    # ---- price protection
    def _sold(self, pid: str) -> set[str]:
        return self.sold_this_round.get(pid, set())

    def _skip_unprotectable(self) -> None:
        q = self.queue()
        while q and protection.protect_error(self.game, q[0], self._sold(str(q[0].president))):
            protection.decline(self.game, q.pop(0))

    def _protection(self, action: Any) -> None:
        pid = str(action.entity)
        if protection.answer(self.game, action, self._sold(pid)):
            # the protection is that player's turn: play resumes to his left
            self.index = [p.id for p in self.game.state.players].index(pid)
            self.last_actor = self.index
            self.passes = 0
        self._skip_unprotectable()
        if self.queue():
            return
        self.protect_mode = False
        self._next_player()

    # ---- redemption and reissue
    def _corporate(self, action: Any) -> None:
        g = self.game
        st = g.state
        corp = st.corporations.get(str(action.entity))
        if corp is None:
            raise EngineError(f"There is no corporation {action.entity}.", rule="stock.corporation")
        pid = self.player_id()
        if shares.president(corp) != pid:
            raise EngineError(f"Only {corp.id}'s president may act for it, in his own turn.",
                              rule="stock.corporate_turn")
        if action.type == "buy_shares":
            self._redeem(pid, corp, action)
        elif action.type == "sell_shares":
            self._reissue(corp)
        else:
            raise EngineError(f"{corp.id} may only redeem or reissue shares in a stock round.",
                              rule="stock.corporate_kind")
        self.last_actor = self.index
        self.passes = 0
        self._end_turn(passed=False)

    def redeem_error(self, pid: str, corp: Corporation) -> str | None:
        t = self.title
        if self.turn_state.acted:
            return "A redemption must be the first and only action of your turn."
        if corp.operated_turns == 0:
            return f"{corp.id} has not operated yet, so it may not redeem a share."
        if len(t.treasury_certs(corp)) >= 4:
            return f"{corp.id} already holds 4 shares in its treasury."
        if corp.id in self.redeemed:
            return f"{corp.id} has already redeemed a share this stock round."
        price = t.share_price(corp)
        # the site checks the cash it first looks up in the round, which in a replayed game is
        # the cash at the redemption itself (an incremental company's share sales count)
        if price > corp.cash:
            return f"{corp.id} cannot pay ${price} for a share."
        st = self.game.state
        if any(c.president for c in shares.certs_of(corp, MARKET)):
            # as on the site: none while the market holds the president's certificate (sold by
            # a holder who was not president, Corporation.president_apart)
            return f"{corp.id} may not redeem while the market holds its president's certificate."
        if not shares.certs_of(corp, MARKET):
            # as on the site: from the players, each holder's first ordinary share is offered
            # (the president's own only if his holding is not the largest other); a holder
            # with none to offer - the president with only his certificate, the certificate's
            # holder who is not president (Corporation.president_apart), a player counting a
            # holding (or below zero) but holding no certificate (a count gap, shares.counted) -
            # leaves no redemption possible at all
            own = shares.percent(corp, pid)
            top_other = max((shares.percent(corp, p.id) for p in st.players if p.id != pid), default=0)
            for p in st.players:
                if p.id == pid and own == top_other:
                    continue
                if not (shares.counted(corp, p.id) != 0 or shares.percent(corp, p.id) > 0):
                    continue
                if not any(not c.president for c in shares.certs_of(corp, p.id)):
                    who = "its president" if p.id == pid else p.name
                    return (f"{corp.id} may not redeem a share from its players while {who} holds or "
                            "counts a holding of it but has no ordinary share of it.")
        return None

    def _redeem(self, pid: str, corp: Corporation, action: Any) -> None:
        g, t = self.game, self.title
        st = g.state
        err = self.redeem_error(pid, corp)
        if err:
            raise EngineError(err, rule="redeem.refused")
        price = t.share_price(corp)
        cert = next((c for c in corp.certs if c.id in action.shares), None)
        # as on the site: exactly the shares offered, the first of the market's list, or else
        # each holder's first ordinary share
        if cert is None or cert.id not in redeemable(g, corp, pid):
            raise EngineError(f"{corp.id} may redeem only the first share of the market's list, or with "
                              "none there a holder's first ordinary share (not the president's if that "
                              "would change the presidency).", rule="redeem.share")
        seller = cert.owner
        corp.cash -= price
        if seller == MARKET:
            st.bank.cash += price
        else:
            st.player(seller).cash += price
        shares.move(corp, cert, corp.id)
        self.redeemed.add(corp.id)

    def reissue_error(self, pid: str, corp: Corporation) -> str | None:
        if shares.president(corp) != pid or self.corp_acted:
            return f"Only {corp.id}'s president may reissue its shares, in his own turn."
        if not any(c.owner == corp.id for c in corp.certs) or any(c.owner == IPO for c in corp.certs):
            return f"{corp.id} may reissue only when every share in its treasury is a redeemed one."
        return None

    def reissue_par(self, corp: Corporation) -> int:
        """The higher of the old par and the top-row price nearest to 75% of the current price
        (an exact tie goes to the higher price; max_reissue_200: top-row prices up to $200 only).
        As the site: e.g. $140 -> $110 (105 is nearer 110 than 100), $100 -> $76."""
        t = self.title
        target = 0.75 * t.share_price(corp)
        cap = 200 if t.option("max_reissue_200") else 10**6
        top = [p for p in t.market.grid[0] if p and p <= cap]
        nearest = min(top, key=lambda p: (abs(target - p), -p))
        return max(nearest, corp.par or 0)

    def _reissue(self, corp: Corporation) -> None:
        held = [c for c in corp.certs if c.owner == corp.id]
        if not held or any(c.owner == IPO for c in corp.certs):
            raise EngineError(f"{corp.id} may reissue only when every share in its treasury is a redeemed one.",
                              rule="reissue.refused")
        corp.par = self.reissue_par(corp)
        for c in held:
            shares.move(corp, c, IPO)  # treasury and offering are one list: it keeps its place
        if corp.id not in state1870(self.game).reissued:
            state1870(self.game).reissued.append(corp.id)
