"""Fuzzing the engine's boundary (issue 12): random and malformed actions from real positions.

Each action is applied to a game at a position; the only outcomes allowed are "accepted" or
EngineError (a refusal), and after a refusal the state and the log are exactly as before. The
CI test (tests/engine/test_fuzz.py) runs a small count; `python tools/fuzz.py` the full one.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import EngineError, Game
from engine.errors import EngineFault
from engine.io.export18xx import import_game
from engine.legal import candidate_actions

SHARED = Path(__file__).resolve().parents[3] / "shared"
TITLES = ("18MS", "1870", "18MEX")
PLAYERS = {"18MS": 3, "1870": 4, "18MEX": 4}

TYPES = ["bid", "par", "buy_shares", "sell_shares", "pass", "lay_tile", "place_token",
         "run_routes", "dividend", "buy_train", "buy_company", "discard_train", "assign", "choose",
         "merge", "bankrupt", "end_game", "undo", "redo", "message", "program_buy_shares",
         "program_share_pass", "program_disable", "destination_connection", "nonsense", ""]
FIELDS = ["company", "price", "corporation", "share_price", "shares", "percent", "hex", "tile",
          "rotation", "city", "slot", "routes", "kind", "train", "variant", "exchange", "target",
          "target_type", "choice", "action_id", "entity", "entity_type", "auto_actions", "id",
          "extra_revenue", "swap", "tokener", "message"]
JUNK: list[Any] = [None, -1, 0, 1, 5, 6, 9, 10**6, 10**12, 2**70, -(10**9), "", " ", "x", "Z99",
                   "A1", "x" * 3000, [], {}, [[[[[[[[[[]]]]]]]]]], True, False, 1.5, float("nan"),
                   "GMO_99", "GMO_0", "2+-99", "58-99", "I1-9-9", "I1-0-x", "99,99,99", "a,b,c",
                   "payout", "half", "Map", "Charter", "player", "corporation", "company", "minor",
                   ["x"] * 70, [{"train": "2+-0"}], {"a": {"b": {"c": {"d": {"e": {"f": {}}}}}}},
                   "GMO", "IC", "MP", "NdM", "UdY", "M&O", "2+-0", "1000", "P1", "\u0000", "é" * 5,
                   "Robert'); DROP TABLE actions;--"]


def _entities(g: Game) -> list[tuple[Any, Any]]:
    st = g.state
    out: list[tuple[Any, Any]] = [(p.id, "player") for p in st.players]
    out += [(c, "corporation") for c in st.corporations]
    out += [(c, "minor") for c, corp in st.corporations.items() if corp.kind == "minor"]
    out += [(c, "company") for c in st.companies]
    out += [("Nobody", "player"), ("GMO", "player"), (st.players[0].id, "corporation"),
            (None, None), (12345, "player"), ("", "company")]
    return out


def mutate(rng: random.Random, g: Game, cands: list[dict[str, Any]]) -> Any:
    """One random or malformed action for this position."""
    base = dict(rng.choice(cands)) if cands else {"type": "pass"}
    how = rng.randrange(11)
    if how == 0:  # a random type with random fields
        act: Any = {"type": rng.choice(TYPES)}
        for f in rng.sample(FIELDS, rng.randrange(0, 5)):
            act[f] = rng.choice(JUNK)
        return act
    if how == 1 and base:  # a field dropped
        base.pop(rng.choice(list(base)), None)
        return base
    if how in (2, 3):  # a field set to junk
        base[rng.choice(list(base) + FIELDS)] = rng.choice(JUNK)
        return base
    if how == 4:  # another entity
        base["entity"], base["entity_type"] = rng.choice(_entities(g))
        return base
    if how == 5:  # the kind of another candidate with this one's fields
        other = rng.choice(cands) if cands else {"type": "bid"}
        base["type"] = other["type"]
        return base
    if how == 6:  # a list field corrupted
        for k, v in base.items():
            if isinstance(v, list):
                base[k] = _corrupt_list(rng, v)
                return base
        base["shares"] = _corrupt_list(rng, ["GMO_1"])
        return base
    if how == 7:  # an int field pushed out of range
        for k, v in base.items():
            if isinstance(v, int) and not isinstance(v, bool):
                base[k] = rng.choice([-v - 1, v + rng.randrange(1, 1000), v * 1000, 0, -1])
                return base
        base["price"] = rng.choice(JUNK)
        return base
    if how == 8:  # not a dict at all
        return rng.choice([None, [], "pass", 5, [base], json.dumps(base)])
    if how == 9:  # a claimed value
        if base.get("type") == "run_routes":
            for r in base.get("routes", []):
                r["revenue"] = rng.choice([0, 10, 99999, -5, r.get("revenue", 0) + 10])
            if not base.get("routes"):
                base["routes"] = [{"train": "2+-0", "connections": [], "revenue": 99999}]
        else:
            base["price"] = rng.choice([0, 1, 99999, -1])
        return base
    if how == 10:  # an undo / a program / an end, from anyone
        eid, etype = rng.choice(_entities(g))
        return {"type": rng.choice(["undo", "redo", "end_game", "program_buy_shares",
                                    "program_share_pass", "choose", "message"]),
                "entity": eid, "entity_type": etype, "choice": rng.choice(["Map", "Charter", "x"]),
                "action_id": rng.choice([None, 0, 1, -1, 10**6])}
    return base


def _corrupt_list(rng: random.Random, v: list[Any]) -> list[Any]:
    choice = rng.randrange(5)
    if choice == 0:
        return []
    if choice == 1:
        return v * rng.choice([2, 70])
    if choice == 2:
        return [rng.choice(JUNK) for _ in v] or [rng.choice(JUNK)]
    if choice == 3:
        return [[x] for x in v]
    return list(reversed(v)) + [rng.choice(JUNK)]


def snapshot(g: Game) -> tuple[str, int, int, str]:
    """The state (as text), the log (its length and its last action's identity) and whose
    turn it is: what a refusal must leave as it was."""
    return repr(g.state), len(g.log), id(g.log[-1]) if g.log else 0, repr(g.round.current())


@dataclass
class Tally:
    applied: int = 0
    accepted: int = 0
    refused: int = 0
    faults: list[str] = field(default_factory=list)  # exceptions other than EngineError
    torn: list[str] = field(default_factory=list)  # refusals that changed state or log
    rules: Counter[str] = field(default_factory=Counter)

    def merge(self, other: Tally) -> None:
        self.applied += other.applied
        self.accepted += other.accepted
        self.refused += other.refused
        self.faults += other.faults
        self.torn += other.torn
        self.rules.update(other.rules)


def fuzz_position(g: Game, rng: random.Random, count: int, label: str) -> Tally:
    """Apply `count` random/malformed actions to copies of the game at this position."""
    tally = Tally()
    cands = candidate_actions(g, limit_tiles=60) if not g.finished else []
    cur = _copy(g)
    before = snapshot(cur)
    base_state = before[0]
    for _ in range(count):
        act = mutate(rng, cur, cands)
        shown = _show(act)
        tally.applied += 1
        try:
            cur.apply(copy.deepcopy(act))
        except EngineError as err:
            tally.refused += 1
            tally.rules[err.rule or "?"] += 1
            if snapshot(cur) != before:
                tally.torn.append(f"{label}: {shown}: {err}")
                cur = _copy(g)
                before = snapshot(cur)
            continue
        except (EngineFault, Exception) as err:  # noqa: B014 - a fault is what we look for
            tally.faults.append(f"{label}: {shown}: {type(err).__name__}: {err}"[:300])
            if snapshot(cur) != before:
                tally.torn.append(f"{label}: {shown}: fault left the state changed")
            cur = _copy(g)
            before = snapshot(cur)
            continue
        tally.accepted += 1
        _take_back(cur, g)
        before = snapshot(cur)
        if before[0] != base_state:
            cur = _copy(g)
            before = snapshot(cur)
    return tally


def _take_back(cur: Game, g: Game) -> None:
    """Remove the accepted move again (as the engine does after a refusal: the log without it,
    the state restored from its snapshots)."""
    del cur.log[len(g.log):]
    cur._rebuild()


def _copy(g: Game) -> Game:
    """A fresh copy of the game at the position (the title's static data shared)."""
    return copy.deepcopy(g, {id(g.title.data): g.title.data})


def _show(act: Any) -> str:
    try:
        return json.dumps(act, default=str)[:160]
    except (TypeError, ValueError):
        return repr(act)[:160]


def fixtures(title: str) -> list[Path]:
    folder = SHARED / "fixtures" / title
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def positions(title: str, *, seed: int = 1, per_fixture: tuple[float, ...] = (0.5, 0.95),
              random_moves: tuple[int, ...] = (60, 250)) -> list[tuple[str, Game]]:
    """Start, mid and late positions from the fixtures (as the bot reloads a stored game: its
    moves live), one imported position (live moves of an import), and random-play positions."""
    from engine.randomplay import random_game

    out: list[tuple[str, Game]] = [("start", Game(title, [f"P{i}" for i in range(1, PLAYERS[title] + 1)]))]
    for path in fixtures(title)[:2]:
        data = json.loads(path.read_text())
        ids = [a["id"] for a in data["actions"]]
        for frac in per_fixture:
            upto = ids[int(len(ids) * frac)]
            imported = import_game(data, upto=upto)
            g = Game(title, imported.players, imported.options)
            g.load_log(imported.export_actions())
            out.append((f"{path.name}@{upto}", g))
        out.append((f"{path.name}@{ids[len(ids) // 3]} imported", import_game(data, upto=ids[len(ids) // 3])))
    for moves in random_moves:
        out.append((f"random seed {seed} {moves} moves",
                    random_game(title, seed=seed, players=PLAYERS[title], max_actions=moves)))
    return out


def fuzz_title(title: str, total: int, *, seed: int = 1, quick: bool = False) -> Tally:
    rng = random.Random(seed)
    pos = positions(title, seed=seed, per_fixture=(0.5,) if quick else (0.5, 0.95),
                    random_moves=(40,) if quick else (60, 250))
    tally = Tally()
    each, extra = divmod(total, len(pos))  # `total` in all, spread over the positions
    for i, (label, g) in enumerate(pos):
        count = each + (1 if i < extra else 0)
        if count:
            tally.merge(fuzz_position(g, rng, count, f"{title} {label}"))
    return tally
