"""Operating rules: what each step of the turn allows, action dispatch, emergency share sales."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.state import MARKET, Corporation

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.flow.or_host import OperatingHost
    from engine.game import Game
else:
    OperatingHost = object  # the typing-only view of the rest of OperatingRules

STEP_OF_KIND = {
    "lay_tile": "track",
    "place_token": "token",
    "run_routes": "route",
    "dividend": "dividend",
    "buy_train": "buy_train",
    "discard_train": "buy_train",
    "buy_company": "buy_company",
}


class StepRules(OperatingHost):
    def step_kinds(self, game: Game, rnd: OperatingRound, step: str) -> list[str]:
        corp = rnd.corp()
        if step == "track":
            if self.next_lay(game, rnd, corp):
                return ["lay_tile", "pass"]
            return ["pass"] if self.track_abilities_block(game, rnd, corp) else []
        if step == "token":
            return ["place_token", "pass"] if self.can_place_token(game, rnd, corp) else []
        if step == "route":
            return ["run_routes"] if self.active_trains(game, corp) and not rnd.turn.ran else []
        if step == "dividend":
            return ["dividend"] if rnd.turn.ran and rnd.turn.revenue > 0 else []
        if step == "buy_train":
            if self.must_buy_train(game, rnd, corp):
                return ["buy_train", "sell_shares"]
            return ["buy_train", "pass"] if self.can_buy_train(game, rnd, corp) else []
        if step == "buy_company":
            return self.blocking_company_kinds(game, rnd, corp)
        return []

    def step_for_kind(self, kind: str) -> str | None:
        return STEP_OF_KIND.get(kind)

    def why_no_pass(self, game: Game, rnd: OperatingRound, step: str) -> str:
        if step == "buy_train":
            return "it has no train and must buy one."
        if step == "route":
            return "it must run its trains (an empty run is allowed)."
        if step == "dividend":
            return "it must choose to pay out or withhold."
        return "this step may not be skipped."

    def why_blocking(self, game: Game, rnd: OperatingRound, step: str) -> str:
        return {"track": "lay a tile or pass", "token": "place a token or pass",
                "route": "run its trains", "dividend": "pay out or withhold",
                "buy_train": "buy trains or pass", "buy_company": "buy a private or pass"}.get(step, "")

    def skip_step(self, game: Game, rnd: OperatingRound, step: str) -> None:
        if step == "dividend":
            corp = rnd.corp()
            self.withhold(game, corp, 0)
            self.price_after_dividend(game, corp, 0, "withhold")

    def on_pass(self, game: Game, rnd: OperatingRound, step: str) -> None:
        pass

    def process_step(self, game: Game, rnd: OperatingRound, corp: Corporation, step: str, action: Any) -> None:
        # (the round stopped at this step because it has kinds: asked again only to refuse a
        # kind it does not offer, not of a log accepted once, see Game.checking)
        if game.checking and action.type not in self.step_kinds(game, rnd, step):
            raise EngineError(f"{corp.id} cannot {action.type.replace('_', ' ')} now.", rule="operating.kind")
        if step == "track":
            self.lay_tile(game, rnd, corp, action)
        elif step == "token":
            self.place_token(game, rnd, corp, action)
            rnd.turn.step += 1
        elif step == "route":
            self.run_routes(game, rnd, corp, action)
            rnd.turn.step += 1
        elif step == "dividend":
            self.dividend(game, rnd, corp, action.kind)
            rnd.turn.step += 1
        elif step == "buy_train":
            self.buy_train(game, rnd, corp, action)
            if not self.can_buy_train(game, rnd, corp):
                rnd.turn.step += 1
        elif step == "buy_company":
            self.buy_company(game, rnd, corp, action)

    def process_player_action(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str, action: Any) -> None:
        if action.type == "sell_shares" and rnd.step_name() == "buy_train":
            self.emergency_sell(game, rnd, corp, pid, action)
            return
        raise EngineError(f"It is {corp.id}'s operating turn; players act only to raise cash for a forced train purchase.",
                          rule="turn.player")

    def may_sell_for_train(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """Whether the president may sell shares now, in the train step (default: only in a
        forced purchase)."""
        return self.must_buy_train(game, rnd, corp)

    def emergency_certs(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str,
                        action: Any) -> tuple[Corporation, list[Any], int]:
        """Who may sell for a forced purchase, and what: (company sold, certificates, percent).
        `shares: ["GMO"]` with a percent lets the engine pick the certificates."""
        if pid != shares.president(corp):
            raise EngineError(f"Only {corp.id}'s president may sell shares to buy its train.", rule="ebuy.who")
        if not self.may_sell_for_train(game, rnd, corp):
            raise EngineError(f"{corp.id} is not forced to buy a train; shares may be sold only in a stock round.",
                              rule="ebuy.not_forced")
        st = game.state
        names = list(action.shares)
        if len(names) == 1 and names[0] in st.corporations and action.percent:
            names = [c.id for c in shares.pick_for_sale(st.corporations[names[0]], pid, action.percent)]
        certs = []
        for sid in names:
            c = st.corporations.get(sid.rsplit("_", 1)[0])
            cert = next((x for x in c.certs if x.id == sid), None) if c else None
            if cert is None or cert.owner != pid:
                raise EngineError(f"You do not hold {sid}.", rule="ebuy.cert")
            certs.append(cert)
        if not certs:
            raise EngineError("Name the shares to sell.", rule="ebuy.cert")
        for cert in certs:
            if cert.president:
                # the site's can_dump?: a sale including a president's certificate only when
                # another player holds at least as much as that certificate, to take it over
                owner_corp = st.corporations[cert.corp]
                others = max((shares.counted(owner_corp, p.id) for p in st.players if p.id != pid), default=0)
                if others < cert.percent:
                    raise EngineError(
                        f"The president's certificate of {owner_corp.id} may be sold only when another "
                        f"player holds at least {cert.percent}% of it.", rule="ebuy.president_cert")
        target = st.corporations[certs[0].corp]
        return target, certs, action.percent or sum(c.percent for c in certs)

    def forced_sale_error(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str,
                         action: Any) -> EngineError | None:
        """Why the president may not make this sale to raise cash for a train (None: he may)."""
        try:
            self.emergency_checks(game, rnd, corp, pid, action)
        except EngineError as err:
            return err
        return None

    def emergency_checks(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str,
                         action: Any) -> tuple[Corporation, list[Any], int]:
        st = game.state
        target, certs, pct = self.emergency_certs(game, rnd, corp, pid, action)
        if shares.percent(target, MARKET) + pct > self.pool_limit():
            raise EngineError(f"The open market may not hold more than {self.pool_limit()}% of {target.id}.",
                              rule="ebuy.pool")
        before = shares.president(target)
        held_after = shares.counted(target, pid) - pct
        others = max((shares.counted(target, p.id) for p in st.players if p.id != pid), default=0)
        if before == pid and others > held_after:
            raise EngineError(f"Selling that would change the presidency of {target.id}, which is not allowed "
                              "while raising cash for a train.", rule="ebuy.presidency")
        return target, certs, pct

    def emergency_sell(self, game: Game, rnd: OperatingRound, corp: Corporation, pid: str, action: Any) -> None:
        from engine.flow.stock import sell_certs

        target, certs, pct = self.emergency_checks(game, rnd, corp, pid, action)
        # the price sold at bounds what may be paid for another company's train (see
        # TrainRules.other_train_bounds)
        rnd.turn.ebuy_last_sold = self.share_price(target)
        sell_certs(game, target, pid, certs, pct)
        rnd.turn.sold_shares = True
        self.after_emergency_sale(game, rnd, corp)

    def after_emergency_sale(self, game: Game, rnd: OperatingRound, corp: Corporation) -> None:
        pass
