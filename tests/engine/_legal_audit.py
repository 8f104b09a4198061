"""The legal answer offers only moves the engine accepts: apply every candidate action of
`engine.legal.candidate_actions` at positions of random games and of the fixtures, each to a
copy of the game, and collect the refused ones (issue 12)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine import EngineError, Game
from engine.io.export18xx import import_game
from engine.legal import candidate_actions
from tests.engine._fuzz import PLAYERS, fixtures


@dataclass
class Audit:
    positions: int = 0
    candidates: int = 0
    refused: list[str] = field(default_factory=list)
    rules: Counter[str] = field(default_factory=Counter)


def audit_position(g: Game, label: str, audit: Audit) -> None:
    if g.finished:
        return
    audit.positions += 1
    for act in candidate_actions(g):
        audit.candidates += 1
        trial = copy.deepcopy(g, {id(g.title.data): g.title.data})
        try:
            trial.apply(act)
        except EngineError as err:
            audit.rules[err.rule or "?"] += 1
            audit.refused.append(f"{label}: {json.dumps(act)[:160]}: [{err.rule}] {err}")


def random_positions(title: str, seed: int, moves: int, every: int, start: int = 0
                     ) -> Iterator[tuple[str, Game]]:
    """Positions of a random game (the engine's random legal play), every `every` moves from
    move `start`."""
    from engine.randomplay import random_game

    full = random_game(title, seed=seed, players=PLAYERS[title], max_actions=moves, undo=False)
    actions = full.export_actions()
    for n in range(start, len(actions), every):
        g = Game(title, full.players, full.options)
        g.load_log(actions[:n])
        yield f"{title} random seed {seed} after {n}", g


def fixture_positions(title: str, every: int) -> Iterator[tuple[str, Game]]:
    for path in fixtures(title):
        data = json.loads(path.read_text())
        ids = [a["id"] for a in data["actions"] if a["type"] not in ("undo", "redo", "message")]
        for aid in ids[::every]:
            imported = import_game(data, upto=aid)
            g = Game(title, imported.players, imported.options)
            g.load_log(imported.export_actions())
            yield f"{path.name}@{aid}", g


def audit_title(title: str, *, seeds: tuple[int, ...] = (1, 2), moves: int = 300, every: int = 3,
                fixture_every: int = 25, start: int = 0) -> Audit:
    audit = Audit()
    for seed in seeds:
        for label, g in random_positions(title, seed, moves, every, start):
            audit_position(g, label, audit)
    if fixture_every:
        for label, g in fixture_positions(title, fixture_every):
            audit_position(g, label, audit)
    return audit


def _main(argv: Any = None) -> None:
    import argparse

    ap = argparse.ArgumentParser()
    ap.add_argument("titles", nargs="*", default=["18MS", "1870", "18MEX"])
    ap.add_argument("--moves", type=int, default=300)
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--fixture-every", type=int, default=25)
    args = ap.parse_args(argv)
    for t in args.titles:
        a = audit_title(t, moves=args.moves, every=args.every, fixture_every=args.fixture_every)
        print(f"{t}: {a.positions} positions, {a.candidates} candidates, {len(a.refused)} refused",
              flush=True)
        print("  rules: " + ", ".join(f"{r} {n}" for r, n in a.rules.most_common()))
        for line in a.refused[:12]:
            print("   ", line)


if __name__ == "__main__":
    _main()
