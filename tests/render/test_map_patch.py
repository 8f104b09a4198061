"""A full map drawn by patching a kept earlier map (render.map._Kept) is, pixel for pixel,
the map drawn from nothing: over the moves of real games of every title (two of 18MS),
interleaved, with close-ups drawn in between."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

from engine.game import Game
from engine.view import GameView
from render import map as rmap
from render.map import render_map_image
from tests.bot.replay import effective_log, typed_actions
from tests.render.test_legibility import SHARED

pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="shared fixtures not mounted")

# two games of 18MS: a map of one after a map of the other differs in many hexes (drawn from
# nothing and kept), the next of the same game is patched from the other's
GAMES = [("18MS", "14375.json"), ("1870", "1870_game_end_bank.json"), ("18MEX", "13315.json"),
         ("18MS", "17510.json")]


def _states(title: str, name: str, every: int, first: int) -> Iterator[GameView]:
    """The game's view after each of its first `first` moves, then after every `every`th."""
    data = json.loads((SHARED / title / name).read_text())
    game = Game(data["title"], [(str(p["id"]), str(p["name"])) for p in data["players"]], [])
    for i, action in enumerate(typed_actions(effective_log(data))):
        game.apply(action)
        if i < first or i % every == 0:
            yield game.view()


def _from_nothing(view: GameView) -> Image.Image:
    kept, rmap.MAPS_KEPT = rmap.MAPS_KEPT, 0
    try:
        return render_map_image(view)
    finally:
        rmap.MAPS_KEPT = kept


def _check(every: int, first: int) -> int:
    rmap._KEPT.clear()
    games = [_states(t, n, every, first) for t, n in GAMES]
    patched = 0
    while games:
        for g in list(games):  # the titles' moves interleaved
            view = next(g, None)
            if view is None:
                games.remove(g)
                continue
            before = len(rmap._KEPT)
            got = render_map_image(view)
            patched += len(rmap._KEPT) == before  # none added: it was patched
            want = _from_nothing(view)
            assert got.size == want.size
            assert ImageChops.difference(got, want).getbbox() is None, (view.title, view.round)
            if view.last_hexes:  # a close-up between two maps changes nothing kept
                render_map_image(view, focus=view.last_hexes)
    return patched


def test_patched_maps_are_the_maps_drawn_from_nothing() -> None:
    assert _check(every=40, first=30) > 80


@pytest.mark.slow
def test_every_patched_map_of_the_games_is_the_map_drawn_from_nothing() -> None:
    assert _check(every=1, first=0) > 1000
