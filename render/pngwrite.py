"""A PNG writer for the flat-coloured RGB images (the market, the status sheet, the card).

Pillow's PNG encoder picks a row filter for every row of an RGB image by trying all five
(adaptive filtering): on the market, the status sheet and the card that choice costs more
than the compression itself (bench/README.md, "Fast under load"), and on these images, which
are drawn at output size in a few dozen flat colours with antialiased text, unfiltered rows
compress as well at the same zlib level (sizes within a few per cent, the card's and status
sheet's about a fifth smaller).  The pixels are the same: PNG is lossless, only the bytes
differ (tests/render/test_pngwrite.py decodes both).

The supersampled images (the map, routes) keep Pillow's encoder: their antialiased edges are
where the row filters pay off.
"""

from __future__ import annotations

import struct
import zlib

from PIL import Image

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def unfiltered_png(img: Image.Image, compress_level: int = 3) -> bytes:
    """PNG bytes of an RGB image, every row with filter type 0 (none), compressed by zlib at
    `compress_level` (-1: zlib's default) in one IDAT chunk."""
    if img.mode != "RGB":
        raise ValueError(f"unfiltered_png writes RGB images, not {img.mode}")
    w, h = img.size
    raw = img.tobytes()
    stride = 3 * w
    rows = b"\x00" + b"\x00".join([raw[i:i + stride] for i in range(0, len(raw), stride)])
    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8 bits, truecolour, no interlace
    return (_SIGNATURE + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows, compress_level)) + _chunk(b"IEND", b""))
