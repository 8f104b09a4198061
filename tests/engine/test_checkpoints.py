"""A refused move and an undo restore the state from a snapshot instead of replaying the whole
log: the state must be exactly the one a full replay of the log gives."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from engine import EngineError, Game
from engine.io.export18xx import end_state
from engine.legal import legal_moves
from engine.randomplay import random_game
from engine.titles.t18ms.state import MsState, ms_state


@dataclass(slots=True)
class _Unpicklable(MsState):
    """18MS's state with something in it that a pickle cannot hold."""

    hook: Callable[[], None] | None = None


def _fresh(g: Game) -> Game:
    fresh = Game(g.title_name, g.players, g.options)
    fresh.raw_player_ids = g.raw_player_ids
    fresh.load_log(g.export_actions())
    return fresh


def _same(a: Game, b: Game) -> None:
    assert end_state(a) == end_state(b)
    assert a.round.name() == b.round.name()
    assert a.current_entity() == b.current_entity()
    assert legal_moves(a) == legal_moves(b)
    assert a.state.tiles == b.state.tiles and a.state.city_tokens == b.state.city_tokens


@pytest.mark.parametrize("title,players", [("18MS", 4), ("1870", 3), ("18MEX", 4)])
def test_random_play_with_refusals_and_undos_equals_a_full_replay(title: str, players: int) -> None:
    g = random_game(title, seed=21, players=players, max_actions=260)
    assert any(a.type == "undo" for a in g.log) or title != "18MS"
    _same(g, _fresh(g))


def test_refusal_after_many_moves_leaves_the_state_of_the_log() -> None:
    g = random_game("18MS", seed=8, players=3, max_actions=75, undo=False)
    snap = end_state(g)
    for bad in ({"type": "lay_tile", "hex": "E5", "tile": "57-0", "rotation": 5},
                {"type": "buy_train", "train": "6-0", "price": 1},
                {"type": "pass"}, {"type": "bid", "company": "AGS", "price": 5}):
        eid, etype = g.current_entity()
        try:
            g.apply({**bad, "entity": "nobody" if bad["type"] == "pass" else eid,
                     "entity_type": etype})
        except EngineError:
            pass
        else:  # a legal move: the log grew, compare with its replay anyway
            snap = end_state(g)
        assert end_state(g) == snap
        _same(g, _fresh(g))
    # undo back past several snapshots, then redo them one at a time
    for _ in range(20):
        g.apply({"type": "undo", "entity": g.acting_players()[0], "entity_type": "player"})
    _same(g, _fresh(g))
    for _ in range(20):
        g.apply({"type": "redo", "entity": g.acting_players()[0], "entity_type": "player"})
    _same(g, _fresh(g))
    assert end_state(g) == snap


def _counting(g: Game) -> list[int]:
    """Counts the moves the game processes from now on (replays included)."""
    seen = [0]
    real = g._process

    def process(act: object) -> None:
        seen[0] += 1
        real(act)

    g._process = process  # type: ignore[method-assign]
    return seen


def test_a_refusal_and_undos_replay_no_more_than_a_few_moves() -> None:
    full = random_game("18MS", seed=8, players=3, max_actions=300, undo=False)
    g = _fresh(full)  # a stored game loaded at once, as the bot loads it
    seen = _counting(g)
    eid, etype = g.current_entity()
    with pytest.raises(EngineError):
        g.apply({"type": "bid", "company": "AGS", "price": 5, "entity": eid, "entity_type": etype})
    assert seen[0] <= 1  # only the refused move itself: the state before it is restored
    for _ in range(6):  # undo one move at a time: from the nearest snapshot each time
        seen[0] = 0
        g.apply({"type": "undo", "entity": g.players[0][0], "entity_type": "player"})
        assert seen[0] <= 16
    for _ in range(6):  # a redo applies only the move it puts back
        seen[0] = 0
        g.apply({"type": "redo", "entity": g.players[0][0], "entity_type": "player"})
        assert seen[0] == 1
    _same(g, _fresh(g))


def test_a_state_that_cannot_be_pickled_is_still_restored_exactly() -> None:
    g = random_game("18MS", seed=8, players=3, max_actions=60, undo=False)
    kept = ms_state(g)
    values = {f.name: getattr(kept, f.name) for f in dataclasses.fields(kept)}
    g.state.title_state = _Unpicklable(**values, hook=lambda: None)  # a deep copy keeps it, a pickle cannot
    before = end_state(g)
    eid, etype = g.current_entity()
    with pytest.raises(EngineError):
        g.apply({"type": "buy_train", "train": "6-0", "price": 1, "entity": eid,
                 "entity_type": etype})
    assert end_state(g) == before and isinstance(g.state.title_state, _Unpicklable)
    assert g.state.title_state.hook is not None and ms_state(g).recently_floated == kept.recently_floated


# 1870 seed 13: a company connects to its destination before move 650 (the connection walk)
@pytest.mark.parametrize("title,seed,players,moves", [("1870", 13, 3, 650), ("18MEX", 21, 4, 260),
                                                      ("18MS", 21, 3, 260)])
def test_a_snapshot_holds_no_track_graph(title: str, seed: int, players: int, moves: int) -> None:
    """A snapshot keeps the game's state only: a track graph or reach walk a rule computed (the
    1870 connection walk's graph) is a cache, rebuilt from the tiles, and pickling it into each
    snapshot made every live move pay for the whole graph."""
    g = random_game(title, seed=seed, players=players, max_actions=moves)
    g._checkpoints[len(g._applied)] = g._snapshot()
    pickles = [snap[0][1] for snap in g._checkpoints.values() if snap[0][0] == "pickle"]
    assert pickles
    assert not [p for p in pickles if b"engine.routes" in p]


def _exact(g: Game) -> tuple[list[tuple[tuple[object, ...], object]], list[tuple[object, ...]]]:
    """The game's state exactly: every value it holds by where it is reached (dicts in their
    order, sets as sets), and which mutable objects in it are one object reached twice."""
    payload = (g.state, g.round, g._title_state(), g.turn, g.or_number, g.last_hexes)
    shared = {id(v) for v in g._shared().values()}
    first: dict[int, tuple[object, ...]] = {}
    values: list[tuple[tuple[object, ...], object]] = []
    aliases: list[tuple[object, ...]] = []

    def walk(o: object, path: tuple[object, ...]) -> None:
        if id(o) in shared:
            values.append((path, "<shared>"))
            return
        if isinstance(o, (str, bytes, int, float, type(None))):
            values.append((path, o))
            return
        if not isinstance(o, (tuple, frozenset)):
            if id(o) in first:
                aliases.append((path, first[id(o)]))
                return
            first[id(o)] = path
        values.append((path, type(o).__qualname__))
        if isinstance(o, dict):
            for k, v in o.items():
                walk(v, (*path, repr(k)))
        elif isinstance(o, (list, tuple)):
            for i, v in enumerate(o):
                walk(v, (*path, i))
        elif isinstance(o, (set, frozenset)):
            values.append((path, sorted(map(repr, o))))
        elif hasattr(o, "__dict__") or hasattr(type(o), "__slots__"):
            names = [*getattr(o, "__dict__", {})]
            names += [n for c in type(o).__mro__ for n in getattr(c, "__slots__", ())
                      if hasattr(o, n)]
            for n in names:
                if n != "__weakref__":
                    walk(getattr(o, n), (*path, n))

    walk(payload, ())
    return values, aliases


def _wrong_moves(g: Game) -> list[dict[str, object]]:
    """Moves the acting entity may not make now (most pass the first checks and are refused
    by the round, on the live state)."""
    lg = g.legal()
    out: list[dict[str, object]] = []
    for hex_name, options in lg.tiles.items():
        bad = [(copy_id, r) for copy_id, rots in options for r in range(6) if r not in rots]
        if bad:
            out.append({"type": "lay_tile", "hex": hex_name, "tile": bad[0][0], "rotation": bad[0][1]})
            break
    depot = [t for t in g.state.trains if t.owner is None and not t.gone]
    if depot and lg.entity_type == "corporation":
        out.append({"type": "buy_train", "train": depot[0].id, "price": 1})
    if "pass" not in lg.kinds:
        out.append({"type": "pass"})
    out.append({"type": "bid", "company": next(iter(g.state.companies)), "price": 1})
    corp = next(iter(g.state.corporations.values()))
    out.append({"type": "buy_shares", "shares": [corp.certs[-1].id], "percent": 10})
    return [{**a, "entity": lg.entity, "entity_type": lg.entity_type} for a in out]


@pytest.mark.parametrize("title,players,start", [("18MS", 4, 40), ("1870", 3, 120), ("18MEX", 4, 90)])
def test_a_refusal_at_every_position_between_snapshots_leaves_the_state_exactly(
        title: str, players: int, start: int) -> None:
    """A live move keeps the state before it only every few moves (snapshots.LIVE_EVERY): a
    refusal in between rolls back by a snapshot and a replay of the moves since. Whichever the
    position, the state after the refusal is exactly the one before (the same pickled state,
    the same legal answer) and that of a full replay of the log."""
    from engine.randomplay import play_on
    from engine.snapshots import LIVE_EVERY

    g = random_game(title, seed=5, players=players, max_actions=start, undo=False)
    seen = _counting(g)
    replayed = 0
    for step in range(2 * LIVE_EVERY + 1):
        if g.finished:
            break
        before_state, before_legal = _exact(g), legal_moves(g)
        for bad in _wrong_moves(g):
            seen[0] = 0
            size = len(g.log)
            try:
                g.apply(bad)
            except EngineError:
                pass
            else:  # a legal move after all: take it back (undo) and go on
                g.apply({"type": "undo", "entity": g.players[0][0], "entity_type": "player"})
                del g.log[size:]
                g._rebuild()
            replayed = max(replayed, seen[0] - 1)
            assert _exact(g) == before_state, (step, bad)
            assert legal_moves(g) == before_legal
        _same(g, _fresh(g))
        play_on(g, seed=100 + step, max_actions=len(g.log) + 1, undo=False)
    assert replayed >= 1  # some refusal was rolled back by a replay (the path under test)


@pytest.mark.parametrize("title,players,seed", [("18MS", 3, 8), ("1870", 3, 13), ("18MEX", 4, 21)])
def test_groundwork_ahead_changes_nothing_and_spares_the_next_move_its_snapshot(
        title: str, players: int, seed: int) -> None:
    """Game.get_ready (done by the bot when no command waits): the snapshot and legal answer
    the next live move would work out first, done ahead; nothing the game shows changes, a
    refused move still rolls back exactly, and the next move keeps no snapshot of its own."""
    full = random_game(title, seed=seed, players=players, max_actions=120, undo=False)
    g = Game(full.title_name, full.players, full.options)
    g.raw_player_ids = full.raw_player_ids
    kept: list[int] = []
    real = g._snapshot

    def snapshot() -> object:
        kept.append(len(g._applied))
        return real()

    g._snapshot = snapshot  # type: ignore[method-assign]
    for action in full.export_actions():
        before = end_state(g)
        g.get_ready()
        assert end_state(g) == before
        n, kept[:] = len(g._applied), []
        g.apply(action)
        assert all(k != n for k in kept)  # none before the move: get_ready kept it
    _same(g, full)
    g.get_ready()
    snap = end_state(g)
    eid, etype = g.current_entity()
    with pytest.raises(EngineError):
        g.apply({"type": "buy_train", "train": "nope-0", "price": 1, "entity": eid,
                 "entity_type": etype})
    assert end_state(g) == snap
    _same(g, _fresh(g))


def test_kept_legal_is_the_kept_answer_until_the_state_changes() -> None:
    """Game.kept_legal (the bot checks with it whether what it derived from a legal answer
    still holds): the answer `legal()` keeps, None before it is worked out and after any
    change of state (a move, an undo); it works nothing out."""
    full = random_game("18MS", seed=3, players=3, max_actions=30, undo=False)
    g = Game(full.title_name, full.players, full.options)
    g.raw_player_ids = full.raw_player_ids
    actions = full.export_actions()
    for action in actions[:20]:
        assert g.kept_legal() is None or g.kept_legal() is g.legal()
        legal = g.legal()
        assert g.kept_legal() is legal and g.legal() is legal
        g.apply(action)
        assert g.kept_legal() is None
    legal = g.legal()
    eid, etype = g.current_entity()
    with pytest.raises(EngineError):
        g.apply({"type": "buy_train", "train": "nope-0", "price": 1, "entity": eid,
                 "entity_type": etype})
    # refused before anything was processed (the train is unknown): the state untouched,
    # its answer may stay kept; either way it is the same answer
    assert g.kept_legal() in (None, legal)
    assert g.legal() == legal
    g.apply({"type": "undo", "entity": eid, "entity_type": etype})
    assert g.kept_legal() is None
