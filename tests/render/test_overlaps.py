"""No label overlaps another label, a token or a city, on every fixture's final and mid-game
map (full map and the close-up around the last move), from the boxes the renderer records."""

from __future__ import annotations

import pytest

from render.draw import ShapeMark, TextMark
from tests.render.overlap import SHARED, fixture_specs, fixture_view, map_problems, problems

pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="shared fixtures not mounted")

CASES = [(t, n, s) for t, n in (fixture_specs() if SHARED.exists() else ()) for s in ("final", "mid")]


@pytest.mark.parametrize(("title", "name", "stage"), CASES)
def test_no_label_overlaps_on_the_map(title: str, name: str, stage: str) -> None:
    view = fixture_view(title, name, stage)
    found, texts, discs = map_problems(view)
    assert texts > 150 and discs > 0  # the recorder saw the map's labels and cities
    assert found == []
    focus = view.last_hexes or (next(iter(view.hexes)),)
    found, texts, _ = map_problems(view, focus=focus)
    assert texts > 10
    assert found == []


def _mark(text: str, box: tuple[float, float, float, float], role: str = "label") -> TextMark:
    return TextMark(role, text, 10, box, 7.0)


def test_the_check_finds_overlaps() -> None:
    token = ShapeMark("token", (0.0, 0.0, 20.0, 20.0), True)
    own = _mark("IC", (5.0, 6.0, 15.0, 14.0), "token")
    assert problems([own], [token]) == []  # a token's own label
    assert len(problems([_mark("Mob", (14.0, 14.0, 40.0, 24.0))], [token])) == 1
    assert problems([_mark("Mob", (19.0, 19.0, 40.0, 24.0))], [token]) == []  # corner: off disc
    two = [_mark("Kansas", (0.0, 0.0, 30.0, 10.0)), _mark("City", (10.0, 8.0, 30.0, 18.0))]
    assert len(problems(two, [])) == 1
    apart = [_mark("Kansas", (0.0, 0.0, 30.0, 10.0)), _mark("City", (10.0, 10.0, 30.0, 18.0))]
    assert problems(apart, []) == []
