"""Parts of a map: the hexes of a close-up around some hexes, and the map cut into regions
that each stay legible in a phone preview (render.map draws them)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from engine.core.data import TitleData


def focus_hexes(
    data: TitleData, focus: Iterable[str], rings: int = 1, min_cols: int = 4
) -> tuple[str, ...]:
    """The hexes of a close-up around `focus`: every hex within `rings` steps of a focus hex,
    then every hex inside their bounding box, widened to at least `min_cols` hexes across."""
    seen = [n for n in dict.fromkeys(focus) if n in data.hexes]
    if not seen:
        return ()
    near = set(seen)
    frontier = list(seen)
    for _ in range(max(0, rings)):
        nxt = []
        for n in frontier:
            for m in data.hexes[n].neighbors.values():
                if m in data.hexes and m not in near:
                    near.add(m)
                    nxt.append(m)
        frontier = nxt
    xs = [data.hexes[n].x for n in near]
    ys = [data.hexes[n].y for n in near]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    # grid units per hex across: 2 on pointy maps (doubled x), 1 on flat maps
    want = (min_cols - 1) * (2 if data.layout == "pointy" else 1)
    while x1 - x0 < want:
        x0, x1 = x0 - 1, x1 + 1
    return tuple(
        n for n, h in data.hexes.items() if x0 <= h.x <= x1 and y0 <= h.y <= y1
    )


def map_regions(data: TitleData, across: int = 4, down: int = 4) -> dict[str, tuple[str, ...]]:
    """The map cut into regions of about `across` x `down` hexes (named by their corner
    hexes, e.g. "A1-D9"), each drawn legibly in a phone preview by render_region."""
    pointy = data.layout == "pointy"
    xs = sorted({h.x for h in data.hexes.values()})
    ys = sorted({h.y for h in data.hexes.values()})
    # grid units per hex: pointy maps step 2 in x along a row, flat maps 2 in y down a column
    ux, uy = (2, 1) if pointy else (1, 2)
    nx = max(1, math.ceil(((xs[-1] - xs[0]) / ux + 1) / across))
    ny = max(1, math.ceil(((ys[-1] - ys[0]) / uy + 1) / down))
    wx = (xs[-1] - xs[0] + 1) / nx
    wy = (ys[-1] - ys[0] + 1) / ny
    cells: dict[tuple[int, int], list[str]] = {}
    for n, h in data.hexes.items():
        i = min(nx - 1, int((h.x - xs[0]) // wx))
        j = min(ny - 1, int((h.y - ys[0]) // wy))
        cells.setdefault((j, i), []).append(n)
    small = across * down // 3
    for key in sorted(cells):  # a region of a few hexes joins its neighbour in the row
        if key in cells and len(cells[key]) < small:
            j, i = key
            for other in ((j, i - 1), (j, i + 1), (j - 1, i), (j + 1, i)):
                if other in cells:
                    cells[other] += cells.pop(key)
                    break
    out: dict[str, tuple[str, ...]] = {}
    for key in sorted(cells):
        hexes = tuple(sorted(cells[key], key=lambda n: (data.hexes[n].y, data.hexes[n].x)))
        out[_span(hexes)] = hexes
    return out


def _span(hexes: tuple[str, ...]) -> str:
    """ "A1-D8": the rows and columns of these hexes (first and last hex if not letter-number)."""
    parts = [re.fullmatch(r"([A-Z]+)(\d+)", n) for n in hexes]
    if not all(parts):
        return f"{hexes[0]}-{hexes[-1]}"
    rows = sorted({m.group(1) for m in parts if m}, key=lambda r: (len(r), r))
    cols = sorted(int(m.group(2)) for m in parts if m)
    return f"{rows[0]}{cols[0]}-{rows[-1]}{cols[-1]}"
