"""The 18MEX opening: an 1830-style waterfall auction of the seven start certificates.

The cheapest unsold certificate may be bought at its price; a bid on any other one is a bid
($5 above the current high bid, or above face value). When the cheapest certificate has more
than one bid it is auctioned at once: the lowest bidder raises or passes until one is left.
All players passing in a row: while the cheapest is unsold its price drops $5 (taken by the
next player when it reaches $0); otherwise the privates pay (title hook) and bidding goes on.
A certificate that comes with a president's certificate (MNR) makes its buyer set a par first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.flow.base import Round

if TYPE_CHECKING:
    from engine.game import Game

INCREMENT = 5


@dataclass
class Bid:
    player: str
    price: int


class WaterfallAuction(Round):
    kind = "auction"

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        st = game.state
        self.companies = sorted((c for c in st.companies.values() if c.owner is None and not c.closed),
                                key=lambda c: c.value)
        self.cheapest = self.companies[0].id if self.companies else None
        self.discount: dict[str, int] = {}
        self.bids: dict[str, list[Bid]] = {}
        self.passed: set[str] = set()
        self.index = 0
        self.auctioning: str | None = None
        self.pending_par: tuple[str, str] | None = None  # (player, corporation)
        self.last_to_act: str | None = None

    # ------------------------------------------------------------ queries
    def name(self) -> str:
        return "Private Auction"

    def players(self) -> list[str]:
        return [p.id for p in self.game.state.players]

    def current(self) -> tuple[str, str]:
        if self.pending_par is not None:
            return (self.pending_par[0], "player")
        if self.auctioning is not None:
            low = min(self.bids[self.auctioning], key=lambda b: b.price)
            return (low.player, "player")
        return (self.players()[self.index], "player")

    def kinds(self) -> list[str]:
        if self.finished:
            return []
        if self.pending_par is not None:
            return ["par"]
        return ["bid", "pass"]

    def price_of(self, company_id: str) -> int:
        company = self.game.state.companies[company_id]
        return company.value - self.discount.get(company_id, 0)

    def min_bid(self, company_id: str) -> int:
        if self.auctioning is None and self.companies and self.companies[0].id == company_id:
            return self.price_of(company_id)
        bids = self.bids.get(company_id, [])
        high = max((b.price for b in bids), default=self.price_of(company_id))
        return high + INCREMENT

    def committed(self, pid: str, except_company: str | None = None) -> int:
        return sum(b.price for cid, bids in self.bids.items() if cid != except_company
                   for b in bids if b.player == pid)

    def max_bid(self, pid: str, company_id: str) -> int:
        return self.game.state.player(pid).cash - self.committed(pid, except_company=company_id)

    # ------------------------------------------------------------ processing
    def process(self, action: Any) -> None:
        pid = str(action.entity)
        who = self.current()[0]
        if pid != who:
            raise EngineError(f"It is {self.game.player_name(who)}'s turn in the auction, "
                              f"not {self.game.player_name(pid)}'s.", rule="turn.wrong_player")
        if self.pending_par is not None:
            if action.type != "par":
                raise EngineError(f"{self.game.player_name(pid)} must first set the par price of "
                                  f"{self.pending_par[1]}.", rule="auction.pending_par")
            self._par(pid, action)
        elif action.type == "bid":
            self._bid(pid, action)
        elif action.type == "pass":
            self._pass(pid)
        else:
            raise EngineError(f"You cannot {action.type.replace('_', ' ')} during the private auction.",
                              rule="auction.kind")
        self._check_finished()

    def _bid(self, pid: str, action: Any) -> None:
        cid = action.company
        company = self.game.state.companies.get(cid)
        if company is None or company not in self.companies:
            raise EngineError(f"{cid} is not for sale in the auction.", rule="auction.company")
        self.passed.discard(pid)
        if self.auctioning is not None:
            if cid != self.auctioning:
                raise EngineError(f"{self.auctioning} is being auctioned: raise your bid on it or pass.",
                                  rule="auction.bid_off")
            self._add_bid(pid, cid, action.price)
            return
        if self.companies[0].id == cid:
            price = self.price_of(cid)
            if action.price != price:
                raise EngineError(f"{cid} is the cheapest certificate: it is bought at exactly ${price}.",
                                  rule="auction.price")
            self.last_to_act = pid
            self._buy(pid, cid, price)
            self._resolve()
        else:
            self._add_bid(pid, cid, action.price)
        self._next()

    def _add_bid(self, pid: str, cid: str, price: int) -> None:
        low = self.min_bid(cid)
        if price < low:
            raise EngineError(f"The minimum bid on {cid} is ${low} (bids rise in ${INCREMENT} steps).",
                              rule="auction.min_bid")
        if (price - low) % INCREMENT:
            raise EngineError(f"Bids rise in multiples of ${INCREMENT}.", rule="auction.increment")
        if price > self.max_bid(pid, cid):
            raise EngineError(f"You cannot afford a ${price} bid: ${self.max_bid(pid, cid)} is not "
                              "committed to other bids.", rule="auction.cash")
        bids = [b for b in self.bids.get(cid, []) if b.player != pid]
        bids.append(Bid(pid, price))
        self.bids[cid] = bids

    def _pass(self, pid: str) -> None:
        if self.auctioning is not None:
            cid = self.auctioning
            self.bids[cid] = [b for b in self.bids[cid] if b.player != pid]
            self._resolve()
            return
        self.passed.add(pid)
        if len(self.passed) >= len(self.players()):
            self._all_passed()
        self._next()

    def _all_passed(self) -> None:
        st = self.game.state
        assert self.cheapest is not None
        if any(c.id == self.cheapest for c in self.companies):
            self.discount[self.cheapest] = self.discount.get(self.cheapest, 0) + INCREMENT
            if self.price_of(self.cheapest) <= 0:
                self._next()
                taker = self.players()[self.index]
                self.last_to_act = taker
                self._buy(taker, self.cheapest, 0)
                self._resolve()
        else:
            self.game.title.auction_pass_round(self.game)
        self.passed.clear()
        del st  # state changes go through the title hook

    def _resolve(self) -> None:
        self.auctioning = None
        while self.companies:
            cid = self.companies[0].id
            bids = self.bids.get(cid, [])
            if len(bids) == 1:
                self._buy(bids[0].player, cid, bids[0].price)
                continue
            if len(bids) > 1:
                self.auctioning = cid
            break

    def _buy(self, pid: str, cid: str, price: int) -> None:
        st = self.game.state
        company = st.companies[cid]
        player = st.player(pid)
        if price > player.cash:
            raise EngineError(f"{player.name} cannot pay ${price} for {cid}.", rule="auction.cash")
        self.bids.pop(cid, None)
        self.companies = [c for c in self.companies if c.id != cid]
        company.owner = pid
        player.cash -= price
        st.bank.cash += price
        corp = self.game.title.after_auction_buy(self.game, pid, company)
        if corp is not None:
            self.pending_par = (pid, corp)

    def _par(self, pid: str, action: Any) -> None:
        assert self.pending_par is not None
        corp_id = self.pending_par[1]
        if action.corporation != corp_id:
            raise EngineError(f"Set the par price of {corp_id} first.", rule="auction.pending_par")
        self.game.title.par_from_private(self.game, pid, corp_id, action.share_price)
        self.pending_par = None

    def _next(self) -> None:
        self.index = (self.index + 1) % len(self.players())

    def _check_finished(self) -> None:
        if self.companies or self.pending_par is not None:
            return
        self.finished = True
        st = self.game.state
        if self.last_to_act is not None:
            st.priority = (self.players().index(self.last_to_act) + 1) % len(self.players())
