"""Typing-only view of OperatingRules for its mixins (engine/flow/or_*.py).

Each mixin derives from OperatingHost only under TYPE_CHECKING (at run time its base is
object), so mypy can check the calls one mixin makes into another. List here the attributes
and the hooks that a mixin uses but another one defines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from engine.routes.types import Board
from engine.state import Corporation, Train

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.game import Game


class OperatingHost(Protocol):
    data: Any
    market: Any
    train_limit: int
    dividend_kinds: tuple[str, ...]
    pass_through_offboards: frozenset[str]
    train_specs: dict[str, dict[str, Any]]
    phase_names: list[str]

    def bank_pays(self, game: Game, amount: int) -> None: ...

    # the Title base
    def phase_data(self, game: Game) -> dict[str, Any]: ...

    def tile_colors(self, game: Game) -> tuple[str, ...]: ...

    def pool_limit(self) -> int: ...

    def share_price(self, corp: Corporation) -> int: ...

    def payout(self, game: Game, corp: Corporation, revenue: int) -> None: ...

    def withhold(self, game: Game, corp: Corporation, revenue: int) -> None: ...

    # or_tokens
    def board(self, game: Game) -> Board: ...

    def reach(self, game: Game, corp: Corporation) -> Any: ...

    def reach_board(self, game: Game, corp: Corporation) -> Board: ...

    def city_slots(self, game: Game, hex_name: str, city: int) -> int: ...

    def can_place_token(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool: ...

    def place_token(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any,
                    price_factor: float = 1.0, check_step: bool = True) -> None: ...

    # or_track
    def next_lay(self, game: Game, rnd: OperatingRound, corp: Corporation) -> dict[str, Any] | None: ...

    def track_abilities_block(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool: ...

    def lay_tile(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any, *,
                 free: bool = False, count_lay: bool = True, colors: tuple[str, ...] | None = None,
                 check_connection: bool = True, restrict: bool = True) -> None: ...

    # or_revenue
    def active_trains(self, game: Game, corp: Corporation) -> list[Train]: ...

    def run_routes(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None: ...

    def dividend(self, game: Game, rnd: OperatingRound, corp: Corporation, kind: str) -> None: ...

    def price_after_dividend(self, game: Game, corp: Corporation, revenue: int, kind: str) -> None: ...

    # or_trains
    def can_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool: ...

    def must_buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool: ...

    def buy_train(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any,
                  discount: int = 0) -> None: ...

    # or_companies
    def blocking_company_kinds(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[str]: ...

    def buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None: ...

    def purchasable_companies(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[Any]: ...

    def company_price_range(self, game: Game, company: Any) -> tuple[int, int]: ...
