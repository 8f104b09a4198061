"""Default operating-round rules (the common 18xx procedure), mixed into Title.

Each method is a hook a title may override to add one rule; the step machine itself lives
in engine/flow/operating.py. This module keeps the round-level hooks; the rest are grouped
by subject in mixins: or_tokens (board, reach, station tokens), or_track (tile lays),
or_revenue (routes, dividend), or_trains (buying trains, forced purchase, bankruptcy),
or_companies (private companies) and or_steps (what each step allows, dispatch, emergency
share sales).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import market as mk
from engine.flow.or_companies import CompanyRules
from engine.flow.or_revenue import RevenueRules
from engine.flow.or_steps import STEP_OF_KIND, StepRules
from engine.flow.or_tokens import TokenRules
from engine.flow.or_track import TrackRules
from engine.flow.or_trains import TrainRules
from engine.state import Corporation

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.game import Game

__all__ = ["STEP_OF_KIND", "OperatingRules"]


class OperatingRules(TokenRules, TrackRules, RevenueRules, TrainRules, CompanyRules, StepRules):
    or_steps: tuple[str, ...] = ("track", "token", "route", "dividend", "buy_train", "buy_company")
    pass_through_offboards: frozenset[str] = frozenset()

    # ------------------------------------------------------------ round
    def or_name(self, game: Game, rnd: OperatingRound) -> str:
        return f"Operating Round {rnd.number}"

    def on_operating_round_start(self, game: Game, rnd: OperatingRound) -> None:
        self.pay_companies(game)

    def bank_pays(self, game: Game, amount: int) -> None:
        """Money out of the bank (a title may note the bank breaking here)."""
        game.state.bank.cash -= amount

    def operating_order(self, game: Game) -> list[str]:
        st = game.state
        corps = [c for c in st.corporations.values() if c.floated and not c.closed and c.cell]
        corps.sort(key=lambda c: mk.order_key(st, self.market, c))
        return [c.id for c in corps]

    def operates(self, game: Game, corp: Corporation) -> bool:
        return corp.floated and not corp.closed

    def start_turn(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        self.place_home_token(game, corp)

    def end_turn(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        corp.operated_turns += 1

    def end_of_operating_round(self, game: Game, rnd: OperatingRound) -> None:
        for t in game.state.trains:
            t.operated = False
