"""What the renderer keeps between images: Pillow's freed memory blocks, and the glyph masks of
the texts drawn lately (render.draw.draw_deferred pastes them).  Neither changes a pixel
(tests/render/test_render_caches.py); both make a process's next map cheaper than its first
(bench/README.md, "Rendering")."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from PIL import Image

from render.fonts import Font

# Pillow hands the memory of a freed image back to the system and asks for it again (zeroed)
# for the next: a map allocates ~100 MB per render (the supersampled image, its reduction, the
# ink mask, the palette image), and the page faults cost about a tenth of the render.  Freed
# blocks are kept and reused instead: 1 MB blocks (Pillow's default, 16 MB, is worse here: a
# small image, such as a text's glyphs, takes a kept block and shrinks it; see also
# kept_blocks_held), at most 96 of them (96 MB kept, about the peak of the 1870 map: with 64,
# the first crowded map after the warm-up, render.warm, still took ~8,000 fresh pages).
Image.core.set_block_size(1 << 20)
Image.core.set_blocks_max(96)


@contextmanager
def kept_blocks_held() -> Iterator[None]:
    """Inside, Pillow's kept blocks are held (by an image that takes them all), so that the
    small images made inside and kept (the glyph masks of render.draw.text_masks) take fresh
    small allocations: each would otherwise take a kept 1 MB block for good, shrunk, and the
    next map's large images would ask the system for fresh memory again (page faults: about
    a sixth of the first crowded map after the warm-up: 11,700 fresh pages and ~145 ms CPU
    when the blocks were held only after 16 masks, 4,000 and ~130 ms held from the first).
    Holding costs a write of the kept blocks (Pillow zeroes a reused block): see HOLD_FROM."""
    n = int(Image.core.get_stats()["blocks_cached"])
    held = Image.core.new("L", (Image.core.get_block_size(), n)) if n else None
    try:
        yield
    finally:
        del held


TEXT_MASKS_KEPT = 8192  # a crowded map draws ~500 texts; a few maps' worth stay rendered
_Mask = tuple[Any, tuple[int, int]]  # Pillow's glyph coverage (an "L" core image), its offset
_MaskKey = tuple[Font, str, str, int, float, float]


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    maxsize: int
    currsize: int


class _TextMasks:
    """text_masks: the masks of the texts drawn lately (least recently used forgotten first),
    as functools.lru_cache keeps them, with `missing` to count what a map must render."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.kept: OrderedDict[_MaskKey, tuple[_Mask | None, _Mask]] = OrderedDict()
        self.hits = self.misses = 0

    def __call__(self, f: Font, s: str, anchor: str, halo_width: int, fx: float, fy: float
                 ) -> tuple[_Mask | None, _Mask]:
        """(halo mask or None, text mask) of one line of text at a position whose fractional
        parts are fx, fy: the glyph coverage FreeType renders there (the sub-pixel start
        Pillow's ImageDraw.text gives it) and its offset from the whole-pixel position.  The
        same text in the same place of the next map of a game (most of its names, numbers and
        coordinates) is pasted from here, not rendered again."""
        key = (f, s, anchor, halo_width, fx, fy)
        got = self.kept.get(key)
        if got is not None:
            self.hits += 1
            self.kept.move_to_end(key)
            return got
        self.misses += 1

        def mask(stroke: int) -> _Mask:
            m, offset = f.getmask2(s, "L", None, None, None, stroke, anchor, 0, (fx, fy),
                                   stroke_filled=True)
            return m, (int(offset[0]), int(offset[1]))

        got = ((mask(halo_width) if halo_width > 0 else None), mask(0))
        self.kept[key] = got
        if len(self.kept) > self.maxsize:
            self.kept.popitem(last=False)
        return got

    def missing(self, keys: Iterable[_MaskKey]) -> int:
        return sum(1 for k in keys if k not in self.kept)

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, self.maxsize, len(self.kept))

    def cache_clear(self) -> None:
        self.kept.clear()
        self.hits = self.misses = 0


text_masks = _TextMasks(TEXT_MASKS_KEPT)
