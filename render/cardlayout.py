"""The phone card's boxes (render/card.py says what goes on the card): its width and font
sizes, a fitted text (`Item`), fills and colour swatches, the `CardLayout` they make, text
fitting and wrapping, and the builder that puts paragraphs and tables within the card's width.
No game content here."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

from render import theme
from render.fonts import font
from render.map import PHONE_PREVIEW_WIDTH

CARD_WIDTH = 2 * PHONE_PREVIEW_WIDTH

# font sizes at CARD_WIDTH (scaled with the width)
TITLE = 28
TURN = 28
BODY = 24
HEAD = 20
SMALL = 21
MIN_SIZE = 18  # never smaller: 7.5 px digits at the 400 px preview

Box = tuple[float, float, float, float]

@dataclass(frozen=True, slots=True)
class Item:
    """One text of the card, already fitted: drawn at `size` px inside `box`."""

    text: str
    size: int
    bold: bool
    box: Box  # the text's box (cell padding already taken off)
    align: str  # "l" | "r"
    ink: theme.RGB
    role: str  # "card-title", "card-turn", "card-info", "card-header", "card-cell", "card-note"
    point: tuple[float, float]  # where the text is anchored (its ink stays inside box)

    @property
    def anchor(self) -> str:
        return "rm" if self.align == "r" else "lm"


@dataclass(frozen=True, slots=True)
class Fill:
    box: Box
    color: theme.RGB
    radius: int = 0
    outline: theme.RGB | None = None


@dataclass(frozen=True, slots=True)
class Swatch:
    center: tuple[float, float]
    radius: float
    color: theme.RGB


@dataclass(slots=True)
class CardLayout:
    width: int
    height: int = 0
    fills: list[Fill] = field(default_factory=list)
    swatches: list[Swatch] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    bold: bool = False
    ink: theme.RGB | None = None
    swatch: theme.RGB | None = None


@dataclass(frozen=True, slots=True)
class Col:
    header: str
    right: bool = False
    flex: int = 0  # 1, 2, ...: gives width back in this order when short (1 takes the spare)


@lru_cache(maxsize=8192)  # a card measures each of its texts at several sizes while fitting
def extent(s: str, size: int, bold: bool, right: bool = False) -> tuple[int, int]:
    """Pillow's ink box of `s` across, relative to its anchor ("rm" if right, else "lm")."""
    left, _, end, _ = font(size, bold).getbbox(s, anchor="rm" if right else "lm")
    return int(left), int(end)


def text_width(s: str, size: int, bold: bool, right: bool = False) -> int:
    """The whole pixels the text takes across (with any overhang at either end)."""
    left, end = extent(s, size, bold, right)
    return end - min(0, left) if not right else max(0, end) - left


def fit(
    s: str, avail: float, size: int, bold: bool, minimum: int, right: bool = False
) -> tuple[str, int]:
    """The text and size that fit `avail` px: shrink down to `minimum`, then cut with '…'."""
    while size > minimum and text_width(s, size, bold, right) > avail:
        size -= 1
    if text_width(s, size, bold, right) <= avail:
        return s, size
    while s and text_width(s + "…", size, bold, right) > avail:
        s = s[:-1].rstrip()
    return (s + "…" if s else ""), size


def wrap(s: str, avail: float, size: int, bold: bool, sep: str = " ") -> list[str]:
    """Greedy line breaking at `sep` (a single word too long is cut later by fit)."""
    f = font(size, bold)
    lines: list[str] = []
    cur = ""
    for word in s.split(sep):
        cand = f"{cur}{sep}{word}" if cur else word
        if cur and f.getlength(cand) > avail:
            lines.append(cur)
            cur = word.lstrip()
        else:
            cur = cand
    lines.append(cur)
    return lines


class Builder:
    def __init__(self, width: int) -> None:
        self.out = CardLayout(width)
        self.s = width / CARD_WIDTH
        self.pad = self.px(16)
        self.inner = self.px(8)
        self.min = self.px(MIN_SIZE)
        self.y: float = self.pad

    def px(self, v: float) -> int:
        return max(1, round(v * self.s))

    @property
    def x0(self) -> float:
        return float(self.pad)

    @property
    def x1(self) -> float:
        return float(self.out.width - self.pad)

    def put(
        self,
        s: str,
        box: Box,
        size: int,
        bold: bool,
        ink: theme.RGB,
        role: str,
        right: bool = False,
        shrink: int | None = None,
    ) -> None:
        """Text fitted into box: at most `shrink` px smaller (else down to the minimum size),
        then cut."""
        least = self.min if shrink is None else max(self.min, size - shrink)
        fitted, fs = fit(s, box[2] - box[0], size, bold, min(size, least), right)
        if not fitted:
            return
        left, end = extent(fitted, fs, bold, right)
        # whole-pixel anchors: the ink box is then exactly where Pillow measures it
        x = math.floor(box[2]) - max(0, end) if right else math.ceil(box[0]) - min(0, left)
        point = (float(x), (box[1] + box[3]) / 2)
        align = "r" if right else "l"
        self.out.items.append(Item(fitted, fs, bold, box, align, ink, role, point))

    def para(
        self,
        s: str,
        size: int,
        bold: bool,
        ink: theme.RGB,
        role: str,
        x0: float | None = None,
        x1: float | None = None,
        sep: str = " ",
    ) -> None:
        """Wrapped lines of text from self.y down."""
        a = self.x0 if x0 is None else x0
        b = self.x1 if x1 is None else x1
        line_h = round(size * 1.4)
        for line in wrap(s, b - a, size, bold, sep):
            self.put(line, (a, self.y, b, self.y + line_h), size, bold, ink, role)
            self.y += line_h

    def table(
        self, cols: list[Col], rows: list[list[Cell]], fills: list[theme.RGB | None]
    ) -> None:
        body, head = self.px(BODY), self.px(HEAD)
        row_h, head_h = round(body * 1.5), round(head * 1.6)
        inner = self.inner
        sw_r = body * 0.42
        sw_w = 2 * sw_r + self.px(6)
        # natural widths
        widths = [float(text_width(col.header, head, True, col.right) + 2 * inner + 1) for col in cols]
        for row in rows:
            for i, c in enumerate(row):
                w = text_width(c.text, body, c.bold, cols[i].right) + 2 * inner + 1
                widths[i] = max(widths[i], math.ceil(w + (sw_w if c.swatch else 0)))
        avail = self.x1 - self.x0
        flex = sorted((col.flex, i) for i, col in enumerate(cols) if col.flex)
        order = [i for _, i in flex] or [len(cols) - 1]
        short = sum(widths) - avail
        if short <= 0:
            widths[order[0]] -= short
        for i in order:  # take the shortfall column by column, down to the header's width
            if short <= 0:
                break
            floor = text_width(cols[i].header, head, True, cols[i].right) + 2 * inner + 1
            cut = min(short, max(0.0, widths[i] - floor))
            widths[i] -= cut
            short -= cut
        total = sum(widths)
        if total > avail:  # still too wide: every column gives in proportion
            widths = [cw * avail / total for cw in widths]
        xs = [self.x0]  # column edges on whole pixels, so the text boxes are too
        for cw in widths:
            xs.append(float(min(xs[-1] + math.floor(cw), self.x1)))
        xs[-1] = self.x1
        # header
        y = self.y
        self.out.fills.append(Fill((self.x0, y, self.x1, y + head_h), theme.HEADER_FILL))
        for i, col in enumerate(cols):
            box = (xs[i] + inner, y, xs[i + 1] - inner, y + head_h)
            self.put(col.header, box, head, True, theme.HEADER_INK, "card-header", col.right)
        y += head_h
        for r, row in enumerate(rows):
            fill = fills[r] if r < len(fills) and fills[r] else (theme.ROW_ALT if r % 2 else None)
            if fill:
                self.out.fills.append(Fill((self.x0, y, self.x1, y + row_h), fill))
            for i, c in enumerate(row):
                a = xs[i] + inner
                if c.swatch is not None:
                    self.out.swatches.append(Swatch((a + sw_r, y + row_h / 2), sw_r, c.swatch))
                    a += sw_w
                box = (a, y, xs[i + 1] - inner, y + row_h)
                ink = c.ink or theme.INK
                # a long name is cut rather than shrunk much (rows keep one size)
                shrink = self.px(3)
                self.put(c.text, box, body, c.bold, ink, "card-cell", cols[i].right, shrink)
            y += row_h
        self.y = y
