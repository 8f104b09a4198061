"""The best-routes solver on every real position of ../shared/reference/route-positions.json:
its revenue is at least the best the site's auto-router found, the engine accepts its run at
exactly that revenue, and the answer is proven optimal (exact)."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from engine.io.routes_cli import positions
from tests.engine._helpers import SHARED, need_shared


@cache
def _reference() -> dict[tuple[str, str], list[dict[str, Any]]]:
    data = json.loads((SHARED / "reference" / "route-positions.json").read_text())
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for p in data["positions"]:
        out.setdefault((p["title"], p["fixture"]), []).append(p)
    return out


# about 7 s: the largest game's positions run with -m slow; the other games' in the default run
SLOW = {("1870", "1870_game_end_bank.json")}


def _fixtures() -> list[Any]:
    if not SHARED.is_dir():
        return [("none", "none")]
    return [pytest.param(*k, marks=pytest.mark.slow) if k in SLOW else k
            for k in sorted(_reference())]


@pytest.mark.parametrize("title,fixture", _fixtures())
def test_solver_reaches_best_known_revenue(title: str, fixture: str) -> None:
    need_shared()
    data = json.loads((SHARED / "fixtures" / title / fixture).read_text())
    mine = {p["action_id"]: p for p in positions(data)}
    problems = []
    for ref in _reference()[(title, fixture)]:
        got = mine.get(ref["action_id"])
        if got is None or "error" in got:
            problems.append(f"{ref['action_id']}: no answer ({got})")
            continue
        if got["best_revenue"] < ref["best_known_revenue"]:
            problems.append(f"{ref['action_id']} {ref['entity']}: best {got['best_revenue']} "
                            f"< known {ref['best_known_revenue']}")
        if not got["accepted"]:
            problems.append(f"{ref['action_id']}: the engine does not accept the solver's run")
        if not got["exact"]:
            problems.append(f"{ref['action_id']}: not proven optimal")
    assert not problems, "\n".join(problems)
