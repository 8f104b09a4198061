"""Benchmark engine.routes.best_routes on the real positions of reference/route-positions.json.

Usage: .venv/bin/python bench/routes_bench.py [--limit N] [--title T] [--check]

Positions are the boards just before each logged run_routes action. When the game replay
(`engine.io.export18xx.import_game`) is available it should be used to build them; until
then this script rebuilds an *approximate* board straight from the fixture log: every tile lay
(18MEX double-hex partners included), every place_token, and each corporation's home token from
its first action. Token removals (18MEX merger) and title bonuses (18MS New Orleans, 1870
ports/cattle/destinations) are not modelled, so the revenues are comparable but not equal to
`best_known_revenue`; the timings are the point.

`--check` also scores every logged route with `score_routes` and counts agreements with the
logged revenue.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.actions import Route  # noqa: E402
from engine.core.data import Geometry, TitleData, load_title_data  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from engine.routes.revenue import score_routes, train_spec  # noqa: E402
from engine.routes.solver import best_routes  # noqa: E402
from engine.routes.types import Board, RouteRules, TrainSpec  # noqa: E402

SHARED = ROOT / ".." / "shared"
PASS_THROUGH = {"18MS": frozenset({"A1", "I1"})}


def effective_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Undo/redo resolution as described in reference/action-log-format.md."""
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    undos: list[list[tuple[dict[str, Any], int]]] = []
    for index, a in enumerate(actions):
        t = a["type"]
        if t == "undo":
            target = a.get("action_id")
            if target is not None:
                to = (
                    0
                    if target == 0
                    else next(i for i, x in enumerate(actions) if x["id"] == target) + 1
                )
            else:
                live = [i for i, x in enumerate(kept) if x and x["type"] != "message"]
                to = live[-1] if live else 0
            undone = []
            for i in range(to, index):
                x = kept[i]
                if x is None or x["type"] == "message":
                    continue
                kept[i] = None
                undone.append((x, i))
            undos.append(undone)
        elif t == "redo":
            for x, i in undos.pop():
                kept[i] = x
        else:
            if t != "message":
                undos.clear()
            kept[index] = a
    return [a for a in kept if a is not None]


class ApproxBoard:
    def __init__(self, data: TitleData) -> None:
        self.data = data
        self.tiles: dict[str, tuple[str, int]] = {}
        self.tile_hex: dict[str, str] = {
            h.preprinted_tile_id: n for n, h in data.hexes.items() if h.preprinted_tile_id
        }
        self.tokens: dict[tuple[str, int], list[str | None]] = {}
        self.homed: set[str] = set()
        self.homes = {c["id"]: c.get("home") for c in list(data.corporations) + list(data.minors)}

    def geometry(self, hex_name: str) -> Geometry:
        laid = self.tiles.get(hex_name)
        if laid is None:
            return self.data.hexes[hex_name].geometry
        return self.data.tiles[laid[0]].geometry

    def lay(self, hex_name: str, tile_id: str, rotation: int) -> None:
        name = tile_id.rsplit("-", 1)[0]
        self.tiles[hex_name] = (name, rotation)
        self.tile_hex[tile_id] = hex_name
        partner = self.data.tiles[name].extra.get("double_hex")
        if partner and partner.get("pair"):
            pair = partner["pair"]
            other = next(
                h
                for h, x in self.data.hexes.items()
                if h != hex_name and pair in x.possible_tiles.get(self.data.tiles[pair].color, {})
            )
            self.tiles[other] = (pair, 0)

    def add_token(self, hex_name: str, index: int, corp: str) -> None:
        cities = self.geometry(hex_name).cities
        if index >= len(cities):
            return
        slots = self.tokens.setdefault((hex_name, index), [None] * max(cities[index].slots, 1))
        if corp in slots:
            return
        for i, s in enumerate(slots):
            if s is None:
                slots[i] = corp
                return
        slots.append(corp)

    def home(self, corp: str) -> None:
        if corp in self.homed:
            return
        self.homed.add(corp)
        home = self.homes.get(corp)
        if home and home.get("hex") in self.data.hexes:
            self.add_token(home["hex"], int(home.get("city_index", 0)), corp)

    def place(self, city_id: str, corp: str) -> None:
        tile_id, part = city_id.rsplit("-", 1)
        hex_name = self.tile_hex.get(tile_id)
        if hex_name is None:
            return
        for c in self.geometry(hex_name).cities:
            if c.part_index == int(part):
                self.add_token(hex_name, c.index, corp)

    def board(self) -> Board:
        return Board(self.data, dict(self.tiles), {k: tuple(v) for k, v in self.tokens.items()})


def positions(title: str | None) -> Iterator[tuple[dict[str, Any], Board, dict[str, Any]]]:
    ref = json.loads((SHARED / "reference" / "route-positions.json").read_text())
    by_fixture: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for p in ref["positions"]:
        if title and p["title"] != title:
            continue
        by_fixture.setdefault((p["title"], p["fixture"]), []).append(p)
    for (t, fixture), ps in by_fixture.items():
        data = load_title_data(t)
        log = json.loads((SHARED / "fixtures" / t / fixture).read_text())
        wanted = {p["action_id"]: p for p in ps}
        b = ApproxBoard(data)
        for a in effective_actions(log["actions"]):
            if a["type"] == "run_routes" and a["id"] in wanted:
                b.home(str(a["entity"]))
                yield wanted[a["id"]], b.board(), a
            for x in [a] + list(a.get("auto_actions") or []):
                if x.get("entity_type") in ("corporation", "minor"):
                    b.home(str(x["entity"]))
                if x["type"] == "lay_tile":
                    b.lay(x["hex"], x["tile"], int(x["rotation"]))
                elif x["type"] == "place_token":
                    b.place(x["city"], str(x.get("tokener") or x["entity"]))


def specs_for(data: TitleData, names: list[str]) -> dict[str, TrainSpec]:
    out: dict[str, TrainSpec] = {}
    for i, name in enumerate(names):
        tid = f"{name}-{i}"
        out[tid] = train_spec(data, tid, name)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--title")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    if not SHARED.exists():
        sys.exit(f"{SHARED} not found: the benchmark needs the shared fixtures")
    times: list[float] = []
    by_title: dict[str, list[float]] = {}
    inexact = below = above = 0
    agree = disagree = errors = 0
    worst: list[tuple[float, str]] = []
    for n, (pos, board, action) in enumerate(positions(args.title)):
        if args.limit and n >= args.limit:
            break
        data = board.data
        rules = RouteRules(
            phase=str(pos["phase"]),
            pass_through_offboards=PASS_THROUGH.get(data.title, frozenset()),
        )
        specs = specs_for(data, pos["trains"])
        t0 = time.perf_counter()
        sol = best_routes(board, str(pos["entity"]), specs, rules)
        ms = (time.perf_counter() - t0) * 1000
        times.append(ms)
        by_title.setdefault(data.title, []).append(ms)
        worst.append((ms, f"{data.title} {pos['fixture']} #{pos['action_id']} {pos['trains']}"))
        inexact += not sol.exact
        below += sol.revenue < pos["best_known_revenue"]
        above += sol.revenue > pos["best_known_revenue"]
        if args.check:
            logged = [Route.model_validate(r) for r in action["routes"]]
            tr = {r.train: train_spec(data, r.train) for r in logged}
            try:
                got = score_routes(board, str(pos["entity"]), tr, logged, rules)
                if all(
                    r.revenue is None or r.revenue == g for r, g in zip(logged, got, strict=True)
                ):
                    agree += 1
                else:
                    disagree += 1
            except EngineError:
                errors += 1

    def fmt(xs: list[float]) -> str:
        xs = sorted(xs)
        p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
        return f"n={len(xs)} median={statistics.median(xs):.2f} ms p95={p95:.2f} ms max={xs[-1]:.1f} ms"

    print("all  ", fmt(times))
    for t, xs in sorted(by_title.items()):
        print(f"{t:5}", fmt(xs))
    print(f"inexact={inexact} below_best_known={below} above_best_known={above}")
    if args.check:
        print(f"logged routes: agree={agree} disagree={disagree} rejected={errors}")
    for ms, what in sorted(worst, reverse=True)[:5]:
        print(f"  slow: {ms:.1f} ms {what}")


if __name__ == "__main__":
    main()
