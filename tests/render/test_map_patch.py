"""A full map drawn by patching a kept earlier map (render.mapkeep) is, pixel for pixel, the map
drawn from nothing: over the moves of real games of every title (two of 18MS), interleaved as
one render worker draws them, each game's maps kept as its own (`kept_for`), with close-ups
drawn in between; also with maps kept without a game (the two 18MS games then patch from each
other's maps), and with a budget that holds fewer maps than there are games.  Both the image
(render_map_image: the kept canvas patched, the labels placed on the whole map) and the PNG
posted (render_map: the kept posted image patched where it may differ, the labels placed
again only for the hexes whose free space may differ); for the PNG, what placing the labels
did is also what it does on the map drawn from nothing, hex by hex."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest
from PIL import Image, ImageChops

from engine.game import Game
from engine.view import GameView
from render import map as rmap
from render import mapkeep
from render.map import render_map, render_map_image, title_palette
from render.mapkeep import KEPT, Kept, KeptMaps, kept_for
from tests.bot.replay import effective_log, typed_actions
from tests.render.test_legibility import SHARED

needs_fixtures = pytest.mark.skipif(not SHARED.exists(), reason="shared fixtures not mounted")

# two games of 18MS: with maps kept without a game, a map of one after a map of the other
# differs in many hexes (drawn from nothing and kept), the next of the same game is patched
# from the other's
GAMES = [("18MS", "14375.json"), ("1870", "1870_game_end_bank.json"), ("18MEX", "13315.json"),
         ("18MS", "17510.json")]


def _states(title: str, name: str, every: int, first: int, drawn_all: int = 0
            ) -> Iterator[tuple[GameView, bool]]:
    """The game's view after each of its first `first` moves, then after every `every`th, each
    with True (to compare); and after every other move of its first `drawn_all`, with False
    (drawn as the bot draws every move: a part left stale shows at a later comparison)."""
    data = json.loads((SHARED / title / name).read_text())
    game = Game(data["title"], [(str(p["id"]), str(p["name"])) for p in data["players"]], [])
    for i, action in enumerate(typed_actions(effective_log(data))):
        game.apply(action)
        if i < first or i % every == 0:
            yield game.view(), True
        elif i < drawn_all:
            yield game.view(), False


DRAWN_ALL = 240  # the PNGs: every move of the first this many of each game drawn


def _from_nothing(view: GameView) -> Image.Image:
    budget, KEPT.budget = KEPT.budget, 0
    try:
        return render_map_image(view)
    finally:
        KEPT.budget = budget


def _drawn_from_nothing(view: GameView, monkeypatch: pytest.MonkeyPatch
                       ) -> tuple[Image.Image, dict[object, object]]:
    """The map drawn from nothing (no kept map to patch from: kept under a key of its own,
    found empty, and no other map lent) and what placing its labels did, (kind, hex) by
    (kind, hex)."""
    with monkeypatch.context() as m, kept_for("from nothing"):
        m.setattr(rmap, "_donor", lambda key, plan: None)
        for key in [k for k in KEPT.in_order() if k[0] == "from nothing"]:
            KEPT.discard(key)
        drawn = render_map_image(view).copy()
        (key,) = [k for k in KEPT.in_order() if k[0] == "from nothing"]
        placed = dict(KEPT.peek(key).placed)
        KEPT.discard(key)
    return drawn, placed


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """[maps patched]; the kept maps emptied before and after, the default budget."""
    calls = [0]
    patched, png_patched = rmap._patched, rmap._png_patched

    def counting(*args: object) -> Image.Image:
        calls[0] += 1
        return patched(*args)  # type: ignore[arg-type]

    def png_counting(*args: object) -> bytes:
        calls[0] += 1
        return png_patched(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(rmap, "_patched", counting)
    monkeypatch.setattr(rmap, "_png_patched", png_counting)
    KEPT.clear()
    monkeypatch.setattr(KEPT, "budget", mapkeep.DEFAULT_BUDGET)
    yield calls
    KEPT.clear()


def _check(every: int, first: int, by_game: bool, upto: int | None = None,
           png: pytest.MonkeyPatch | None = None) -> None:
    """With `png` (a monkeypatch), the PNGs posted (render_map), else the images."""
    games = [(i if by_game else None, _states(t, n, every, first, DRAWN_ALL if png else 0))
             for i, (t, n) in enumerate(GAMES)]
    drawn = 0
    discs: dict[object, object] = {}  # each game's discs placed on its last map (png)
    while games and (upto is None or drawn < upto):
        for g in list(games):  # the games' moves interleaved
            game, states = g
            view, compare = next(states, (None, False))
            if view is None:
                games.remove(g)
                continue
            with kept_for(game):
                if png is None:
                    got = render_map_image(view)
                else:
                    posted = render_map(view)
                    # compared too where the discs moved (the patches under them drawn again)
                    now = tuple(t for rec in KEPT.peek(KEPT.in_order()[-1]).placed.values()
                                for t in rec.takes if t[2])
                    compare = compare or discs.get(game, now) != now
                    discs[game] = now
                if view.last_hexes and compare:  # a close-up between maps changes nothing kept
                    render_map(view, focus=view.last_hexes)
            if not compare:
                continue
            drawn += 1
            if png is None:
                want = _from_nothing(view)
            else:
                key = KEPT.in_order()[-1]  # the map just drawn
                assert key[:2] == (game, view.title)
                placed = dict(KEPT.peek(key).placed)
                want, want_placed = _drawn_from_nothing(view, png)
                assert placed == want_placed, (game, view.round)
                got = Image.open(io.BytesIO(posted)).convert("RGB")
                want = want.quantize(palette=title_palette(view.data.title),
                                     dither=Image.Dither.NONE).convert("RGB")
            assert got.size == want.size
            assert ImageChops.difference(got, want).getbbox() is None, (game, view.title,
                                                                        view.round)


@needs_fixtures
def test_patched_maps_of_games_kept_apart_are_the_maps_drawn_from_nothing(
        counted: list[int]) -> None:
    _check(every=40, first=30, by_game=True)
    assert counted[0] > 100
    assert {k[0] for k in KEPT.in_order()} == {0, 1, 2, 3}  # each game's own


@needs_fixtures
def test_patched_maps_kept_without_a_game_are_the_maps_drawn_from_nothing(
        counted: list[int]) -> None:
    _check(every=40, first=30, by_game=False, upto=60)
    assert counted[0] > 30
    assert {k[0] for k in KEPT.in_order()} == {None}


@needs_fixtures
def test_maps_dropped_for_the_budget_are_drawn_again_from_nothing(
        counted: list[int]) -> None:
    _check(every=40, first=10, by_game=True, upto=8)  # one kept map of each game at least
    sizes = {k[0]: KEPT.peek(k).nbytes for k in KEPT.in_order()}
    budget = sorted(sizes.values())[-1] + sorted(sizes.values())[-2]
    KEPT.clear()
    KEPT.budget = budget  # two maps at most: four games in turn find theirs dropped
    counted[0] = 0
    dropped = KEPT.dropped
    _check(every=40, first=10, by_game=True, upto=24)
    assert KEPT.total <= budget
    assert len(KEPT) <= 2
    assert KEPT.dropped > dropped  # (a game whose map was dropped may be patched from the
    # other 18MS game's, when alike: same pixels either way)


@needs_fixtures
def test_patched_pngs_of_games_kept_apart_are_the_maps_drawn_from_nothing(
        counted: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    _check(every=40, first=30, by_game=True, png=monkeypatch)
    assert counted[0] > 100
    assert {k[0] for k in KEPT.in_order()} == {0, 1, 2, 3}


@needs_fixtures
def test_patched_pngs_kept_without_a_game_are_the_maps_drawn_from_nothing(
        counted: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    _check(every=40, first=30, by_game=False, upto=60, png=monkeypatch)
    assert counted[0] > 30


@needs_fixtures
def test_pngs_dropped_for_the_budget_are_drawn_again_from_nothing(
        counted: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    _check(every=40, first=10, by_game=True, upto=8, png=monkeypatch)
    sizes = sorted(KEPT.peek(k).nbytes for k in KEPT.in_order())
    KEPT.clear()
    KEPT.budget = sizes[-1] + sizes[-2]
    dropped = KEPT.dropped
    _check(every=40, first=10, by_game=True, upto=24, png=monkeypatch)
    assert len(KEPT) <= 2 and KEPT.dropped > dropped


@pytest.mark.slow
@needs_fixtures
def test_every_patched_map_of_the_games_is_the_map_drawn_from_nothing(
        counted: list[int]) -> None:
    _check(every=1, first=0, by_game=True)
    assert counted[0] > 1000


@pytest.mark.slow
@needs_fixtures
def test_every_patched_png_of_the_games_is_the_map_drawn_from_nothing(
        counted: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    _check(every=1, first=0, by_game=True, png=monkeypatch)
    assert counted[0] > 1000


def _kept(key: str, size: int) -> Kept:
    kept = Kept((key,), (1, 1), {}, ((), ()))
    kept.bands = [b"x" * size]
    return kept


def test_kept_maps_stay_within_the_budget_least_recently_used_dropped_first() -> None:
    maps = KeptMaps(budget=1000)
    for key in "abc":
        maps.put(_kept(key, 300))
    assert maps.in_order() == [("a",), ("b",), ("c",)] and maps.total == 900
    assert maps.get(("a",)) is not None  # a is now the most recently used
    maps.put(_kept("d", 300))  # over 1000: b goes
    assert maps.in_order() == [("c",), ("a",), ("d",)] and maps.total == 900
    maps.put(_kept("a", 600))  # a grown: accounted again, c goes
    assert maps.in_order() == [("d",), ("a",)] and maps.total == 900 and maps.dropped == 2
    maps.put(_kept("e", 1001))  # larger than the budget alone: not kept
    assert ("e",) not in maps and maps.total == 900
    maps.put(_kept("f", 400))  # d goes
    assert maps.in_order() == [("a",), ("f",)] and maps.total == 1000 and maps.dropped == 3
