"""Colours and sizes shared by the renderers (one place to restyle the images)."""

from __future__ import annotations

from functools import cache

from PIL import ImageColor

RGB = tuple[int, int, int]

BACKGROUND: RGB = (246, 243, 234)
INK: RGB = (25, 25, 25)
MUTED: RGB = (110, 110, 110)
GRID_LINE: RGB = (150, 150, 150)

# Tile / printed hex colours, by the colour names used in the title data.
HEX_FILL: dict[str, RGB] = {
    "white": (236, 232, 215),
    "yellow": (252, 227, 86),
    "green": (120, 195, 110),
    "brown": (196, 140, 90),
    "gray": (175, 175, 175),
    "red": (214, 64, 56),
    "blue": (90, 150, 220),
}
HEX_OUTLINE: RGB = (120, 116, 104)
TRACK: RGB = (20, 20, 20)
TRACK_ON_RED: RGB = (20, 20, 20)
CITY_FILL: RGB = (255, 255, 255)
CITY_OUTLINE: RGB = (20, 20, 20)
TOWN: RGB = (20, 20, 20)
REVENUE_FILL: RGB = (255, 255, 255)
LABEL_INK: RGB = (20, 20, 20)
LOCATION_INK: RGB = (40, 40, 40)
WATER: RGB = (40, 120, 210)
MOUNTAIN: RGB = (120, 85, 50)
TERRAIN_OTHER: RGB = (90, 120, 60)
IMPASSABLE: RGB = (200, 30, 30)
HIGHLIGHT: RGB = (235, 20, 200)  # last move outline (magenta: unlike any tile colour)
EMPHASIS: RGB = (30, 110, 230)  # hexes a command names
BLOCKED_FILL: RGB = (200, 196, 182)
COORD_INK: RGB = (90, 90, 90)

# Offboard revenue columns are ordered like tile colours.
COLOR_ORDER = ("yellow", "green", "brown", "gray", "blue")

# Market zone fills, by cell type.
ZONE_FILL: dict[str, RGB] = {
    "": (250, 250, 250),
    "no_cert_limit": (252, 236, 120),
    "unlimited": (150, 210, 130),
    "multiple_buy": (200, 150, 100),
    "close": (60, 60, 60),
    "ledge": (240, 150, 150),
    "endgame": (150, 190, 240),
    "par": (250, 250, 250),
}
ZONE_TEXT: dict[str, str] = {
    "": "normal",
    "no_cert_limit": "not counted toward the certificate limit",
    "unlimited": "no cert limit; may hold over 60%",
    "multiple_buy": "no cert limit; several shares per turn",
    "close": "corporation closes",
    "ledge": "ledge: one sale does not cross it",
    "endgame": "game end",
    "par": "par value (starting price)",
}
PAR_OUTLINE: RGB = (200, 20, 20)

# Status sheet
HEADER_FILL: RGB = (60, 60, 70)
HEADER_INK: RGB = (255, 255, 255)
ROW_ALT: RGB = (236, 233, 222)
ACTING_FILL: RGB = (255, 236, 140)
NEXT_TRAIN_FILL: RGB = (140, 210, 120)
GONE_INK: RGB = (160, 160, 160)


@cache
def rgb(color: str) -> RGB:
    """A colour from the title data ("black", "#7090c9", "darkMagenta", "yellow") as RGB."""
    if color in HEX_FILL:
        return HEX_FILL[color]
    try:
        c = ImageColor.getrgb(color)
    except ValueError:
        return (128, 128, 128)
    return (c[0], c[1], c[2])


@cache
def corp_rgb(color: str) -> RGB:
    """A corporation colour (not remapped to the tile palette)."""
    try:
        c = ImageColor.getrgb(color)
    except ValueError:
        return (128, 128, 128)
    return (c[0], c[1], c[2])


def text_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on `fill`."""
    r, g, b = fill
    lum = 0.299 * r + 0.587 * g + 0.114 * b
    return (0, 0, 0) if lum > 150 else (255, 255, 255)


def blend(a: RGB, b: RGB, t: float) -> RGB:
    """Mix: t=0 gives a, t=1 gives b."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )
