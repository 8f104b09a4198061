"""Operating rules: running routes (with the deferred revenue audit) and the dividend."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.errors import EngineError
from engine.routes.revenue import score_routes, train_spec
from engine.routes.types import Board, RouteRules, TrainSpec
from engine.state import Corporation, Train

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.flow.or_host import OperatingHost
    from engine.game import Game
else:
    OperatingHost = object  # the typing-only view of the rest of OperatingRules


class RevenueRules(OperatingHost):
    def route_rules(self, game: Game, corp: Corporation) -> RouteRules:
        return RouteRules(phase=game.state.phase, pass_through_offboards=self.pass_through_offboards)

    def active_trains(self, game: Game, corp: Corporation) -> list[Train]:
        cid = corp.id
        return [t for t in game.state.trains if t.owner == cid and not t.gone]

    def train_spec(self, game: Game, train: Train) -> TrainSpec:
        return train_spec(self.data, train.id, train.face)

    def run_routes(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        trains = {t.id: t for t in self.active_trains(game, corp)}
        for r in action.routes:
            if r.train not in trains:
                raise EngineError(f"{corp.id} does not own train {r.train}.", rule="route.train")
        ids = [r.train for r in action.routes]
        if len(set(ids)) != len(ids):
            raise EngineError("Each train may run only one route.", rule="route.one_per_train")
        logged = [r.revenue for r in action.routes]
        if (action.routes and all(v is not None for v in logged) and game.trusting_log
                and not game.strict_revenue):
            # an imported game's logged revenue is kept as it is (the site does the same);
            # checking it against the rules is deferred until someone asks for the warnings
            revenues = [int(v or 0) for v in logged]
            game.defer_audit(self._route_audit(
                self.board(game), corp.id, {i: self.train_spec(game, trains[i]) for i in ids},
                action, self.route_rules(game, corp), revenues))
        else:
            # a live move: the rules compute the revenue, and a claimed figure must match it
            revenues = score_routes(self.board(game), corp.id,
                                    {i: self.train_spec(game, trains[i]) for i in ids},
                                    action.routes, self.route_rules(game, corp)) if action.routes else []
            for r, worth in zip(action.routes, revenues, strict=True):
                if r.revenue is not None and r.revenue != worth:
                    raise EngineError(f"{r.train}'s route is worth ${worth}, not ${r.revenue}.",
                                      rule="route.revenue")
            if action.extra_revenue and not game.trusting_log:
                raise EngineError(f"The rules give no extra revenue here, not "
                                  f"${action.extra_revenue}.", rule="route.revenue")
        total = sum(revenues) + (action.extra_revenue or 0)
        for i in ids:
            trains[i].operated = True
        rnd.turn.ran = True
        rnd.turn.revenue = total
        rnd.turn.routes = list(action.routes)
        self.after_run(game, rnd, corp)

    def after_run(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        pass

    def best_run(self, game: Game, corp: Corporation, *, time_limit_ms: int | None = None) -> Any:
        """The best run the rules allow the corporation now (a solver Solution); a title whose
        run has a further condition (1870's connection run) finds the best run under it."""
        from engine.routes.solver import Solution, best_routes

        trains = {t.id: self.train_spec(game, t) for t in self.active_trains(game, corp)}
        if not trains:
            return Solution(routes=[], revenue=0, exact=True)
        return best_routes(self.board(game), corp.id, trains, self.route_rules(game, corp),
                           time_limit_ms=time_limit_ms)

    def run_error(self, game: Game, corp: Corporation, routes: list[Any]) -> str | None:
        """Why a run of these routes is refused beyond the routes' own legality (title hook)."""
        return None

    @staticmethod
    def _route_audit(board: Board, corp_id: str, specs: dict[str, TrainSpec], action: Any,
                     rules: RouteRules, revenues: list[int]) -> Any:
        def audit() -> str | None:
            try:
                computed = score_routes(board, corp_id, specs, action.routes, rules)
            except EngineError as err:
                return f"action {action.id}: logged route not accepted ({err}); kept the logged revenue"
            if computed != revenues:
                return (f"action {action.id}: {corp_id} logged revenue {sum(revenues)} differs from "
                        f"the rules' {sum(computed)}")
            return None

        return audit

    def dividend(self, game: Game, rnd: OperatingRound, corp: Corporation, kind: str) -> None:
        if kind not in self.dividend_kinds:
            raise EngineError(f"{kind} is not a dividend choice here ({', '.join(self.dividend_kinds)}).",
                              rule="dividend.kind")
        revenue = rnd.turn.revenue
        if kind == "payout":
            self.payout(game, corp, revenue)
            self.price_after_dividend(game, corp, revenue, "payout")
        else:
            self.withhold(game, corp, revenue)
            self.price_after_dividend(game, corp, revenue, "withhold")

    def price_after_dividend(self, game: Game, corp: Corporation, revenue: int, kind: str) -> None:
        if corp.cell is None:
            return
        if kind == "payout" and revenue > 0:
            mk.move(game.state, corp, self.market.right(corp.cell))
        else:
            mk.move(game.state, corp, self.market.left(corp.cell))
