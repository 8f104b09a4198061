"""Overlap checks on a rendered map, from the boxes the renderer records while drawing.

A text box may not overlap another text box, nor cover a token or a city circle, except the
disc it is written in (a token's label, a revenue in its bubble, a marker's letter).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from engine.view import GameView
from render.draw import Box, ShapeMark, TextMark, record_shapes, record_text
from render.map import render_map_image

SHARED = Path("/work/shared/fixtures")
COVERED = ("token", "city")  # discs no foreign text may cover


def _overlap(a: Box, b: Box, slack: float = 0.5) -> bool:
    return (
        min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack
    )


def _inside(t: TextMark, s: ShapeMark) -> bool:
    """The text is written in this disc (its centre near the disc's)."""
    cx, cy = (t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2
    sx, sy = s.center
    return s.disc and (cx - sx) ** 2 + (cy - sy) ** 2 <= (0.35 * s.radius) ** 2


def problems(texts: list[TextMark], shapes: list[ShapeMark]) -> list[str]:
    out: list[str] = []
    texts = [t for t in texts if t.text.strip()]
    order = sorted(range(len(texts)), key=lambda i: texts[i].box[0])
    for n, i in enumerate(order):  # sweep along x
        a = texts[i]
        for j in order[n + 1:]:
            b = texts[j]
            if b.box[0] >= a.box[2]:
                break
            if _overlap(a.box, b.box):
                out.append(f"text {a.role}:{a.text!r} {a.box} overlaps {b.role}:{b.text!r} {b.box}")
    discs = [s for s in shapes if s.kind in COVERED]
    for t in texts:
        for s in discs:
            if _inside(t, s):
                continue
            # shrink by half a pixel: antialiased edges that only touch do not count
            inner = (t.box[0] + 0.5, t.box[1] + 0.5, t.box[2] - 0.5, t.box[3] - 0.5)
            if s.hits(inner):
                out.append(f"text {t.role}:{t.text!r} {t.box} covers {s.kind} at {s.center}")
    return out


def fixture_specs() -> Iterator[tuple[str, str]]:
    for title in ("18MS", "1870", "18MEX"):
        for path in sorted((SHARED / title).glob("*.json")):
            yield title, path.name


@cache
def fixture_view(title: str, name: str, stage: str) -> GameView:
    from engine.game import effective_actions
    from engine.io.export18xx import import_game

    data = json.loads((SHARED / title / name).read_text())
    full = import_game(data)
    if stage == "final":
        return full.view()
    live = [a for a in effective_actions(full.log) if a.type != "message"]
    return import_game(data, upto=live[len(live) // 2].id).view()


def map_problems(view: GameView, **kw: object) -> tuple[list[str], int, int]:
    """(problems, texts, discs) of one rendered map."""
    with record_text() as texts, record_shapes() as shapes:
        render_map_image(view, **kw)  # type: ignore[arg-type]
    return problems(texts, shapes), len(texts), len([s for s in shapes if s.kind in COVERED])
