"""Shared helpers for the engine tests: fresh 18MS games driven by scripted actions, and
access to the shared fixtures/reference next to the repository (skipped when absent)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game
from engine.core import shares
from engine.io.export18xx import import_game
from engine.state import IPO, MARKET

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
SKIP_MSG = "needs ../shared (fixtures/reference) next to the repository"
FIXTURES_18MS = ("18MS/14375.json", "18MS/17510.json")
# every real game of ../shared/fixtures, by title
ALL_FIXTURES = (*FIXTURES_18MS, "1870/34110.json", "1870/1870_game_end_bank.json",
                "1870/1870_game_end_bankrupt.json", "1870/40469_price_protect_allowed.json",
                "1870/40469_price_protect_over_cert_limit_fails.json", "18MEX/13315.json",
                "18MEX/17849.json", "18MEX/18MEX_game_end_stock_market.json", "18MEX/hotseat01.json")
PAR_CELLS = {70: "70,1,2", 75: "75,1,3", 80: "80,1,4", 90: "90,0,4"}


def need_shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip(SKIP_MSG)
    return SHARED


def load_fixture(key: str) -> dict[str, Any]:
    path = need_shared() / "fixtures" / key
    if not path.is_file():
        pytest.skip(SKIP_MSG)
    return json.loads(path.read_text(encoding="utf-8"))


def reference(name: str) -> dict[str, Any]:
    path = need_shared() / "reference" / name
    if not path.is_file():
        pytest.skip(SKIP_MSG)
    return json.loads(path.read_text(encoding="utf-8"))


def fixture_at(key: str, upto: int) -> Game:
    """A rich position: the fixture replayed up to and including action `upto`."""
    return import_game(load_fixture(key), upto=upto)


# ---------------------------------------------------------------- scripted games
def new_game(n: int = 3, options: tuple[str, ...] = ()) -> Game:
    return Game("18MS", [f"P{i}" for i in range(1, n + 1)], options)


def do(game: Game, entity: str, type_: str, **kw: Any) -> Any:
    """Apply an action for `entity` (a player, corporation or company id)."""
    st = game.state
    if entity in st.corporations:
        etype = "corporation"
    elif entity in st.companies:
        etype = "company"
    else:
        etype = "player"
    return game.apply({"type": type_, "entity": entity, "entity_type": etype, **kw})


def draft(game: Game, *companies: str) -> None:
    """Each player in draft order (reverse seating) takes the next named company."""
    for company in companies:
        pid = game.current_entity()[0]
        do(game, pid, "bid", company=company, price=game.state.companies[company].value)


def par(game: Game, pid: str, corp: str, price: int) -> Any:
    return do(game, pid, "par", corporation=corp, share_price=PAR_CELLS[price])


def ipo_cert(game: Game, corp: str, where: str = IPO) -> str:
    c = game.state.corporations[corp]
    return next(x.id for x in c.certs if x.owner == where and not x.president)


def buy(game: Game, pid: str, corp: str, where: str = IPO) -> Any:
    return do(game, pid, "buy_shares", shares=[ipo_cert(game, corp, where)], percent=10)


def sell(game: Game, pid: str, corp: str, pct: int) -> Any:
    c = game.state.corporations[corp]
    held = sorted((x for x in c.certs if x.owner == pid), key=lambda x: (x.president, x.id))
    picked, total = [], 0
    for x in held:
        if total >= pct:
            break
        picked.append(x.id)
        total += x.percent
    return do(game, pid, "sell_shares", shares=picked, percent=pct)


def pass_(game: Game, entity: str | None = None) -> Any:
    return do(game, entity or game.current_entity()[0], "pass")


def pct(game: Game, corp: str, owner: str) -> int:
    return shares.percent(game.state.corporations[corp], owner)


def market_pct(game: Game, corp: str) -> int:
    return pct(game, corp, MARKET)


def president(game: Game, corp: str) -> str | None:
    return shares.president(game.state.corporations[corp])


def cash(game: Game, who: str) -> int:
    st = game.state
    if who in st.corporations:
        return st.corporations[who].cash
    return st.player(who).cash


def current(game: Game) -> str:
    return game.current_entity()[0]


def standard_start(n: int = 3) -> Game:
    """Draft (P3 M&O, P2 BS, P1 M&M for 3 players), then SR1 at its first turn (P1)."""
    g = new_game(n)
    picks = ["M&O", "BS", "M&M", "AGS"][:n]
    draft(g, *picks)
    return g


def float_three(g: Game) -> None:
    """SR1 of `standard_start(3)`: P1 GMO@80, P2 IC@90, P3 Fr@90, each bought to 60%."""
    par(g, "P1", "GMO", 80)
    par(g, "P2", "IC", 90)
    par(g, "P3", "Fr", 90)
    for _ in range(4):
        buy(g, "P1", "GMO")
        buy(g, "P2", "IC")
        buy(g, "P3", "Fr")


def finish_stock_round(g: Game) -> None:
    """Everyone passes until this stock round ends."""
    rnd = g.round
    while not g.finished and g.round is rnd:
        pass_(g)


def pass_until_stock_round(g: Game) -> None:
    while not g.finished and g.round.kind == "operating":
        pass_operating_round(g)


def pass_operating_round(g: Game) -> None:
    """In this OR every corporation passes every step it may pass and runs no route."""
    rnd = g.round
    while not g.finished and g.round is rnd and rnd.kind == "operating":
        lg = g.legal()
        if "run_routes" in lg.kinds:
            do(g, lg.entity, "run_routes", routes=[])
            continue
        assert "pass" in lg.kinds, f"{lg.entity} cannot pass: {lg.kinds}"
        pass_(g, lg.entity)
