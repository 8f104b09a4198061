"""1870's operating round: connection runs, price protection of sales to fund a forced train
purchase, train discards and bankruptcy."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares
from engine.errors import EngineError
from engine.flow.operating import OperatingRound, TurnState
from engine.flow.stock import sell_certs
from engine.state import Corporation
from engine.titles.t1870 import market as zones
from engine.titles.t1870 import protection
from engine.titles.t1870.rounds import Round1870, end_manually
from engine.titles.t1870.state import Sale

if TYPE_CHECKING:
    from engine.game import Game


class OperatingRound1870(Round1870, OperatingRound):

    def __init__(self, game: Game, round_num: int) -> None:
        self.conn_runs: list[str] = []
        self.conn_stage = "choose"
        self.conn_revenue = 0
        self.awaiting_next = False
        self.unsorted: list[str] | None = None  # the order before the last connection re-sort
        # a protection was decided after the company whose turn it was had closed: the sales
        # still queued wait for the end of the next company's turn (as on the site)
        self.queue_waits = False
        # the check of the operating company's turn end came with the last action's logged
        # checks (they found connection runs before the turn's end was reached here): after
        # those runs the turn ends without a second check, as on the site
        self.end_check_logged = False
        # a company closed at the end of an action and the protection that was due can no
        # longer be made: the turn ends at once, without its end check, as on the site
        self.no_end_check = False
        super().__init__(game, round_num)

    def queue(self) -> list[Sale]:
        return protection.queue(self.game)

    def corp(self) -> Corporation:
        """The corporation operating now: one making its connection run comes first."""
        if self.conn_runs:
            return self.game.state.corporations[self.conn_runs[0]]
        return super().corp()

    def in_protection(self) -> bool:
        return bool(self.queue()) and self.step_name() == "done" and not self.awaiting_next

    def current(self) -> tuple[str, str]:
        if self.finished or self.game.state.finished:
            return ("", "")
        crowded = self.title.crowded(self.game)
        if crowded:
            return (crowded[0].id, "corporation")
        if self.conn_runs:
            return (self.conn_runs[0], "corporation")
        if self.in_protection():
            return (str(self.queue()[0].president), "player")
        return super().current()

    def kinds(self) -> list[str]:
        if self.finished or self.game.state.finished:
            return []
        if self.title.crowded(self.game):
            return ["discard_train"]
        if self.conn_runs:
            return {"choose": ["choose"], "route": ["run_routes"], "dividend": ["dividend"]}[self.conn_stage]
        if self.in_protection():
            return ["buy_shares", "pass"]
        return super().kinds()

    # ---- flow
    def _settle(self) -> None:
        g, t = self.game, self.title
        while not self.finished and not g.state.finished:
            if self.conn_runs or t.crowded(g):
                return
            if self.awaiting_next:
                self.awaiting_next = False
                self.queue_waits = False
                self._next_entity()
                return
            name = self.step_name()
            if name != "done" and self.corp().closed:  # closed in its turn: the turn is over
                self.turn.step = len(self.steps)
                if self.queue():
                    # as on the site (seed 828, 912: SSW closed at its lay): no sale is
                    # resolved in a closed company's turn; they wait for the next one's end
                    self.queue_waits = True
                continue
            if name == "done":
                if self.queue() and not self.queue_waits:
                    self._skip_unprotectable()
                    if self.queue():
                        return
                corp = self.corp()
                t.end_turn(g, self, corp)
                self.done.append(corp.id)
                self.awaiting_next = True
                if self.end_check_logged:
                    self.end_check_logged = False
                elif self.no_end_check:
                    self.no_end_check = False
                elif not corp.closed and not t.closing(g, corp):
                    # a company closed in its turn (or closing when its action is over, at $0)
                    # gets no check for its turn's end
                    self._add_runs(t.connection_check(g, self, corp.id))
                continue
            if self.offers(name):
                return
            t.skip_step(g, self, name)
            self.turn.step += 1

    def _add_runs(self, corps: list[str]) -> None:
        for c in corps:
            if c not in self.conn_runs:
                self.conn_runs.append(c)

    def process(self, action: Any) -> None:
        g, t = self.game, self.title
        t.note_logged_checks(action)
        st = g.state
        if action.type == "end_game":
            end_manually(g)
            return
        if action.type == "bankrupt":
            self._bankrupt(action)
            return
        if action.type == "discard_train":
            corp = st.corporations.get(str(action.entity))
            if corp is None:
                raise EngineError(f"There is no corporation {action.entity}.", rule="train.discard")
            t.discard_train(g, corp, action)
            self._settle()
            return
        if action.type == "choose" and not self.conn_runs and g.trusting_log:
            corp = st.corporations.get(str(action.entity))
            if corp is not None and t.destination_hex(corp):  # a connection the log knew about
                self.conn_runs.append(corp.id)
        if not self.conn_runs:
            self._follow_logged_order(action)
        settled = False  # the common processing ends settled (by this round's _settle)
        if self.conn_runs:
            self._connection(action)
        elif self.in_protection():
            self._protection(action)
        else:
            if action.type == "sell_shares":
                cid = action.shares[0].rsplit("_", 1)[0] if action.shares else ""
                target = st.corporations.get(cid)
                t._sale_context = (str(action.entity), shares.president(target) if target else None)
            super().process(action)
            settled = True
        if t._logged_checks and not self.finished:  # (the check may close companies at $0 and add runs)
            # (once the round is over, the checks left are the next round's: its first
            # company's check at its start takes them, as the site made it)
            settled = False
            leftover = t.connection_check(g, self)
            if leftover:
                if (not self.conn_runs and self.step_name() == "done" and not self.awaiting_next
                        and not self.queue()):
                    self.end_check_logged = True
                self._add_runs(leftover)
        if not settled:  # settled again on an unchanged state, it would ask the same questions
            self._settle()

    # ---- connection runs
    def _connection(self, action: Any) -> None:
        g, t = self.game, self.title
        corp = g.state.corporations[self.conn_runs[0]]
        if str(action.entity) != corp.id:
            raise EngineError(f"{corp.id} must first make its connection run.", rule="connection.turn")
        want = self.kinds()[0]
        if action.type != want:
            raise EngineError(f"{corp.id}'s connection run: {want.replace('_', ' ')} now.",
                              rule="connection.order")
        if want == "choose":
            t.choose_destination(g, corp, action.choice)
            self.conn_stage = "route"
        elif want == "run_routes":
            err = t.connection_route_error(g, corp, action)
            if err:
                raise EngineError(err, rule="connection.route")
            saved = self.turn
            self.turn = TurnState()
            try:
                t.run_routes(g, self, corp, action)
                self.conn_revenue = self.turn.revenue
            finally:
                self.turn = saved
            self.conn_stage = "dividend"
        else:
            if action.kind not in ("payout", "withhold"):
                raise EngineError("A connection run's income is paid out in full or withheld, never halved.",
                                  rule="connection.dividend")
            revenue = self.conn_revenue
            if action.kind == "payout":
                t.pay_holders(g, corp, revenue)
                if revenue > 0:
                    zones.move_right(g, corp)
            else:
                t.withhold(g, corp, revenue)
            self.conn_runs.pop(0)
            self.conn_stage = "choose"
            self._resort()

    def _follow_logged_order(self, action: Any) -> None:
        """Until 2023-10 the site did not re-sort after a connection run: if the log has the
        corporation of the unsorted order act at the start of a turn, follow the log."""
        if self.unsorted is None or action.entity_type not in ("corporation", "company"):
            return
        start = self.index if not self.awaiting_next else self.index + 1
        fresh = self.awaiting_next or (self.turn.step == 0 and not self.turn.laid and not self.turn.ran)
        rest = [c for c in self.unsorted if c in self.order[start:]]
        owner = str(action.entity)
        if owner in self.game.state.companies and owner not in self.game.state.corporations:
            owner = str(self.game.state.companies[owner].owner)
        if not fresh or not rest or rest[0] != owner or self.order[start] == owner:
            return
        self.order[start:] = rest
        self.unsorted = None
        if not self.awaiting_next:  # restart the turn for the corporation the log names
            self.turn = TurnState()
            self.title.start_turn(self.game, self, self.corp())
            self._settle()

    def _resort(self) -> None:
        """Corporations still to operate this round are re-sorted by their current prices."""
        st = self.game.state
        start = self.index + 1
        self.unsorted = list(self.order)
        waiting = [c for c in self.order[start:] if st.corporations[c].cell is not None]
        waiting.sort(key=lambda cid: mk.order_key(st, self.title.market, st.corporations[cid]))
        self.order[start:] = waiting

    # ---- price protection (sales to fund a forced train purchase)
    def after_closing(self) -> None:
        """Companies closed at the end of the action (the one operating, one whose protection
        was due): the round moves on past what nobody can do now (sales waiting for the end of
        a turn still under way stay queued)."""
        if self.step_name() == "done" and not self.awaiting_next and not self.queue_waits:
            q = self.queue()
            if q and protection.protect_error(self.game, q[0], set()):
                # as on the site (lockstep sweep, 1870 seed 615, action 809): the closing took
                # away the protection that was due (a cert limit lowered by the company gone):
                # the sales nobody can protect lapse and the next company's turn begins at
                # once, without the check of this turn's end; a sale still protectable waits
                # for the end of that next turn
                self._skip_unprotectable()
                self.no_end_check = True
                if self.queue():
                    self.queue_waits = True
            else:
                self._skip_unprotectable()
        self._settle()

    def _later_operates(self) -> bool:
        """Some company after the one whose turn it is will still operate in this round."""
        st = self.game.state
        return any(not st.corporations[cid].closed and self.title.operates(self.game, st.corporations[cid])
                   for cid in self.order[self.index + 1:])

    def _skip_unprotectable(self) -> None:
        q = self.queue()
        while q and protection.protect_error(self.game, q[0], set()):
            protection.decline(self.game, q.pop(0))
            self._resort()

    def _protection(self, action: Any) -> None:
        if not protection.answer(self.game, action, set()):
            self._resort()
        if self.corp().closed:
            # as on the site: the company whose turn it was closed at the end of an earlier
            # action (a lapsed sale of its own shares took its price to $0): no sale lapses any
            # more in its turn. The next company's turn begins and the sales still queued wait
            # for the end of that turn, where they are resolved as at any turn's end (seed 25,
            # 1228; seed 828, 911: the one protection decided after the closing action is the
            # last in this turn). When no company is left to operate in the round, the sale
            # queued next is offered while its president can protect it (seed 759 from a real
            # game, 1275); once it cannot, the round ends and the rest wait for the next one.
            q = self.queue()
            if q and (self._later_operates() or protection.protect_error(self.game, q[0], set())):
                self.queue_waits = True
            return
        # the protections nobody can make now lapse at once, before any connection check
        self._skip_unprotectable()

    # ---- bankruptcy
    def _bankrupt(self, action: Any) -> None:
        g, t = self.game, self.title
        st = g.state
        corp = st.corporations.get(str(action.entity))
        pid = shares.president(corp) if corp else None
        if corp is None or pid is None:
            raise EngineError("Only a corporation's president may declare bankruptcy for it.",
                              rule="bankrupt.who")
        if not t.must_buy_train(g, self, corp):
            raise EngineError(f"{corp.id} is not forced to buy a train, so its president cannot go bankrupt.",
                              rule="bankrupt.not_forced")
        if not t.may_declare_bankruptcy(g, self, corp):
            raise EngineError(f"{corp.id}'s treasury, its president's cash and the shares he may sell can pay "
                              f"for a ${t.ebuy_needed(g)} train: no bankruptcy.", rule="bankrupt.can_pay")
        player = st.player(pid)
        sold = self.turn.ebuy_sold
        for other in st.corporations.values():
            # as the site: per corporation the largest block a forced-purchase sale may be (the
            # market's room, the president's certificate only if someone can take it, never the
            # buying company's presidency, not above 60% in a white/yellow cell), none of a
            # corporation already sold for this train (one block each)
            allowed = [pct for pct in range(10, shares.percent(other, pid) + 1, 10)
                       if (t.emergency_sale_error(g, corp, pid, other, pct, sold) or ("ok",))[0]
                       in ("ok", "ebuy.sell_more_than_needed")]
            if allowed:
                t._sale_context = (pid, shares.president(other))
                sell_certs(g, other, pid, [], max(allowed))
        st.bank.cash += player.cash
        player.cash = 0
        player.bankrupt = True
        st.finished = True
        st.end_reason = "bankrupt"
