"""18MEX (Mark Derrick): the title's hooks over the common rules. Facts are in the JSON files
beside this module; where the bot follows the 18xx.games logs rather than the printed rules
is listed in RULES.md. Operating-round hooks are in operating.py, the NdM merger in merger.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.state import MARKET, Corporation, State
from engine.titles.t18mex.auction import MexAuction
from engine.titles.t18mex.ids import (
    COPPER_CANYON,
    COPPER_CANYON_TILE,
    DOUBLE_HEX,
    KCMO,
    KCMO_DISCOUNT,
    MINOR_TRAINS,
    NDM,
    PUEBLA,
)
from engine.titles.t18mex.operating import MexOperatingRules
from engine.titles.t18mex.state import MexState, mex_state
from engine.titles.t18mex.variants import BAJA, CDB, baja_data

if TYPE_CHECKING:
    from engine.flow.base import Round
    from engine.game import Game

# trade-in certificates, handed out later: minors A/B (NdM 5%), C (UdY 10%), the merger (NdM 10%)
RESERVED = ("NdM_7", "NdM_8", "UdY_8", "NdM_9")
MINOR_FLAT_PAY = 15  # all-pass round of an unfinished auction: each floated minor and its owner


class Title18MEX(MexOperatingRules):
    name = "18MEX"
    bankruptcy_allowed = True
    track_restriction = "city_permissive"  # as on the site: new track, or a tile with a city

    def __init__(self, options: tuple[str, ...] = ()) -> None:
        super().__init__(options)
        if BAJA in options:  # Santa Rosalia, Los Mochis off-board and the Compagnie du Boleo
            self.data = baja_data(self.name)

    # ------------------------------------------------------------ setup
    def setup(self, game: Game) -> State:
        st = super().setup(game)
        for minor_id, train_id in MINOR_TRAINS.items():
            minor = st.corporations[minor_id]
            minor.owner = None
            train = next(t for t in st.trains if t.id == train_id)
            train.owner, train.sellable = minor_id, False
            assert minor.home is not None
            hex_name, city = minor.home
            slots = [minor_id] + [None] * (self._printed_slots(hex_name, city) - 1)
            st.city_tokens[(hex_name, city)] = slots
            minor.tokens[0].hex, minor.tokens[0].city, minor.tokens[0].slot = hex_name, city, 0
        st.title_state = MexState(reserved=list(RESERVED))
        return st

    def _printed_slots(self, hex_name: str, city: int) -> int:
        return int(self.data.hexes[hex_name].geometry.cities[city].slots)

    # ------------------------------------------------------------ flow
    def first_round(self, game: Game) -> Round:
        return MexAuction(game)

    def next_round(self, game: Game, finished: Round) -> Round | None:
        st = game.state
        if st.finished:
            return None
        if finished.kind == "auction":
            return self.stock_round(game)
        if finished.kind == "stock":
            mex_state(game).ors_in_set = int(self.phase_data(game)["operating_rounds_per_set"])
            return self.operating_round(game, 1)
        trigger = mex_state(game).end_trigger
        if trigger is not None:
            st.end_reason = str(trigger)
            return None
        rnd: Any = finished
        if rnd.round_num < int(mex_state(game).ors_in_set):
            return self.operating_round(game, rnd.round_num + 1)
        return self.stock_round(game)

    def check_end_trigger(self, game: Game) -> None:
        """The bank broken or a price at $200 ends the game after the current (next) OR."""
        st = game.state
        if mex_state(game).end_trigger is not None:
            return
        if st.bank.cash < 0:
            mex_state(game).end_trigger = "bank"
            return
        # (asked after every action: the end cells found once, a plain loop over the companies;
        # one without a price, cell None, is in none of them)
        endgame = self.market.cells_of("endgame")
        for c in st.corporations.values():
            if c.cell in endgame and not c.closed:
                mex_state(game).end_trigger = "stock_market"
                return

    def auction_pass_round(self, game: Game) -> None:
        """Everyone passed after something was sold: privates pay; floated minors get a flat sum."""
        st = game.state
        self.pay_companies(game)
        if mex_state(game).sr_started:
            return
        for minor in self.minors(game):
            owner = minor.owner
            if minor.floated and isinstance(owner, str):
                st.player(owner).cash += MINOR_FLAT_PAY
                minor.cash += MINOR_FLAT_PAY
                st.bank.cash -= 2 * MINOR_FLAT_PAY

    def after_auction_buy(self, game: Game, pid: str, company: Any) -> str | None:
        """A minor's certificate floats the minor; MIR brings CHI_1; MNR the NdM presidency."""
        st = game.state
        if company.id in MINOR_TRAINS:
            minor = st.corporations[company.id]
            minor.owner = pid
            minor.floated = True
            return None
        cert_id = self._company_share(company.id)
        if cert_id is None:
            return None
        corp = st.corporations[cert_id.rsplit("_", 1)[0]]
        cert = next(c for c in corp.certs if c.id == cert_id)
        if cert.president:  # handed out with the par (par_from_private), as on the site
            return corp.id
        shares.move(corp, cert, pid)
        return None

    def _company_share(self, company_id: str) -> str | None:
        for c in self.data.companies:
            ab = c.get("ability") or {}
            if c["id"] == company_id and ab.get("share"):
                return str(ab["share"])
        return None

    def par_from_private(self, game: Game, pid: str, corp_id: str, cell_id: str) -> None:
        from engine.flow.stock import par_place

        corp = game.state.corporations[corp_id]
        try:
            cell = self.market.parse_cell_id(cell_id)
        except KeyError:
            cell = None
        if cell is None or cell_id not in self.market.par_cells:
            vals = ", ".join(f"${self.market.price(c)}" for c in self.market.par_cells.values())
            raise EngineError(f"{cell_id.split(',')[0]} is not a par value for {corp_id} (choose {vals}).",
                              rule="stock.par")
        par_place(game, corp, cell)
        shares.move(corp, shares.president_cert(corp), pid)  # the private's president certificate

    # ------------------------------------------------------------ rounds
    def on_stock_round_start(self, game: Game, rnd: Any) -> None:
        mex_state(game).sr_started = True
        if mex_state(game).minor_close_pending:  # option delay_minor_close
            mex_state(game).minor_close_pending = False
            self.close_minors(game)

    def on_float(self, game: Game, corp: Corporation) -> None:
        mex_state(game).recently_floated.append(corp.id)

    def end_of_operating_round(self, game: Game, rnd: Any) -> None:
        # as on the site, the next round clears the mark of having run on the companies' trains
        # only: a train in the open market keeps it
        ran = [t for t in game.state.trains if t.owner is None and t.operated]
        super().end_of_operating_round(game, rnd)
        for t in ran:
            t.operated = True
        mex_state(game).recently_floated = []

    def end_of_stock_round(self, game: Game, rnd: Any) -> None:
        super().end_of_stock_round(game, rnd)
        self.check_end_trigger(game)

    def operating_round(self, game: Game, round_num: int) -> Round:
        from engine.titles.t18mex.operating import MexOperatingRound

        return MexOperatingRound(game, round_num)

    # ------------------------------------------------------------ the legal answer
    def legal_extras(self, game: Game, base: dict[str, Any]) -> None:
        """18MEX's own decisions for engine.legal: the merger offer, the NdM's token choice,
        discards, the KCMO's Copper Canyon tile, private purchases between players and the NdM
        5%/10% swaps, as complete actions in `choices` (and `companies` for the stock round)."""
        rnd: Any = game.round
        choices: list[dict[str, Any]] = []
        if rnd.kind == "operating" and not rnd.finished:
            pending = rnd.interrupt()  # (a discard waiting for the train step: none yet)
            if pending is not None:
                base["company_abilities"] = []
                choices = self._interrupt_choices(game, pending)
            else:
                if base.get("tiles") and self.terrain_cost(game, rnd.corp(), PUEBLA) > rnd.corp().cash:
                    # either half of the double hex charges Puebla's cost
                    base["tiles"] = {h: o for h, o in base["tiles"].items() if h not in DOUBLE_HEX}
                if base.get("trains"):  # other companies' trains: this title's price limits
                    corp = rnd.corp()
                    trains = {t.id: t for t in game.state.trains}
                    base["trains"] = [
                        (tid, face, *self.other_train_range(game, rnd, corp, trains[tid]), seller)
                        if seller != "bank" else (tid, face, lo, hi, seller)
                        for tid, face, lo, hi, seller in base["trains"]]
                    base["trains"] = [t for t in base["trains"] if t[2] <= t[3] and not (
                        t[4] == "bank" and self.depot_closed_this_turn(game, rnd))]
                    if self.must_buy_train(game, rnd, corp):  # beyond the treasury, only the cheapest
                        kinds = self.forced_kinds(game)[2]
                        base["trains"] = [t for t in base["trains"] if not (
                            t[4] == "bank" and t[2] > corp.cash and t[1] not in kinds)]
                choices = self._kcmo_choices(game, rnd, rnd.corp())
                if choices:
                    base["company_abilities"] = [*base.get("company_abilities", []), (KCMO, "lay_tile")]
                if "sell_shares" in base["kinds"] and base["entity_type"] == "corporation":
                    choices += self.ebuy_sales(game, rnd, rnd.corp())  # the president's forced sales
                cdb = self.cdb_token_choices(game, rnd, rnd.corp())
                if cdb:
                    base["company_abilities"] = [*base.get("company_abilities", []), (CDB, "place_token")]
                    choices += cdb
        elif rnd.kind == "stock" and base["entity"]:
            pid = str(base["entity"])
            kinds = base["kinds"]
            if "buy_company" in kinds:
                cash = game.state.player(pid).cash
                base["companies"] = [(c.id, 1, cash) for c in self.tradeable_companies(game, rnd, pid)]
            e = {"entity": pid, "entity_type": "player"}
            if base.get("buy_shares"):  # a 5% certificate costs half a share rounded up
                certs = {c.id: (corp, c) for corp in game.state.corporations.values() for c in corp.certs}
                base["buy_shares"] = [
                    (sid, self.half_share_cost(*certs[sid]) if certs[sid][1].percent == 5 else price, *rest)
                    for sid, price, *rest in base["buy_shares"]]
            if "buy_shares" in kinds:
                for ten, five, _price in rnd.swap_options(pid):
                    choices.append({**e, "type": "buy_shares", "shares": [ten], "percent": 10, "swap": five})
            if "sell_shares" in kinds:
                for cid in self._ndm_half_sales(game, rnd, pid):
                    ndm = game.state.corporations[NDM]
                    if next(c for c in ndm.certs if c.id == cid).percent == 5:
                        choices.append({**e, "type": "sell_shares", "shares": [cid], "percent": 5})
                    else:  # the site's swap sale: the 10% sold, the pool's first 5% named
                        five = next(c for c in shares.certs_of(ndm, MARKET) if c.percent == 5)
                        choices.append({**e, "type": "sell_shares", "shares": [cid], "percent": 10,
                                        "swap": five.id})
        base["choices"] = choices

    def _interrupt_choices(self, game: Game, pending: tuple[str, str, list[str]]) -> list[dict[str, Any]]:
        st = game.state
        who, _, kinds = pending
        e = {"entity": who, "entity_type": "corporation"}
        if "merge" in kinds:
            return [{**e, "type": "merge", "corporation": mex_state(game).merge_candidates[0]}]
        if "assign" in kinds:
            return [{**e, "type": "assign", "target": h, "target_type": "hex"}
                    for h in mex_state(game).cities_to_select]
        corp = st.corporations[who]
        return [{**e, "type": "discard_train", "train": t.id} for t in self.counted_trains(game, corp)]

    def _kcmo_choices(self, game: Game, rnd: Any, corp: Corporation) -> list[dict[str, Any]]:
        """The Copper Canyon lays open to the operating company's KCMO now (its track step)."""
        st = game.state
        kcmo = st.companies.get(KCMO)
        if (kcmo is None or kcmo.closed or kcmo.owner != corp.id or rnd.step_name() != "track"
                or COPPER_CANYON in st.tiles):
            return []
        free = st.tile_supply.get(COPPER_CANYON_TILE, [])
        if not free or self.terrain_cost(game, corp, COPPER_CANYON) - KCMO_DISCOUNT > corp.cash:
            return []
        tile = self.data.tiles[COPPER_CANYON_TILE]
        edges = self.data.hexes[COPPER_CANYON].passable_edges
        return [{"entity": KCMO, "entity_type": "company", "type": "lay_tile", "hex": COPPER_CANYON,
                 "tile": free[0], "rotation": r} for r in range(6) if tile.geometry.exits(r) <= edges]

    # ------------------------------------------------------------ bankruptcy
