"""A PNG writer for the flat-coloured RGB images (the market, the status sheet, the card) and
the map's palette images (the map, close-ups, regions).

Pillow's PNG encoder picks a row filter for every row of an RGB image by trying all five
(adaptive filtering): on the market, the status sheet and the card that choice costs more
than the compression itself (bench/README.md, "Fast under load"), and on these images, which
are drawn at output size in a few dozen flat colours with antialiased text, unfiltered rows
compress as well at the same zlib level (sizes within a few per cent, the card's and status
sheet's about a fifth smaller).  A palette image's rows are unfiltered in Pillow's writer too.

The compression itself is ISA-L's deflate (the `isal` package) where it is installed, for the
fast levels (1-3): at its level 2 it took a tenth of zlib's time on the market and the card
and a fifth on the map; the files are 5-7 % smaller than zlib's level 1 on the map and 3-15 %
larger than zlib's level 3 on the flat images (bench/README.md, section 9).  The stream is
ordinary deflate in a zlib wrapper; any PNG reader decodes it.  The pixels are the same: PNG
is lossless, only the bytes differ (tests/render/test_pngwrite.py decodes them).

The supersampled RGB images (routes, rotations, the chart) keep Pillow's encoder: their
antialiased edges are where the row filters pay off.
"""

from __future__ import annotations

import struct
import zlib
from types import ModuleType
from typing import Any

from PIL import Image

_isal: ModuleType | None
try:
    from isal import isal_zlib as _isal
except ImportError:  # pragma: no cover - isal is a dependency; zlib keeps the writer working
    _isal = None

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
FAST_LEVELS = range(1, 4)  # zlib levels written with ISA-L's FAST_LEVEL instead
FAST_LEVEL = 2  # ISA-L's levels are 0-3; 3 is ten times slower than 2 for 1-2 % less


def _compressor(compress_level: int) -> Any:
    """A zlib-wrapped deflate stream: zlib's `compress_level` (0 stores, -1 zlib's default), but
    a fast level (1-3) by ISA-L's FAST_LEVEL where the isal package is installed."""
    if _isal is not None and compress_level in FAST_LEVELS:
        return _isal.compressobj(FAST_LEVEL)
    return zlib.compressobj(compress_level)


def deflate(data: bytes | memoryview, compress_level: int, prefix: bytes = b"") -> bytes:
    """prefix + data, deflated by `_compressor(compress_level)` (without joining them)."""
    c = _compressor(compress_level)
    return bytes(c.compress(prefix) + c.compress(data) + c.flush())


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _padded_rows(img: Image.Image, stride: int) -> bytes:
    """img's pixel rows as packed bytes, each followed by zeros up to `stride` bytes: written by
    Pillow's raw encoder into one buffer (Image.tobytes writes 64 kB pieces and joins them)."""
    enc = Image._getencoder(img.mode, "raw", (img.mode, stride))
    enc.setimage(img.im, (0, 0, *img.size))
    pieces = []
    while True:
        _, status, data = enc.encode(stride * img.height)
        pieces.append(data)
        if status:
            break
    if status < 0:
        raise RuntimeError(f"Pillow's raw encoder failed ({status})")
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def unfiltered_png(img: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes of an RGB image or a palette ("P") image, every row with filter type 0 (none),
    compressed by `deflate` at `compress_level` in one IDAT chunk."""
    if img.mode not in ("RGB", "P"):
        raise ValueError(f"unfiltered_png writes RGB and P images, not {img.mode}")
    if img.info.get("transparency") is not None:
        raise ValueError("unfiltered_png writes opaque images only")
    w, h = img.size
    # every row after a 0 (its filter type): the rows each followed by a 0, shifted by one
    padded = _padded_rows(img, (3 * w if img.mode == "RGB" else w) + 1)
    idat = deflate(memoryview(padded)[:-1], compress_level, prefix=b"\x00")
    kind = 2 if img.mode == "RGB" else 3  # truecolour or indexed
    header = struct.pack(">IIBBBBB", w, h, 8, kind, 0, 0, 0)  # 8 bits, no interlace
    plte = b""
    if img.mode == "P":
        plte = _chunk(b"PLTE", bytes((img.getpalette("RGB") or [0, 0, 0])[:768]))
    return (_SIGNATURE + _chunk(b"IHDR", header) + plte + _chunk(b"IDAT", idat)
            + _chunk(b"IEND", b""))


# A PNG written in parts (render.mapkeep.PngBands: a kept map's palette image in bands of
# rows): each part is deflated alone, ending on a full flush (byte-aligned, no reference to the
# data before it), so that the parts' streams joined, and closed by an empty final block, are
# one deflate stream; the zlib wrapper's checksum is combined from the parts' (`adler32_combine`).
# A part changed is deflated again alone; the others are joined as they were.
_ADLER_BASE = 65521
_FINAL_EMPTY_BLOCK = b"\x03\x00"  # BFINAL, fixed Huffman codes, end of block
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 kB window, no dictionary, "fastest" (a hint only)


def deflate_part(data: bytes | memoryview, compress_level: int) -> bytes:
    """data as raw deflate ending on a full flush (a part of a stream: `png_of_parts`)."""
    if _isal is not None and compress_level in FAST_LEVELS:
        c = _isal.compressobj(FAST_LEVEL, _isal.DEFLATED, -15)
        return bytes(c.compress(data) + c.flush(_isal.Z_FULL_FLUSH))
    z = zlib.compressobj(compress_level, zlib.DEFLATED, -15)
    return z.compress(data) + z.flush(zlib.Z_FULL_FLUSH)


def inflate_part(part: bytes) -> bytes:
    """The data of one `deflate_part`."""
    return zlib.decompressobj(-15).decompress(part)


def adler32_combine(a1: int, a2: int, len2: int) -> int:
    """The Adler-32 of A + B from A's (a1), B's (a2) and B's length (as zlib's own)."""
    rem = len2 % _ADLER_BASE
    s1 = a1 & 0xFFFF
    s2 = (rem * s1) % _ADLER_BASE
    s1 += (a2 & 0xFFFF) + _ADLER_BASE - 1
    s2 += (a1 >> 16) + (a2 >> 16) + _ADLER_BASE - rem
    s1 %= _ADLER_BASE
    s2 %= _ADLER_BASE
    return s1 | (s2 << 16)


def png_of_parts(size: tuple[int, int], palette: bytes, parts: list[bytes], adlers: list[int],
                 lengths: list[int]) -> bytes:
    """PNG bytes of a palette image whose rows (each after its filter byte 0) were deflated in
    parts (`deflate_part`), given each part's Adler-32 and length."""
    check = 1
    for a, n in zip(adlers, lengths, strict=True):
        check = adler32_combine(check, a, n)
    idat = b"".join((_ZLIB_HEADER, *parts, _FINAL_EMPTY_BLOCK, struct.pack(">I", check)))
    header = struct.pack(">IIBBBBB", size[0], size[1], 8, 3, 0, 0, 0)
    return (_SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"PLTE", palette)
            + _chunk(b"IDAT", idat) + _chunk(b"IEND", b""))


def filtered_rows(img: Image.Image) -> bytes:
    """A palette image's rows as a PNG holds them: each after its filter byte 0 (none)."""
    padded = _padded_rows(img, img.width + 1)
    return b"\x00" + padded[:-1]
