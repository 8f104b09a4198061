"""Operating rules: private companies (their income, buying them, company actions)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.state import Corporation

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.flow.or_host import OperatingHost
    from engine.game import Game
else:
    OperatingHost = object  # the typing-only view of the rest of OperatingRules


class CompanyRules(OperatingHost):
    def pay_companies(self, game: Game) -> None:
        st = game.state
        for c in st.companies.values():
            if c.closed or c.owner is None or not c.revenue:
                continue
            if c.owner in st.corporations:
                st.corporations[c.owner].cash += c.revenue
            else:
                st.player(c.owner).cash += c.revenue
            self.bank_pays(game, c.revenue)

    def purchasable_companies(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[Any]:
        pres = shares.president(corp)
        return [c for c in game.state.companies.values() if c.owner == pres and pres and not c.closed]

    def company_price_range(self, game: Game, company: Any) -> tuple[int, int]:
        return (max(1, company.value // 2), company.value * 3 // 2)

    def can_buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        comps = self.purchasable_companies(game, rnd, corp)
        return bool(comps) and min(self.company_price_range(game, c)[0] for c in comps) <= corp.cash

    def buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        st = game.state
        company = st.companies.get(action.company)
        if company is None:
            raise EngineError(f"There is no private company {action.company}.", rule="company.unknown")
        if company not in self.purchasable_companies(game, rnd, corp):
            raise EngineError(self.company_purchase_refusal(game, rnd, corp, company), rule="company.buy")
        lo, hi = self.company_price_range(game, company)
        if not lo <= action.price <= hi:
            raise EngineError(f"{company.id} must be bought for ${lo} to ${hi}.", rule="company.price")
        if action.price > corp.cash:
            raise EngineError(f"{corp.id} cannot afford ${action.price}.", rule="company.cash")
        seller = company.owner
        corp.cash -= action.price
        if seller and seller not in st.corporations:
            st.player(seller).cash += action.price
        else:
            st.bank.cash += action.price
        company.owner = corp.id
        self.after_buy_company(game, rnd, corp, company)

    def company_purchase_refusal(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any) -> str:
        return f"{corp.id} cannot buy {company.id} now."

    def after_buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any) -> None:
        pass

    def blocking_company_kinds(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[str]:
        return []

    companies_bought_any_time = False  # a private may be bought at any point of the turn

    # every kind `anytime_kinds` may ever offer (asked first, so that an action of another kind
    # does not ask `anytime_kinds`; a title offering another kind names it here)
    anytime_kind_names: tuple[str, ...] = ("buy_company",)

    def anytime_kinds(self, game: Game, rnd: OperatingRound) -> list[str]:
        if self.companies_bought_any_time and self.can_buy_company(game, rnd, rnd.corp()):
            return ["buy_company"]
        return []

    def process_anytime(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        if action.type == "buy_company":
            self.buy_company(game, rnd, corp, action)
            return
        raise EngineError(f"{corp.id} cannot {action.type.replace('_', ' ')} now.", rule="operating.kind")

    def process_company_action(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any, action: Any) -> None:
        raise EngineError(f"{company.id} has no ability to use now.", rule="company.ability")

