"""A waterfall (1830-style) auction of private certificates.

Rules (the 18xx.games behaviour, which the logs follow):

* The items are offered cheapest first. In his turn a player either passes or bids
  (action `bid {company, price}`): a bid on the cheapest unsold item at its current price
  buys it outright; a bid on any other item must beat that item's best bid (or its face
  value) by `increment` and stays pending; a player may hold bids on several items as long
  as his cash covers them all.
* Whenever the cheapest item is bought, the next item is looked at: one pending bid buys it
  at that price; two or more start a bid-off in which the player holding the lowest bid acts
  (raise or pass, a pass withdraws his bid) until one bidder is left. Normal turn order then
  resumes with the player after the one whose purchase set the bid-off off.
* A full round of passes: if the first item is still unsold its price drops by `discount_step`
  (at $0 the next player must take it); otherwise `all_passed_payout` runs (1870: privates pay
  their revenue, as a mini operating round) and the auction continues.
* The auction ends when every item is sold; the priority deal goes to the player after the
  last one who bought an item at its current price (bid-off wins do not count).

Reuse (18MEX and others): subclass `WaterfallAuction` and override the hooks below; they are
the only places a title's rules enter:

* `item_ids()`            the certificates offered, in order (default: unowned companies by value)
* `face_value(item)`      an item's printed price (default: the company's value)
* `increment`, `discount_step`  class constants ($5 / $5)
* `deliver(pid, item, price)`   hand the item over (default: company to the player, cash to the
                          bank) -- then `after_buy(pid, item, price)` (e.g. queue a `par`)
* `all_passed_payout()`   what a full round of passes does once the first item is sold
* `pending_par`           list of (player id, corporation id) that must `par` before anything
                          else; `process_par(pid, action)` does it (title-specific)
* `on_finish()`           after the last item is sold (default: set the priority deal)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.flow.base import Round

if TYPE_CHECKING:
    from engine.game import Game


class WaterfallAuction(Round):
    kind = "auction"
    increment = 5
    discount_step = 5

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        st = game.state
        self.items: list[str] = self.item_ids()
        self.first_item: str | None = self.items[0] if self.items else None
        self.discount: dict[str, int] = {}
        self.bids: dict[str, list[tuple[str, int]]] = {}  # item -> [(player, price)] in bid order
        self.auctioning: str | None = None
        self.index = st.priority % len(st.players)
        self.passed: set[str] = set()
        self.last_to_act: str | None = None
        self.pending_par: list[tuple[str, str]] = []
        if not self.items:
            self.finished = True

    # ------------------------------------------------------------ hooks
    def item_ids(self) -> list[str]:
        comps = [c for c in self.game.state.companies.values() if c.owner is None and not c.closed]
        return [c.id for c in sorted(comps, key=lambda c: c.value)]

    def face_value(self, item: str) -> int:
        return self.game.state.companies[item].value

    def deliver(self, pid: str, item: str, price: int) -> None:
        st = self.game.state
        st.player(pid).cash -= price
        st.bank.cash += price
        st.companies[item].owner = pid

    def after_buy(self, pid: str, item: str, price: int) -> None:
        pass

    def all_passed_payout(self) -> None:
        self.game.title.pay_companies(self.game)

    def process_par(self, pid: str, action: Any) -> None:
        raise EngineError("Nothing is waiting for a par value.", rule="auction.par")

    def on_finish(self) -> None:
        st = self.game.state
        if self.last_to_act is not None:
            ids = [p.id for p in st.players]
            st.priority = (ids.index(self.last_to_act) + 1) % len(ids)

    # ------------------------------------------------------------ queries
    def name(self) -> str:
        return "Private Auction"

    def price_now(self, item: str) -> int:
        """The current price of the cheapest item (face value less any discount)."""
        return self.face_value(item) - self.discount.get(item, 0)

    def min_bid(self, item: str) -> int:
        if self.auctioning is None and self.items and item == self.items[0]:
            return self.price_now(item)
        bids = self.bids.get(item, [])
        top = max((p for _, p in bids), default=None)
        return (top if top is not None else self.face_value(item)) + self.increment

    def committed(self, pid: str) -> int:
        return sum(p for bids in self.bids.values() for who, p in bids if who == pid)

    def max_bid(self, pid: str, item: str) -> int:
        own = next((p for who, p in self.bids.get(item, []) if who == pid), 0)
        return self.game.state.player(pid).cash - self.committed(pid) + own

    def current(self) -> tuple[str, str]:
        if self.pending_par:
            return (self.pending_par[0][0], "player")
        if self.auctioning is not None:
            bids = self.bids[self.auctioning]
            return (min(bids, key=lambda b: b[1])[0], "player")
        return (self.game.state.players[self.index].id, "player")

    def kinds(self) -> list[str]:
        if self.finished:
            return []
        if self.pending_par:
            return ["par"]
        return ["bid", "pass"]

    # ------------------------------------------------------------ processing
    def process(self, action: Any) -> None:
        pid = str(action.entity)
        who = self.current()[0]
        if pid != who:
            raise EngineError(f"It is {self.game.player_name(who)}'s turn in the auction, "
                              f"not {self.game.player_name(pid)}'s.", rule="turn.wrong_player")
        if self.pending_par:
            if action.type != "par":
                corp = self.pending_par[0][1]
                raise EngineError(f"{self.game.player_name(pid)} must first choose a par value for {corp}.",
                                  rule="auction.par_first")
            self.process_par(pid, action)
            self.pending_par.pop(0)
            self._check_finished()
            return
        if action.type == "pass":
            self._pass(pid)
        elif action.type == "bid":
            self._bid(pid, str(action.company), int(action.price))
        else:
            raise EngineError(f"You cannot {action.type.replace('_', ' ')} during the private auction.",
                              rule="auction.kind")
        self._check_finished()

    def _pass(self, pid: str) -> None:
        if self.auctioning is not None:
            self.bids[self.auctioning] = [b for b in self.bids[self.auctioning] if b[0] != pid]
            self._resolve()
            return
        self.passed.add(pid)
        if len(self.passed) >= len(self.game.state.players):
            self._all_passed()
        self._advance()

    def _bid(self, pid: str, item: str, price: int) -> None:
        if item not in self.items:
            raise EngineError(f"{item} is not for sale in the auction.", rule="auction.item")
        self.passed.discard(pid)
        if self.auctioning is not None:
            if item != self.auctioning:
                raise EngineError(f"{self.auctioning} is being auctioned: bid on it or pass.",
                                  rule="auction.bid_off")
            self._add_bid(pid, item, price)
            return
        if item == self.items[0]:
            due = self.price_now(item)
            if price < due:
                raise EngineError(f"{item} costs ${due} now.", rule="auction.price")
            if price > self.game.state.player(pid).cash - self.committed(pid):
                raise EngineError(f"You cannot afford {item} (${price}) with your other bids "
                                  f"(${self.committed(pid)}) standing.", rule="auction.cash")
            self.last_to_act = pid
            self._buy(pid, item, price)
            self._resolve()
        else:
            self._add_bid(pid, item, price)
        self._advance()

    def _add_bid(self, pid: str, item: str, price: int) -> None:
        low = self.min_bid(item)
        if price < low:
            raise EngineError(f"The minimum bid for {item} is ${low} (bids rise in ${self.increment} steps).",
                              rule="auction.min_bid")
        high = self.max_bid(pid, item)
        if price > high:
            raise EngineError(f"You cannot afford a ${price} bid: at most ${high} with your other bids.",
                              rule="auction.cash")
        bids = [b for b in self.bids.get(item, []) if b[0] != pid]
        bids.append((pid, price))
        self.bids[item] = bids

    def _buy(self, pid: str, item: str, price: int) -> None:
        self.items.remove(item)
        self.bids.pop(item, None)
        self.deliver(pid, item, price)
        self.after_buy(pid, item, price)

    def _resolve(self) -> None:
        """Sell the cheapest item while it has exactly one bid; two or more start a bid-off."""
        self.auctioning = None
        while self.items:
            item = self.items[0]
            bids = self.bids.get(item, [])
            if len(bids) == 1:
                self._buy(bids[0][0], item, bids[0][1])
                continue
            if len(bids) > 1:
                self.auctioning = item
            break

    def _all_passed(self) -> None:
        first = self.first_item
        if first is not None and first in self.items:
            self.discount[first] = self.discount.get(first, 0) + self.discount_step
            if self.price_now(first) <= 0:
                self._advance()
                pid = self.game.state.players[self.index].id
                self.last_to_act = pid
                self._buy(pid, first, 0)
                self._resolve()
        else:
            self.all_passed_payout()
        self.passed.clear()

    def _advance(self) -> None:
        self.index = (self.index + 1) % len(self.game.state.players)

    def _check_finished(self) -> None:
        if not self.items and not self.pending_par and self.auctioning is None:
            self.finished = True
            self.on_finish()
