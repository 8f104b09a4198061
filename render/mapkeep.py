"""The full maps a process keeps, to patch a game's next map from its last (render.map).

A kept map is what a full map's drawing had before its labels were placed: the supersampled
canvas reduced to output size (without the discs placement draws) and the ink mask taken from
it, with what they show (each hex's art, the rings), what each hex's drawing recorded (track
exits, shapes, deferred text: `HexDrawn`) and the canvas under each disc placement drew.  The
images are kept compressed (LZ4, the reduced map in bands of `BAND` rows, so that a patch
compresses again only the bands it touched): about 0.3 MB for an 18MS map and 0.45 MB for an
1870 one in all, where Pillow holds the two images in 14-16 MB.  The supersampled canvas is not
kept: a patch redraws what it needs of it on one scratch canvas a process (`scratch`).

A kept map also holds what placing its labels did, hex by hex (`Placed`), and the map as
posted: its palette image in bands of rows, each deflated alone (`PngBands`), so that a patch
deflates again only the bands it touched.

Kept maps are keyed by game (`kept_for`, set by whoever draws a game's images; maps drawn
outside it share the key None) and by what fixes the image's layout (title, size, legend);
the least recently used are dropped beyond a budget in bytes a process (`budget`).
"""

from __future__ import annotations

import threading
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import lz4.block
from PIL import Image

from render.draw import Box, ShapeMark
from render.hexart import HexArt
from render.pngwrite import deflate_part, filtered_rows, inflate_part, png_of_parts

BAND = 32  # rows of the reduced map compressed together
DEFAULT_BUDGET = 128 * 2**20  # bytes of kept maps a process (about 250-400 maps)
# what a kept map holds besides its compressed pixels, counted per hex (an estimate): each
# hex's art (HexArt) and what its drawing recorded (`HexDrawn`: 300-650 bytes a hex measured
# on 18MS and 1870 maps)
_OVERHEAD_A_HEX = 2000
_PLACED_A_HEX = 600  # what placing its labels did (`Placed`: 150-1,000 bytes a hex, estimated)

_GAME: ContextVar[object] = ContextVar("render_map_game", default=None)
LOCK = threading.Lock()  # the kept maps and the scratch images are one thread's at a time


@contextmanager
def kept_for(game: object, budget_bytes: int | None = None) -> Iterator[None]:
    """Inside: full maps are kept (and patched) as this game's; budget_bytes, when given, sets
    the process's budget of kept maps (`budget`)."""
    if budget_bytes is not None:
        KEPT.budget = budget_bytes
    token = _GAME.set(game)
    try:
        yield
    finally:
        _GAME.reset(token)


def current_game() -> object:
    return _GAME.get()


class HexDrawn(NamedTuple):
    """What drawing a hex's art recorded: its track exits, the shapes it noted and the text it
    deferred (a patched map takes them for the hexes that did not change)."""

    exits: list[float]
    shapes: tuple[ShapeMark, ...]
    texts: tuple[Any, ...]


class Placed(NamedTuple):
    """What placing one hex's labels of one kind did on a full map (render.map._place): the
    text it deferred, the boxes it took from the free space (box, kind, disc), the disc drawing
    calls it made, the shapes it noted, and the box (output pixels) holding every box it looked
    at (what its choices depended on), None if it looked at none."""

    texts: tuple[Any, ...]
    takes: tuple[tuple[Box, str, bool], ...]
    calls: tuple[tuple[str, tuple[object, ...], dict[str, object]], ...]
    notes: tuple[ShapeMark, ...]
    read: Box | None


class PngBands:
    """A map's palette image as its PNG holds it, in bands of `BAND` rows, each deflated alone
    (render.pngwrite.deflate_part): a band patched is deflated again, the PNG is the bands
    joined."""

    __slots__ = ("size", "level", "palette", "parts", "adlers", "lengths", "open")

    def __init__(self, img: Image.Image, level: int) -> None:
        self.size = img.size
        self.level = level
        self.palette = bytes((img.getpalette("RGB") or [0, 0, 0])[:768])
        w, h = img.size
        rows = filtered_rows(img)
        step = (w + 1) * BAND
        self.parts: list[bytes] = []
        self.adlers: list[int] = []
        self.lengths: list[int] = []
        self.open: dict[int, Image.Image] = {}  # bands pasted on, not yet deflated again
        for y0 in range(0, h, BAND):
            self._set(len(self.parts), memoryview(rows)[y0 // BAND * step:(y0 // BAND + 1) * step])

    def copy(self) -> PngBands:
        assert not self.open, "pasted on, not deflated again"
        out = PngBands.__new__(PngBands)
        out.size, out.level, out.palette = self.size, self.level, self.palette
        out.parts, out.adlers, out.lengths = list(self.parts), list(self.adlers), list(self.lengths)
        out.open = {}
        return out

    def _set(self, i: int, raw: bytes | memoryview) -> None:
        part, check = deflate_part(raw, self.level), zlib.adler32(raw)
        if i == len(self.parts):
            self.parts.append(part)
            self.adlers.append(check)
            self.lengths.append(len(raw))
        else:
            self.parts[i], self.adlers[i], self.lengths[i] = part, check, len(raw)

    def paste(self, img: Image.Image, xy: tuple[int, int]) -> None:
        """Paste a palette image (in the same palette) at xy (deflated again by `png`)."""
        w, h = self.size
        for i in range(max(0, xy[1] // BAND), min(len(self.parts), -(-(xy[1] + img.height) // BAND))):
            band = self.open.get(i)
            if band is None:
                raw = inflate_part(self.parts[i])
                band = self.open[i] = Image.frombytes("P", (w, min(BAND, h - i * BAND)),
                                                      raw[1:] + b"\x00", "raw", "P", w + 1)
            band.paste(img, (xy[0], xy[1] - i * BAND))

    def png(self) -> bytes:
        for i, band in self.open.items():
            self._set(i, filtered_rows(band))
        self.open.clear()
        return png_of_parts(self.size, self.palette, self.parts, self.adlers, self.lengths)

    @property
    def nbytes(self) -> int:
        return sum(map(len, self.parts))


class Bands:
    """A kept map's reduced canvas opened band by band (`Kept.bands`): crops read and pastes
    made on the bands they meet, which `close` compresses again."""

    def __init__(self, kept: Kept) -> None:
        self.kept = kept
        self.open: dict[int, Image.Image] = {}
        self.dirty: set[int] = set()

    def _band(self, i: int) -> Image.Image:
        band = self.open.get(i)
        if band is None:
            w, h = self.kept.size
            band = self.open[i] = Image.frombytes(
                "RGB", (w, min(BAND, h - i * BAND)), lz4.block.decompress(self.kept.bands[i]))
        return band

    def _meeting(self, y0: int, y1: int) -> range:
        return range(max(0, y0 // BAND), min(len(self.kept.bands), -(-y1 // BAND)))

    def crop(self, box: tuple[int, int, int, int]) -> Image.Image:
        out = Image.new("RGB", (box[2] - box[0], box[3] - box[1]))
        for i in self._meeting(box[1], box[3]):
            out.paste(self._band(i), (-box[0], i * BAND - box[1]))
        return out

    def paste(self, img: Image.Image, xy: tuple[int, int]) -> None:
        for i in self._meeting(xy[1], xy[1] + img.height):
            self._band(i).paste(img, (xy[0], xy[1] - i * BAND))
            self.dirty.add(i)

    def close(self) -> None:
        for i in sorted(self.dirty):
            self.kept.bands[i] = lz4.block.compress(self.open[i].tobytes())
        self.dirty.clear()


@dataclass(slots=True)
class Kept:
    """A full map's drawing before its labels: the reduced canvas (bands of LZ4), the ink mask
    (LZ4) and what they show."""

    key: tuple[object, ...]
    size: tuple[int, int]
    art_of: dict[str, HexArt]
    rings: tuple[tuple[str, ...], tuple[str, ...]]
    hexes: dict[str, HexDrawn] = field(default_factory=dict)
    # the canvas's base drawing (without discs) under each disc's box, as LZ4 of RGB bytes
    under: dict[tuple[int, int, int, int], bytes] = field(default_factory=dict)
    bands: list[bytes] = field(default_factory=list)
    ink: bytes = b""
    # what placing the labels did, by (kind of label, hex), in the order placed (`Placed`)
    placed: dict[tuple[int, str], Placed] = field(default_factory=dict)
    # the header's text and what the coordinates, the header and the legend deferred
    above: tuple[str | None, tuple[Any, ...]] | None = None
    # the map as posted (its palette image in deflated bands), None when not kept
    png: PngBands | None = None

    def copy(self, key: tuple[object, ...]) -> Kept:
        """The same map under another key (another game's first map patched from it)."""
        return Kept(key, self.size, dict(self.art_of), self.rings, self.hexes, dict(self.under),
                    list(self.bands), self.ink, dict(self.placed), self.above,
                    None if self.png is None else self.png.copy())

    @property
    def nbytes(self) -> int:
        return (sum(map(len, self.bands)) + len(self.ink) + sum(map(len, self.under.values()))
                + (_OVERHEAD_A_HEX + _PLACED_A_HEX) * len(self.art_of)
                + (self.png.nbytes if self.png is not None else 0))

    def store(self, out: Image.Image, ink: Image.Image, rows: tuple[int, int] | None = None
              ) -> None:
        """Keep `out` (RGB) and `ink` (L): every band, or only those meeting rows [y0, y1)."""
        w, h = self.size
        first, stop = (0, -(-h // BAND)) if rows is None else (rows[0] // BAND,
                                                               -(-rows[1] // BAND))
        if rows is None:
            self.bands = [b""] * stop
        for i in range(first, min(stop, len(self.bands))):
            y0 = i * BAND
            band = out.crop((0, y0, w, min(h, y0 + BAND))).tobytes()
            self.bands[i] = lz4.block.compress(band)
        self.ink = lz4.block.compress(ink.tobytes())

    def out(self) -> Image.Image:
        """The reduced canvas, a new RGB image."""
        raw = b"".join(map(lz4.block.decompress, self.bands))
        return Image.frombytes("RGB", self.size, raw)

    def ink_mask(self) -> Image.Image:
        return Image.frombytes("L", self.size, lz4.block.decompress(self.ink))


class KeptMaps:
    """The kept maps of a process, least recently used first, within `budget` bytes."""

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self._maps: OrderedDict[tuple[object, ...], Kept] = OrderedDict()
        self._bytes: dict[tuple[object, ...], int] = {}
        self.total = 0  # bytes held
        self.dropped = 0  # maps dropped for the budget

    def __len__(self) -> int:
        return len(self._maps)

    def __contains__(self, key: object) -> bool:
        return key in self._maps

    def get(self, key: tuple[object, ...]) -> Kept | None:
        kept = self._maps.get(key)
        if kept is not None:
            self._maps.move_to_end(key)
        return kept

    def peek(self, key: tuple[object, ...]) -> Kept:
        """A kept map, left where it is in the order of use."""
        return self._maps[key]

    def put(self, kept: Kept) -> None:
        """Keep (or account again for) this map as the most recently used; drop the least
        recently used others while over the budget (a map larger than the budget alone is not
        kept)."""
        self.discard(kept.key)
        size = kept.nbytes
        if size > self.budget:
            return
        self._maps[kept.key] = kept
        self._bytes[kept.key] = size
        self.total += size
        while self.total > self.budget:
            old, _ = self._maps.popitem(last=False)
            self.total -= self._bytes.pop(old)
            self.dropped += 1

    def discard(self, key: tuple[object, ...]) -> None:
        if key in self._maps:
            del self._maps[key]
            self.total -= self._bytes.pop(key)

    def clear(self) -> None:
        self._maps.clear()
        self._bytes.clear()
        self.total = 0

    def in_order(self) -> list[tuple[object, ...]]:
        """The keys, least recently used first."""
        return list(self._maps)


KEPT = KeptMaps()
_SCRATCH: dict[str, Image.Image] = {}  # by use: one as large as the largest map drawn


def scratch(use: str, mode: str, size: tuple[int, int]) -> Image.Image:
    """A scratch image at least `size` large (what it holds is left over)."""
    img = _SCRATCH.get(use)
    if img is None or img.width < size[0] or img.height < size[1]:
        w, h = size if img is None else (max(size[0], img.width), max(size[1], img.height))
        img = _SCRATCH[use] = Image.new(mode, (w, h))
    return img
