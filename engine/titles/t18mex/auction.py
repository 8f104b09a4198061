"""The 18MEX opening: the shared waterfall auction (engine/flow/auction.py) of the seven start
certificates, with the title's deliveries: a minor's certificate floats the minor, MIR brings
the CHI_1 share, MNR an immediate NdM par (its winner gets the president's certificate with the
par, as on the site). A full round of passes after something was sold pays the privates (and a
flat sum for floated minors) -- see Title18MEX.auction_pass_round."""

from __future__ import annotations

from typing import Any

from engine.errors import EngineError
from engine.flow.auction import WaterfallAuction


class MexAuction(WaterfallAuction):
    @property
    def title(self) -> Any:
        return self.game.title

    def after_buy(self, pid: str, item: str, price: int) -> None:
        company = self.game.state.companies[item]
        corp = self.title.after_auction_buy(self.game, pid, company)
        if corp is not None:
            self.pending_par.append((pid, corp))

    def all_passed_payout(self) -> None:
        self.title.auction_pass_round(self.game)

    def process_par(self, pid: str, action: Any) -> None:
        corp = self.pending_par[0][1]
        if action.corporation != corp:
            raise EngineError(f"Set the par price of {corp} first.", rule="auction.par_first")
        self.title.par_from_private(self.game, pid, str(action.corporation), str(action.share_price))
