"""The collector paused while a log is replayed (engine/core/gcpause.py): it is back as it was
after the pause, what a replay leaves alive moves to the oldest generation without a pass, and
cycles dropped later are still freed by the full passes."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest

from engine.core import gcpause


class _Node:
    def __init__(self) -> None:
        self.other: Any = None


def test_the_collector_is_back_as_it_was() -> None:
    was = gc.isenabled()
    try:
        gc.enable()
        with gcpause.paused():
            assert not gc.isenabled()
            with gcpause.paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with gcpause.paused():
            pass
        assert not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def test_survivors_move_to_the_oldest_generation_without_a_pass() -> None:
    gc.enable()
    gc.collect()
    passes: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        with gcpause.paused():
            kept = [[i] for i in range(5_000)]  # a replay's survivors (tracked containers)
        assert gc.get_count()[0] < 100  # moved: nothing young is left to walk
        assert passes in ([], [2])  # no young or middle pass over them (a full one by the rule)
        assert gc.is_tracked(kept[0])
    finally:
        gc.callbacks.remove(seen)


def test_a_cycle_dropped_after_a_replay_is_freed_by_a_later_full_pass() -> None:
    gc.enable()
    with gcpause.paused():
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # a game and its round hold each other
    alive = weakref.ref(a)
    del a, b
    for _ in range(4 * gcpause.FULL_AFTER):  # later replays, each leaving much alive a while
        with gcpause.paused():
            held = [[i] for i in range(len(gc.get_objects()) // 8)]
        del held
        if alive() is None:
            break
    assert alive() is None


@pytest.mark.parametrize("key", ["18MS/14375.json", "1870/34110.json", "18MEX/hotseat01.json"])
def test_a_replayed_game_dropped_is_freed_at_once(key: str) -> None:
    """A game holds no cycle (its round holds it weakly): dropped, reference counting frees it
    and all it holds, with no pass of the collector (a snapshot restored keeps it so)."""
    from engine.io.export18xx import import_game
    from tests.engine._helpers import load_fixture

    game = import_game(load_fixture(key))
    del game.log[-40:]  # (finished games: a shorter log, then an undo restores a snapshot)
    game._rebuild()
    game.apply({"type": "undo", "entity": game.players[0][0], "entity_type": "player"})
    assert game.round.game is game
    was = gc.isenabled()
    gc.disable()
    try:
        title, rnd = weakref.ref(game.title), weakref.ref(game.round)
        gone = weakref.ref(game)
        del game
        assert gone() is None and title() is None and rnd() is None
    finally:
        if was:
            gc.enable()
