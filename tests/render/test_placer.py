"""The placer's boxes taken later (`Placer.take_later`, a patched map's labels replayed) are,
wherever a box is looked at, as if taken at once (`Placer.take`)."""

from __future__ import annotations

import random

from PIL import Image

from render.draw import Box, supersampled
from render.placer import Placer


def _box(rng: random.Random, size: tuple[int, int], k: int) -> Box:
    x, y = rng.uniform(-20, size[0] * k), rng.uniform(-20, size[1] * k)
    return (x, y, x + rng.uniform(1, 60 * k), y + rng.uniform(1, 40 * k))


def test_boxes_taken_later_are_seen_as_boxes_taken_at_once() -> None:
    rng = random.Random(7)
    size, k = (400, 300), 2
    with supersampled(k):
        for _ in range(20):
            now = Placer(None, Image.new("L", size), [])  # type: ignore[arg-type]
            later = Placer(None, Image.new("L", size), [])  # type: ignore[arg-type]
            for _ in range(rng.randrange(1, 12)):
                b, disc = _box(rng, size, k), rng.random() < 0.3
                now.take(b, "label", disc)
                later.take_later(b, "label", disc)
            assert later.taken == now.taken and later.patches == now.patches
            for _ in range(60):
                q = _box(rng, size, k)
                # looked at in either order: the mask, then the shapes, or the other way
                if rng.random() < 0.5:
                    assert later.ink(q) == now.ink(q) and later.covers(q) == now.covers(q)
                else:
                    assert later.covers(q) == now.covers(q) and later.ink(q) == now.ink(q)
