"""The phase-5 NdM merger and the other interruptions of an 18MEX operating turn.

On the first 5 one company may merge into the NdM. Floated candidates are asked in seat order
from the left of the president of the buyer of the 5 (`merge` accepts, `pass` declines); if
none accepts, an unfloated eligible company is taken (the NdM president picks among several;
the last one left goes automatically). No candidate at all: the certificate limit rises by one.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.core import shares
from engine.errors import EngineError
from engine.state import IPO, MARKET, Corporation, Token
from engine.titles.t18mex.shares import MexShareRules
from engine.titles.t18mex.state import mex_state

if TYPE_CHECKING:
    from engine.game import Game
    from engine.state import Train

NDM = "NdM"
MERGE_CERT = "NdM_9"
NEVER_MERGE = ("FCP", "TM")
EXCHANGE_TOKEN_PRICE = 80


class MergerRules(MexShareRules):
    """The merger and the other interruptions of a turn: a link of Title18MEX's rule chain."""

    if TYPE_CHECKING:  # defined above this class in the chain (trains.py)
        def counted_trains(self, game: Game, corp: Corporation) -> list[Train]: ...
        def counted_holdings(self, game: Game) -> dict[str, int]: ...

    # ------------------------------------------------------------ what interrupts a turn
    def pending_interrupt(self, game: Game) -> tuple[str, str, list[str]] | None:
        st = game.state
        ms = mex_state(game)
        cands: list[str] = ms.merge_candidates
        if cands:
            first = st.corporations[cands[0]]
            return (first.id if first.floated else NDM, "corporation", ["merge", "pass"])
        if ms.cities_to_select:
            return (NDM, "corporation", ["assign"])
        # 18MEX's own limit (MexTrainRules, defined after this class in the chain: the phase's,
        # one more for the NdM): the holders over the phase's limit, kept while the trains stay
        # the same (over_limit); else the limit asked of each holder
        if type(self).train_limit_for.__qualname__ == "MexTrainRules.train_limit_for":
            over = self.over_limit(game, ms.obsolete)
            if not over:
                return None
            limit = over[""]
            for corp in st.corporations.values():
                n = over.get(corp.id)
                if n is None or corp.kind != "corporation" or corp.closed:
                    continue
                if n > (limit + 1 if corp.id == NDM else limit):
                    return (corp.id, "corporation", ["discard_train"])
            return None
        held = self.counted_holdings(game)
        for corp in st.corporations.values():
            n = held.get(corp.id)
            if n is None or corp.kind != "corporation" or corp.closed:
                continue
            if n > self.train_limit_for(game, corp):
                return (corp.id, "corporation", ["discard_train"])
        return None

    def over_limit(self, game: Game, obsolete: list[str]) -> dict[str, int]:
        """The holders with more counted trains than the phase's limit and how many they hold
        (`obsolete`: the title state's obsolete trains, which count no more),
        with the limit under "" (empty: none over it). Kept on the game (`over_memo`) with what
        it follows from: the owner of every counted train (held, not gone, not obsolete), in the
        trains' order, and the phase; found again when either differs."""
        st = game.state
        owners = [t.owner for t in st.trains
                  if t.owner is not None and not t.gone and t.id not in obsolete]
        memo = game.over_memo
        if memo is not None and memo[1] == st.phase and memo[0] == owners:
            over: dict[str, int] = memo[2]
            return over
        limit = int(self.phase_data(game).get("train_limit", 2))
        held: dict[str, int] = {}
        for o in owners:
            held[o] = held.get(o, 0) + 1
        over = {o: n for o, n in held.items() if n > limit}
        if over:
            over[""] = limit
        game.over_memo = (owners, st.phase, over)
        return over

    def process_interrupt(self, game: Game, rnd: Any, action: Any, pending: tuple[str, str, list[str]]) -> None:
        st = game.state
        who, _, kinds = pending
        if str(action.entity) != who or action.type not in kinds:
            raise EngineError(f"{who} must first {' or '.join(k.replace('_', ' ') for k in kinds)}.",
                              rule="operating.interrupt")
        cands: list[str] = mex_state(game).merge_candidates
        if action.type == "merge":
            if action.corporation != cands[0]:
                raise EngineError(f"{cands[0]} is the company offered for the NdM merger now.", rule="merger.order")
            self.merge_major(game, st.corporations[cands[0]])
        elif action.type == "pass":
            cands.pop(0)
            self._possible_auto_merge(game)
        elif action.type == "assign":
            self._select_city(game, str(action.target))
        else:
            self._discard(game, st.corporations[who], action.train)
        if rnd.corp().closed:  # the operating company itself merged away: its turn ends
            rnd.turn.step = len(rnd.steps)

    # ------------------------------------------------------------ the merger
    def start_merger(self, game: Game, trigger: str | None) -> None:
        st = game.state
        if not st.corporations[NDM].floated:
            self.merge_major(game, None)
            return
        mex_state(game).merge_candidates = [c.id for c in self._candidates(game, trigger)]
        self._possible_auto_merge(game)

    def _candidates(self, game: Game, trigger: str | None) -> list[Corporation]:
        st = game.state
        ndm_pres = shares.president(st.corporations[NDM])
        corps = [c for c in st.corporations.values()
                 if c.kind == "corporation" and not c.closed and c.id != NDM
                 and c.id not in NEVER_MERGE and shares.president(c) != ndm_pres]
        floated = [c for c in corps if c.floated and shares.president(c) is not None]
        others = [c for c in corps if c not in floated]
        players = [p.id for p in st.players]
        at = players.index(trigger) if trigger in players else -1
        seat = {p: i + 10 if i <= at else i for i, p in enumerate(players)}
        order = list(getattr(game.round, "order", []))
        floated.sort(key=lambda c: (seat[shares.president(c) or ""],
                                    order.index(c.id) if c.id in order else 99))
        if any(not c.ipoed for c in others):
            others = [c for c in others if not c.ipoed]
        return floated + others

    def _possible_auto_merge(self, game: Game) -> None:
        st = game.state
        cands: list[str] = mex_state(game).merge_candidates
        if not cands:
            self.merge_major(game, None)
        elif len(cands) == 1 and not st.corporations[cands[0]].floated:
            self.merge_major(game, st.corporations[cands[0]])

    def merge_major(self, game: Game, major: Corporation | None) -> None:
        st = game.state
        mex_state(game).merge_candidates = []
        if MERGE_CERT in mex_state(game).reserved:
            mex_state(game).reserved.remove(MERGE_CERT)
        if major is None:
            mex_state(game).cert_limit_adjust = int(mex_state(game).cert_limit_adjust) + 1
            return
        ndm = st.corporations[NDM]
        players = [p.id for p in st.players]
        half = self.share_price(major) / 2 if major.ipoed and major.cell else 0
        for pid in players:
            refund = 0.0
            for cert in [c for c in major.certs if c.owner == pid]:
                if cert.president:
                    before = shares.president(ndm)
                    shares.move(ndm, next(c for c in ndm.certs if c.id == MERGE_CERT), pid)
                    shares.update_presidency(ndm, players, before,
                                             self.presidency_swap_pick)
                else:
                    refund += half
                shares.move(major, cert, IPO)  # out of the game with its company
            if refund > 0:
                amount = math.ceil(refund)
                st.player(pid).cash += amount
                st.bank.cash -= amount
        for cert in shares.certs_of(major, MARKET):
            shares.move(major, cert, IPO)
        self._swap_tokens(game, major, ndm)
        ndm.cash += major.cash
        major.cash = 0
        for t in st.trains:
            if t.owner == major.id:
                t.owner = NDM
        mk.remove(st, major)
        major.closed, major.floated, major.ipoed, major.par = True, False, False, None
        mex_state(game).merged = major.id

    def _ndm_in(self, game: Game, hex_name: str, city: int) -> bool:
        return NDM in game.state.city_tokens.get((hex_name, city), [])

    def _swap_tokens(self, game: Game, major: Corporation, ndm: Corporation) -> None:
        exchange = [Token(EXCHANGE_TOKEN_PRICE), Token(EXCHANGE_TOKEN_PRICE)]
        ndm.tokens.extend(exchange)
        home = major.tokens[0]
        if home.hex is not None:
            if self._ndm_in(game, home.hex, home.city):
                self._remove_token(game, major, home)
            else:
                self._replace_token(game, major, home, exchange.pop(0))
        elif major.home is not None:
            hex_name, city = major.home
            if not self._ndm_in(game, hex_name, city):
                slots = self.tokens_in(game, hex_name, city)
                if None in slots:
                    self._put_token(game, ndm, exchange.pop(0), hex_name, city, slots.index(None))
        for tok in major.tokens:
            if tok.hex is not None and self._ndm_in(game, tok.hex, tok.city):
                self._remove_token(game, major, tok)
        remaining = [t for t in major.tokens if t.hex is not None and t is not home]
        if len(remaining) <= len(exchange):
            for tok in remaining:
                self._replace_token(game, major, tok, exchange.pop(0))
            mex_state(game).cities_to_select = []
        else:
            mex_state(game).cities_to_select = [t.hex for t in remaining if t.hex is not None]

    def _remove_token(self, game: Game, corp: Corporation, tok: Token) -> None:
        assert tok.hex is not None
        key = (tok.hex, tok.city)
        game.state.city_tokens[key] = [None if s == corp.id else s for s in game.state.city_tokens.get(key, [])]
        tok.hex = None

    def _replace_token(self, game: Game, major: Corporation, tok: Token, new: Token) -> None:
        assert tok.hex is not None
        hex_name, city, slot = tok.hex, tok.city, tok.slot
        self._remove_token(game, major, tok)
        ndm = game.state.corporations[NDM]
        self._put_token(game, ndm, new, hex_name, city, slot)

    def _select_city(self, game: Game, target: str) -> None:
        st = game.state
        hexes: list[str] = mex_state(game).cities_to_select
        if target not in hexes:
            raise EngineError(f"Choose one of {', '.join(hexes)} for the NdM's exchange token.",
                              rule="merger.assign")
        major = st.corporations[str(mex_state(game).merged)]
        ndm = st.corporations[NDM]
        spare = [t for t in ndm.tokens if t.hex is None and t.cost == EXCHANGE_TOKEN_PRICE]
        for tok in [t for t in major.tokens if t.hex in hexes]:
            if tok.hex == target and spare:
                self._replace_token(game, major, tok, spare[-1])
            else:
                self._remove_token(game, major, tok)
        mex_state(game).cities_to_select = []

    def _discard(self, game: Game, corp: Corporation, train_id: str) -> None:
        train = next((t for t in game.state.trains if t.id == train_id), None)
        if train is None or train.owner != corp.id:
            raise EngineError(f"{corp.id} does not own train {train_id}.", rule="train.discard")
        self.to_open_market(game, train)
