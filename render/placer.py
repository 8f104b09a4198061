"""Free space on a map being drawn, for its labels (see render.labels)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from itertools import repeat

from PIL import Image, ImageDraw

from render.draw import Box, ShapeMark, draw_scale
from render.layout import Point


class Placer:
    """Free space on the map, for labels (see the module docstring).

    The ink mask is at output size (`k` drawing pixels per mask pixel); boxes are given in
    drawing pixels.  Discs drawn while placing are noted in `patches` so that the map can
    downscale just those regions of its supersampled image."""

    CELL = 64  # output pixels per cell of the index of recorded shapes

    def __init__(self, d: ImageDraw.ImageDraw, mask: Image.Image | tuple[tuple[int, int], bytes | bytearray],
                 shapes: list[ShapeMark]) -> None:
        self.d = d  # the supersampled map being drawn
        # the ink mask ("L", output pixels, non-zero = ink) as bytes: a box is checked with a
        # few slices, cheaper than cropping an image; or (size, those bytes: a bytearray is
        # taken as it is, and marked)
        if isinstance(mask, Image.Image):
            self.w, self.h = mask.size
            self.buf = bytearray(mask.tobytes())
        else:
            (self.w, self.h), buf = mask
            self.buf = buf if isinstance(buf, bytearray) else bytearray(buf)  # marked in place
        self.k = draw_scale()
        self.unplaced = 0  # labels that got only a spot covering something
        self.patches: list[Box] = []
        self.taken: list[tuple[Box, str, bool]] = []  # every box taken, in order
        # the boxes taken later (`take_later`) not yet marked, and where they are
        self._todo: list[tuple[Box, str, bool] | None] = []
        self._later: dict[tuple[int, int], list[int]] = {}
        # the box (output pixels) around every box looked at since it was last set to None:
        # what the choices made since depended on (render.map keeps it per hex)
        self.read: list[float] | None = None
        self._grid: dict[tuple[int, int], list[ShapeMark]] = {}
        for m in shapes:
            self._index(m)

    def _cells(self, b: Box) -> Iterator[tuple[int, int]]:
        c = self.CELL
        for gx in range(int(b[0] // c), int(b[2] // c) + 1):
            for gy in range(int(b[1] // c), int(b[3] // c) + 1):
                yield (gx, gy)

    def _index(self, m: ShapeMark) -> None:
        for cell in self._cells(m.box):
            self._grid.setdefault(cell, []).append(m)

    def _out(self, b: Box) -> Box:
        k = self.k
        return (b[0] / k, b[1] / k, b[2] / k, b[3] / k)

    def ink(self, b: Box) -> int:
        """Ink pixels under box b (drawing pixels), one output pixel of margin included."""
        if self._later:
            self._flush(self._out(b))
        x0, y0, x1, y1 = self._out(b)
        x0, y0, x1, y1 = math.floor(x0) - 1, math.floor(y0) - 1, math.ceil(x1) + 1, math.ceil(y1) + 1
        if x0 < 0 or y0 < 0 or x1 > self.w or y1 > self.h:
            return 1 << 30
        w, n = self.w, x1 - x0
        starts = range(y0 * w + x0, y1 * w + x0, w)  # each row's slice of the box
        ends = range(starts.start + n, starts.stop + n, w)
        return n * len(starts) - sum(map(self.buf.count, repeat(0, len(starts)), starts, ends))

    def covers(self, b: Box) -> bool:
        """Whether b covers a recorded disc or box (city, token, bubble, label...)."""
        o = self._out(b)
        if self._later:
            self._flush(o)
        return any(m.hits(o) for cell in self._cells(o) for m in self._grid.get(cell, ()))

    def choose(self, spots: Iterable[Point], box_at: Callable[[Point], Box],
               force: bool, within: tuple[str, Point, float]) -> tuple[Point, int] | None:
        """(spot, ink under it): the first spot whose box, inside the hex `within`, has no
        ink; else the least-inked inside that covers nothing; with `force`, else the
        least-inked anywhere that covers nothing, else the least-inked of all."""
        best: tuple[int, Point] | None = None
        outside: tuple[int, Point] | None = None
        worst: tuple[int, Point] | None = None
        read = self.read
        k = self.k
        for p in spots:
            b = box_at(p)
            if read is None:
                read = self.read = [b[0] / k, b[1] / k, b[2] / k, b[3] / k]
            else:
                if b[0] / k < read[0]:
                    read[0] = b[0] / k
                if b[1] / k < read[1]:
                    read[1] = b[1] / k
                if b[2] / k > read[2]:
                    read[2] = b[2] / k
                if b[3] / k > read[3]:
                    read[3] = b[3] / k
            inside = _box_within(b, within)
            if not inside and not force:
                continue
            n = self.ink(b)
            if n == 0 and inside:
                return p, 0
            if worst is None or n < worst[0]:
                worst = (n, p)
            if inside and (best is None or n < best[0]) and not self.covers(b):
                best = (n, p)
            elif force and not inside and (outside is None or n < outside[0]) \
                    and not self.covers(b):
                outside = (n, p)
        if best is not None:
            return best[1], best[0]
        if force and outside is not None:
            return outside[1], outside[0]
        if force and worst is not None:
            self.unplaced += 1
            return worst[1], worst[0]
        return None

    def take(self, b: Box, kind: str = "label", disc: bool = False) -> None:
        self.taken.append((b, kind, disc))
        if disc:
            self.patches.append(b)
        self._mark(b, kind, disc)

    def take_later(self, b: Box, kind: str = "label", disc: bool = False) -> None:
        """`take`, its marking of the mask and the shapes left until a box near it is looked
        at (render.map: the boxes taken again on a patched map, mostly looked at by no one)."""
        self.taken.append((b, kind, disc))
        if disc:
            self.patches.append(b)
        i = len(self._todo)
        self._todo.append((b, kind, disc))
        o = self._out(b)
        for cell in self._cells((o[0] - 2, o[1] - 2, o[2] + 2, o[3] + 2)):
            self._later.setdefault(cell, []).append(i)

    def _flush(self, o: Box) -> None:
        """Mark the boxes taken later (`take_later`) near o (output pixels)."""
        for cell in self._cells((o[0] - 2, o[1] - 2, o[2] + 2, o[3] + 2)):
            for i in self._later.pop(cell, ()):
                t = self._todo[i]
                if t is not None:
                    self._todo[i] = None
                    self._mark(*t)

    def _mark(self, b: Box, kind: str, disc: bool) -> None:
        o = self._out(b)
        # the box is marked as ink (a disc's box too: a little more room around it)
        x0, y0 = max(0, math.floor(o[0])), max(0, math.floor(o[1]))
        x1, y1 = min(self.w, math.ceil(o[2])), min(self.h, math.ceil(o[3]))
        if x1 > x0:
            full = b"\xff" * (x1 - x0)
            for y in range(y0, y1):
                self.buf[y * self.w + x0:y * self.w + x1] = full
        m = ShapeMark(kind, o, disc)
        self._index(m)


def _box_within(b: Box, hexc: tuple[str, Point, float]) -> bool:
    """Every corner of box b inside the hex (orientation, centre, apothem)."""
    orientation, (cx, cy), a = hexc
    s3 = 0.8660254037844386
    for x in (b[0] - cx, b[2] - cx):
        for y in (b[1] - cy, b[3] - cy):
            u, v = (abs(x), abs(y)) if orientation == "pointy" else (abs(y), abs(x))
            if u > a or u * 0.5 + v * s3 > a:
                return False
    return True
