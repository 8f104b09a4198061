"""Random legal play of a whole 1870 game: every move comes from the engine's legal answer
(engine.legal.candidate_actions), chosen at random with weights that favour progress (see
`weight`) - corporations floated, trains bought from the bank, track laid toward cities and
destinations, routes run, dividends paid when the treasury can spare them - so that a fresh game
gets through the phases, the rustings, the forced purchases and to its end (the bank breaking or
a bankruptcy). After every move the common invariants and 1870's own (`check_1870`) hold.

`python -m tests.engine.t1870._random FIRST LAST PLAYERS [OPTION...]` prints a line per seed (for
picking the seeds of the tests when the legal answer changes)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine import EngineError, Game
from engine.core import shares
from engine.legal import Legal, candidate_actions, legal_moves
from engine.state import IPO
from engine.titles.t1870.state import corp1870
from tests.engine._props import check_common_invariants, total_money

SELL_WEIGHT = 0.03  # a player's sale in a stock round: rare (more and prices churn for ever)
CORP_WEIGHT = 0.3  # a redemption or a reissue
LATE = ("6", "7", "8", "D")  # phases after the first 6 (or D) train: 3s (and 4s) have rusted


@dataclass
class Run:
    """What a random game went through (for the assertions and the failure messages)."""

    seed: int
    players: int
    options: tuple[str, ...]
    phases: list[str] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)
    rejected: list[tuple[dict[str, Any], str]] = field(default_factory=list)

    def summary(self, g: Game) -> str:
        return (f"seed {self.seed}, {self.players} players {list(self.options)}: {len(g.log)} moves, "
                f"phases {self.phases}, end {g.state.end_reason}, {dict(self.seen)}")


def _hex_distance(a: Any, b: Any) -> int:
    dx, dy = abs(a.x - b.x), abs(a.y - b.y)
    return dy + max(0, (dx - dy) // 2)


def weight(g: Game, a: dict[str, Any], lg: Legal) -> float:
    """How much random play likes a candidate (0: only if nothing else is accepted). A zero
    goes to the candidates the legal answer lists but the rules refuse as they stand: trains and
    privates the treasury cannot pay for outside a forced purchase, and the generic guesses of
    candidate_actions where 1870 lists its own decisions (forced sales, the connection run)."""
    kind, rnd = a["type"], g.round
    if kind == "bankrupt":
        return 0.0
    if kind == "pass":
        return 1.0 if rnd.kind == "stock" else 0.3
    if rnd.kind in ("auction", "draft"):
        return 2.0 if kind == "bid" else 1.0
    if rnd.kind == "stock":
        return _stock_weight(g, a)
    corp = rnd.corp()  # type: ignore[attr-defined]
    if kind == "run_routes":
        official = [c for c in lg.choices if c["type"] == "run_routes"]
        return 0.0 if official and a not in official else 20.0
    if kind == "sell_shares" and a["entity_type"] == "player":
        return 1.0 if a in lg.choices else 0.0
    if kind == "buy_train":
        return _train_weight(g, a, corp)
    if kind == "buy_company":
        return 1.0 if int(a["price"]) <= corp.cash else 0.0
    if kind == "lay_tile":
        data = g.title.data
        h = data.hexes[a["hex"]]
        w = {"city": 4.0, "town": 3.0}.get(h.kind, 1.5)
        dest = corp1870(corp).destination
        if isinstance(dest, str) and dest in data.hexes:
            w *= 1 + 6 / (1 + _hex_distance(h, data.hexes[dest]))
        return w
    if kind == "dividend":
        need = min((tr.price for tr in g.title.depot_trains(g)), default=0)
        poor = corp.cash < 2 * need or not g.title.active_trains(g, corp)
        return {"withhold": 4.0 if poor else 1.0, "payout": 1.0 if poor else 4.0}.get(a["kind"], 1.0)
    return {"place_token": 3.0, "assign": 3.0}.get(kind, 1.0)


def _stock_weight(g: Game, a: dict[str, Any]) -> float:
    kind = a["type"]
    if a["entity_type"] == "corporation":
        return CORP_WEIGHT
    if kind == "par":
        return 4.0
    if kind == "sell_shares":
        return SELL_WEIGHT
    if kind == "buy_shares":
        sid = a["shares"][0]
        corp = g.state.corporations[sid.rsplit("_", 1)[0]]
        cert = next(c for c in corp.certs if c.id == sid)
        if cert.owner == IPO:
            return 3.0 if corp.floated else 4.0
        return 1.5
    return 1.0


def _train_weight(g: Game, a: dict[str, Any], corp: Any) -> float:
    st, t = g.state, g.title
    train = next(tr for tr in st.trains if tr.id == a["train"])
    price = int(a["price"])
    if price > corp.cash:  # only the cheapest train of a forced purchase the president can fund
        pres = shares.president(corp)
        if (not t.must_buy_train(g, g.round, corp) or train.owner in st.corporations
                or price != t.cheapest_available(g)
                or pres is None or price - corp.cash > st.player(pres).cash):
            return 0.0
    if train.owner in st.corporations:
        return 0.3
    mine = t.active_trains(g, corp)
    if not mine:
        return 30.0
    return 1.0 if any(tr.name == train.name for tr in mine) else 6.0


def check_1870(g: Game, start_money: int, before: dict[str, Any]) -> None:
    """The common invariants, and 1870's: the phase never goes back; a train type is gone once
    the train that rusts it has been bought; a corporation over its train limit is the one that
    must discard now; closed corporations hold no token, train or cash; privates are closed from
    phase 4; a player's purchase never takes him past the certificate limit."""
    check_common_invariants(g, start_money)
    st, t = g.state, g.title
    for p in st.players:
        assert p.cash >= 0 or p.bankrupt, f"{p.id} has ${p.cash}"
    names = t.phase_names
    assert names.index(st.phase) >= names.index(before["phase"]), f"phase {before['phase']} -> {st.phase}"
    sold = {tr.name for tr in st.trains if tr.owner or tr.gone or tr.discarded}
    for tr in st.trains:
        rust = t.train_specs[tr.name].get("rusts_on_first")
        if rust in sold and not tr.gone:
            assert tr.owner is None and not tr.discarded, f"{tr.id} survived the first {rust}"
    crowded = t.crowded(g)
    if crowded and not st.finished:
        assert g.round.kind == "operating" and g.round.kinds() == ["discard_train"], crowded
        assert g.round.current()[0] == crowded[0].id
    tokens = {s for slots in st.city_tokens.values() for s in slots if s}
    for c in st.corporations.values():
        if c.closed:
            assert c.cash == 0 and not t.active_trains(g, c) and c.id not in tokens, f"closed {c.id}"
    if names.index(st.phase) >= names.index("4"):
        assert all(c.closed for c in st.companies.values()), "a private survived the first 5"
    last = g.log[-1] if g.log else None
    if (last is not None and last.type == "buy_shares" and last.entity_type == "player"
            and before["round"] == "stock"):
        pid = str(last.entity)  # over the limit only if he was already (a corporation closed)
        # and the share bought does not count (a yellow, green or brown zone)
        n = t.cert_count(g, pid)
        assert n <= max(t.cert_limit(g), before["certs"][pid]), f"{pid} bought past the certificate limit"


def play(seed: int, players: int, options: tuple[str, ...] = (), cap: int = 2500) -> tuple[Game, Run]:
    """A whole random game (or `cap` moves); asserts the invariants after every move."""
    rng = random.Random(seed)
    g = Game("1870", [f"P{i}" for i in range(1, players + 1)], options=list(options))
    start = total_money(g)
    run = Run(seed, players, options, [g.state.phase])
    for _ in range(cap):
        if g.finished:
            break
        lg = legal_moves(g)
        cands = candidate_actions(g, limit_tiles=10_000, legal=lg)
        assert cands, f"stuck: no legal move at {g.round.name()} for {lg.entity} ({run.summary(g)})"
        ranked = sorted(((weight(g, a, lg), i, a) for i, a in enumerate(cands)),
                        key=lambda w: _rank(rng, w[0], w[2]))
        before = {"phase": g.state.phase, "round": g.round.kind,
                  "protection": bool(getattr(g.round, "in_protection", lambda: False)()),
                  "certs": {p.id: g.title.cert_count(g, p.id) for p in g.state.players}}
        for w, _, act in ranked:
            try:
                g.apply(act)
            except EngineError as err:
                if w > 0:
                    run.rejected.append((act, str(err)))
                continue
            run.seen[_label(act, before)] += 1
            break
        else:
            raise AssertionError(f"none of the {len(cands)} legal candidates accepted at {g.round.name()} "
                                 f"({run.summary(g)}): {cands[:4]}")
        check_1870(g, start, before)
        if g.state.phase != run.phases[-1]:
            run.phases.append(g.state.phase)
    return g, run


def _rank(rng: random.Random, w: float, act: dict[str, Any]) -> float:
    """Weighted random order: positive weights first, then bankruptcy, then the zero weights."""
    if w > 0:
        return -1 - rng.random() * w
    return -0.5 if act["type"] == "bankrupt" else 0.0


def _label(act: dict[str, Any], before: dict[str, Any]) -> str:
    kind = str(act["type"])
    if act.get("exchange"):
        return "d_trade_in"
    if act["entity_type"] == "corporation" and before["round"] == "stock":
        return "redeem" if kind == "buy_shares" else "reissue"
    if before["protection"]:
        return "protect" if kind == "buy_shares" else "no_protect"
    return kind


if __name__ == "__main__":
    import sys
    import time

    opts = tuple(sys.argv[4:])
    for s in range(int(sys.argv[1]), int(sys.argv[2])):
        t0 = time.time()
        game, r = play(s, int(sys.argv[3]), opts)
        print(f"{time.time() - t0:5.1f}s", r.summary(game), f"rejected {len(r.rejected)}", flush=True)
        for rej in r.rejected[:5]:
            print("   rejected", rej)
