"""The operating round: each floated corporation takes its turn as an ordered list of steps.

Steps (a title may reorder or extend them): track, token, route, dividend, buy_train,
buy_company. A step with nothing to do is skipped; `pass` ends the current step. Buying a
private company and using a private's ability may happen at any point of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.flow import base as flow_base
from engine.flow.base import Round
from engine.state import Corporation

if TYPE_CHECKING:
    from engine.game import Game
    from engine.title import Title


@dataclass
class TurnState:
    step: int = 0
    laid: int = 0
    upgraded: bool = False
    tokened: bool = False
    ran: bool = False
    revenue: int = 0
    routes: list[Any] = field(default_factory=list)
    bought_trains: int = 0
    sold_shares: bool = False
    laid_hexes: list[str] = field(default_factory=list)
    # an emergency buy: the share price of the last share sold (for the next sale's check)
    ebuy_last_sold: int | None = None
    ebuy_sold: list[str] = field(default_factory=list)  # 1870: corporations whose shares it sold
    ebuy_sold_price: int | None = None  # 18MEX: the price of the share it sold
    depot_bought: bool = False  # 18MEX: a train bought from the depot (limited_train_buy)
    train_step_over: bool = False  # 18MEX: no more trains this turn


class OperatingRound(Round):
    kind = "operating"

    def __init__(self, game: Game, round_num: int) -> None:
        super().__init__(game)
        self.round_num = round_num
        game.or_number += 1
        self.number = game.or_number
        self.steps: list[str] = list(game.title.or_steps)
        self.turn = TurnState()
        self.done: list[str] = []
        game.title.on_operating_round_start(game, self)
        self.order: list[str] = game.title.operating_order(game)
        self.index = -1
        self._next_entity()
        # finished as it started: no company operates in it, no move is made in it
        self.started_finished = self.finished

    @property
    def title(self) -> Title:
        return self.game.title

    def name(self) -> str:
        return self.title.or_name(self.game, self)

    def corp(self) -> Corporation:
        return self.game.state.corporations[self.order[self.index]]

    def current(self) -> tuple[str, str]:
        if self.finished or self.index < 0 or self.index >= len(self.order):
            return ("", "")
        c = self.corp()
        return (c.id, c.kind)

    def step_name(self) -> str:
        return self.steps[self.turn.step] if self.turn.step < len(self.steps) else "done"

    # ------------------------------------------------------------ flow
    def _next_entity(self) -> None:
        while True:
            self.index += 1
            if self.index >= len(self.order):
                self.finished = True
                self.title.end_of_operating_round(self.game, self)
                return
            corp = self.corp()
            if corp.closed or not self.title.operates(self.game, corp):
                continue
            self.turn = TurnState()
            self.title.start_turn(self.game, self, corp)
            self._settle()
            return

    def _settle(self) -> None:
        while not self.finished:
            name = self.step_name()
            if name == "done":
                corp = self.corp()
                self.title.end_turn(self.game, self, corp)
                self.done.append(corp.id)
                self._next_entity()
                return
            if self.offers(name):
                return
            self.title.skip_step(self.game, self, name)
            self.turn.step += 1

    def offers(self, name: str) -> bool:
        """Whether step `name` (the current step of the operating company's turn) offers it
        anything: the turn stops there, else the step is skipped.

        In a replay of a log accepted once, the next move (Game.next_move) may tell without
        the rules being asked where that is costly (whether a token has a city to go to, a
        train a route: walks of the track). A step that offers something refuses a later
        step's move, and a step's move is refused once its step is over (`process`); so:
        - a move of the company's for a later step of its turn (not a pass, not one allowed
          at any time) says that this step offers nothing;
        - a move of the company's for this token or route step says that it offers
          something when the turn cannot end without a move if it does not (its train step,
          still to come, offers a purchase: nothing changes before it but by moves), so the
          move cannot be one of the company's next turn;
        - a pass of the company's at its token step says that it offers something when the
          route step after it offers a run (`_told_by_pass`).
        CHECK_TOLD: the rules are asked too and must agree (tests/engine/test_told_steps.py)."""
        told = self._told(name)
        if told is None:
            return bool(self.title.step_kinds(self.game, self, name))
        if flow_base.CHECK_TOLD and told != bool(self.title.step_kinds(self.game, self, name)):
            raise AssertionError(f"move {self.game.next_move.id} told {name} "
                                 f"{'open' if told else 'closed'}; the rules say otherwise")
        return told

    def _told(self, name: str) -> bool | None:
        move = self.game.next_move
        if move is None:
            return None
        corp = self.corp()
        if str(move.entity) != corp.id:
            return None
        kind = move.type
        t = self.title
        if kind == "pass":
            return self._told_by_pass(name)
        if kind in ("buy_company", "discard_train") or kind in t.anytime_kind_names:
            return None
        target = t.step_for_kind(kind)
        steps = self.steps
        if target is None or target not in steps:
            return None
        at, to = steps.index(name), steps.index(target)
        if to > at:
            return False
        if (to == at and name in ("token", "route") and "buy_train" in steps
                and steps.index("buy_train") > at and t.can_buy_train(self.game, self, corp)):
            return True
        return None

    def _told_by_pass(self, name: str) -> bool | None:
        """The company's next move is a pass, at the token step: when the route step right
        after it offers a run (its kinds, here the same as there: skipping the token step
        changes nothing, and they do not depend on the step), the pass cannot be made in any
        step from the route step on, and so belongs to the token step, which then offers
        something. (The route step's question is cheap where the token step's is not: a
        company with two token cities has a route without a walk.)"""
        steps = self.steps
        if name != "token":
            return None
        at = steps.index(name)
        if at + 1 >= len(steps) or steps[at + 1] != "route":
            return None
        kinds = self.title.step_kinds(self.game, self, "route")
        return True if kinds and "pass" not in kinds else None

    def advance(self) -> None:
        """End the current step (after a pass or when it is complete)."""
        self.turn.step += 1
        self._settle()

    def kinds(self) -> list[str]:
        if self.finished:
            return []
        out = list(self.title.step_kinds(self.game, self, self.step_name()))
        for k in self.title.anytime_kinds(self.game, self):
            if k not in out:
                out.insert(0, k)
        return out

    # ------------------------------------------------------------ processing
    def process(self, action: Any) -> None:
        g, t = self.game, self.title
        corp = self.corp()
        etype = action.entity_type or ("player" if isinstance(action.entity, int) else None)
        eid = str(action.entity) if action.entity is not None else corp.id
        if etype == "company" or (eid in g.state.companies and eid not in g.state.corporations):
            company = g.state.companies.get(eid)
            if company is None or company.owner != corp.id or company.closed:
                raise EngineError(f"{eid} is not a private company of {corp.id}, which is operating now.",
                                  rule="turn.company")
            t.process_company_action(g, self, corp, company, action)
            self._settle()
            return
        if etype == "player" or (eid not in g.state.corporations):
            t.process_player_action(g, self, corp, eid, action)
            self._settle()
            return
        if eid != corp.id:
            raise EngineError(f"It is {corp.id}'s operating turn, not {eid}'s.", rule="turn.wrong_corporation")
        step = self.step_name()
        kind = action.type
        if kind == "pass":
            if g.checking and "pass" not in t.step_kinds(g, self, step):
                raise EngineError(f"{corp.id} cannot pass now: {t.why_no_pass(g, self, step)}",
                                  rule="operating.pass")
            t.on_pass(g, self, step)
            self.advance()
            return
        if ((kind == "buy_company" or (kind in t.anytime_kind_names and kind in t.anytime_kinds(g, self)))
                and kind not in t.step_kinds(g, self, step)):
            t.process_anytime(g, self, corp, action)
            self._settle()
            return
        target = t.step_for_kind(kind)
        if target is None:
            raise EngineError(f"{corp.id} cannot {kind.replace('_', ' ')} in an operating round.",
                              rule="operating.kind")
        if target != step:
            pos_target = self.steps.index(target) if target in self.steps else -1
            if pos_target < self.turn.step:
                raise EngineError(
                    f"{corp.id} has finished its {target.replace('_', ' ')} step this turn.",
                    rule="operating.order",
                )
            raise EngineError(
                f"{corp.id} must first finish its {step.replace('_', ' ')} step "
                f"({t.why_blocking(g, self, step)}).",
                rule="operating.order",
            )
        t.process_step(g, self, corp, step, action)
        self._settle()

    # helpers for titles
    def president(self) -> str | None:
        return shares.president(self.corp())
