"""Random legal play: a whole game of moves taken from the engine's own legal answer.

Every move comes from `candidate_actions` (all kinds: bids, pars, buys, sales, lays, tokens,
routes, dividends, trains, privates, bankruptcies and each title's own decisions), chosen at
random with weights that favour progress (corporations floated, trains bought from the bank,
routes run), so that a new game reaches its end. Now and then a player takes a move back
(undo) and sometimes puts it again (redo), as players do in live play. Deterministic for a seed:
the same seed, players and options give the same log. Used by `python -m engine random` to make
games for the lockstep comparison with the site, and by the property tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from engine.errors import EngineError
from engine.game import Game
from engine.legal import Legal, candidate_actions, legal_moves
from engine.state import IPO

UNDO_CHANCE = 0.01  # a move taken back now and then
REDO_CHANCE = 0.4  # after an undo, put it back
STOCK_SELL = 0.05  # a player's sale in a stock round: rare (prices would churn for ever)


STYLES = ("default", "steady")


def weight(game: Game, a: dict[str, Any], lg: Legal, style: str = "default") -> float:
    """How much random play likes a candidate (0: only when nothing else is accepted).

    The "steady" style seldom buys a bank train for a corporation that has one already, so
    more games run long enough for the bank to break (the default style's eager buying ends
    most games in a bankruptcy)."""
    kind, rnd, st = a["type"], game.round, game.state
    if kind == "bankrupt":
        return 0.0
    if kind == "pass":
        return 0.6 if rnd.kind == "stock" else 0.3
    if rnd.kind in ("auction", "draft"):
        return 2.0 if kind == "bid" else 1.0
    if rnd.kind == "stock":
        if a.get("entity_type") != "player":
            return 0.3
        if style == "steady" and kind in ("par", "buy_shares") and _keeps_reserve(game, a):
            return 0.15
        if kind == "par":
            return 4.0
        if kind == "sell_shares":
            return STOCK_SELL
        if kind == "buy_shares":
            sid = a["shares"][0]
            corp = st.corporations.get(sid.rsplit("_", 1)[0])
            if corp is None:
                return 1.0
            cert = next((c for c in corp.certs if c.id == sid), None)
            if cert is not None and cert.owner == IPO:
                return 3.0 if corp.floated else 4.0
            return 1.5
        return 1.0
    # operating round
    if kind == "run_routes":
        official = [c for c in lg.choices if c["type"] == "run_routes"]
        return 0.0 if official and a not in official else 20.0
    if kind == "sell_shares" and a.get("entity_type") == "player":
        return 1.0 if a in lg.choices else 0.2
    if kind == "buy_train":
        owner = next((tr.owner for tr in st.trains if tr.id == a["train"]), None)
        if owner is not None:
            return 0.5
        if style == "steady" and any(tr.owner == a.get("entity") and not tr.gone
                                     for tr in st.trains):
            return 0.1
        return 30.0
    if kind == "lay_tile":
        h = game.title.data.hexes.get(str(a.get("hex")))
        return {"city": 4.0, "town": 3.0}.get(h.kind if h else "", 1.5)
    if kind == "dividend":
        return {"payout": 3.0, "withhold": 1.0}.get(str(a.get("kind")), 1.0)
    return {"place_token": 3.0, "buy_company": 1.0}.get(kind, 2.0)


def _keeps_reserve(game: Game, a: dict[str, Any]) -> bool:
    """A steady player keeps the price of the depot's next train in hand."""
    st = game.state
    nxt = next((tr.price for tr in st.trains if tr.owner is None and not tr.gone), 0)
    try:
        cash = st.player(str(a["entity"])).cash
    except KeyError:
        return False
    return cash < 2 * nxt


def _ranked(rng: random.Random, game: Game, lg: Legal,
            cands: Iterable[dict[str, Any]], style: str = "default") -> list[dict[str, Any]]:
    keyed = []
    for i, a in enumerate(cands):
        w = weight(game, a, lg, style)
        # positive weights first (weighted random order), then bankruptcy, then the rest
        key = -1.0 - rng.random() * w if w > 0 else (-0.5 if a["type"] == "bankrupt" else 0.0)
        keyed.append((key, i, a))
    keyed.sort(key=lambda k: (k[0], k[1]))
    return [a for _, _, a in keyed]


def random_order(rng: random.Random, game: Game, lg: Legal) -> dict[str, Any] | None:
    """A standing order some player gives now (from the legal answer's programs), varied: an
    auto-pass (now and then for every round or whatever happens), an auto-buy until the
    corporation floats or until a number of shares, sometimes from the open market, sometimes
    then passing for the rest of the round."""
    offers = [dict(a) for a in lg.programs]
    if not offers:
        return None
    act = rng.choice(offers)
    if act["type"] == "program_share_pass":
        act["unconditional"] = rng.random() < 0.2
    elif act["type"] == "program_buy_shares":
        corp = game.state.corporations[act["corporation"]]
        held = sum(c.percent for c in corp.certs if c.owner == act["entity"]) // 10
        if rng.random() < 0.3:
            act["until_condition"] = held + rng.randint(1, 3)
        act["from_market"] = rng.random() < 0.1
        act["auto_pass_after"] = rng.random() < 0.3
    return act


def random_game(title: str, *, seed: int, players: int, options: Iterable[str] = (),
                max_actions: int = 20000, undo: bool = True, style: str = "default",
                programs: float = 0.0) -> Game:
    """Play a new game by random legal moves until it ends or `max_actions` are logged.
    `programs`: the chance, before each move in a stock round, that a player gives a standing
    order (auto-pass, auto-buy, cancel); 0 gives none (and the same games as before)."""
    ids = [(str(1000 + i), f"Player {i}") for i in range(1, players + 1)]
    game = Game(title, ids, list(options))
    game.raw_player_ids = {pid: int(pid) for pid, _ in ids}
    return play_on(game, seed=seed, max_actions=max_actions, undo=undo, style=style,
                   programs=programs)


def play_on(game: Game, *, seed: int, max_actions: int = 20000, undo: bool = True,
            style: str = "default", programs: float = 0.0) -> Game:
    """Go on with `game` (new, or loaded from a log) by random legal moves until it ends or
    `max_actions` are logged: the loop of `random_game`, so a real game's position can be
    played on from (`python -m engine random --from`)."""
    rng = random.Random(seed)
    title = game.title_name
    ids = list(game.players)
    while not game.finished and len(game.log) < max_actions:
        last = game.log[-1].type if game.log else None
        acting = game.acting_players()
        if undo and last == "undo" and rng.random() < REDO_CHANCE and game.can_redo():
            game.apply({"type": "redo", "entity": acting[0] if acting else ids[0][0],
                        "entity_type": "player"})
            continue
        if undo and game.log and rng.random() < UNDO_CHANCE and acting:
            try:
                game.apply({"type": "undo", "entity": acting[0], "entity_type": "player"})
                continue
            except EngineError:
                pass
        lg = legal_moves(game)
        if programs and game.round.kind == "stock" and rng.random() < programs:
            order = random_order(rng, game, lg)
            if order is not None:
                try:
                    game.apply(order)
                    continue
                except EngineError:
                    pass
        cands = candidate_actions(game, limit_tiles=10_000, legal=lg)
        if not cands:
            raise EngineError(f"{title} seed {seed}: no legal move for {lg.entity} in "
                              f"{game.round.name()}", rule="random.stuck")
        for act in _ranked(rng, game, lg, cands, style):
            try:
                game.apply(act)
                break
            except EngineError:
                continue
        else:
            raise EngineError(f"{title} seed {seed}: none of {len(cands)} legal candidates was "
                              f"accepted for {lg.entity} in {game.round.name()}",
                              rule="random.stuck")
    return game
