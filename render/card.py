"""The phone card: what a player reads on a phone, legible in Discord's ~400 px inline preview.

The full status sheet (render.status) is 1200 px wide with nine-column tables, so in a phone
preview its figures are 6 px high, nine columns of them.  The card keeps only:

* the title, round and phase; who acts now and what they may do (or the final scores);
* the bank's cash and the next train for sale;
* per player: cash, certificates against the limit, net worth (★ = priority deal);
* per started corporation or minor (floated, or with a president): president, share price,
  treasury, trains and tokens left (✓ = operated this round); the others are named on one line.

It is drawn CARD_WIDTH (800) px wide, twice the preview width like the map close-up, with no
text smaller than MIN_SIZE px (digits at least 7.5 px high in a 400 px preview).  Every text is
fitted to its box (a smaller size down to MIN_SIZE, then an ellipsis); `card_layout` returns the
boxes so tests can check that nothing overflows.

    from render.card import render_card
    png = render_card(game.view())                      # the view's action kinds (view.may)
    png = render_card(view, may=game.legal().kinds)     # or an explicit list of moves
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.view import GameView
from render import theme
from render.draw import text, to_png
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

# What the acting entity may do, by the engine's action kinds (engine.legal.Legal.kinds).
KIND_WORDS: dict[str, str] = {
    "bid": "bid",
    "par": "par a corporation",
    "buy_shares": "buy shares",
    "sell_shares": "sell shares",
    "lay_tile": "lay track",
    "place_token": "place a token",
    "run_routes": "run trains",
    "dividend": "pay or withhold",
    "buy_train": "buy a train",
    "discard_train": "discard a train",
    "buy_company": "buy a private",
    "merge": "merge",
    "choose": "choose",
    "assign": "assign",
    "bankrupt": "declare bankruptcy",
    "pass": "pass",
}
# Without the engine's list: what the round allows in general.
ROUND_WORDS: dict[str, str] = {
    "draft": "take a private company, or pass",
    "auction": "bid on a private company, or pass",
    "stock": "buy, sell or par shares, or pass",
    "operating": "lay track · place a token · run trains · buy trains",
    "merger": "accept or decline the merger",
}


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
class _Cell:
    text: str
    bold: bool = False
    ink: theme.RGB | None = None
    swatch: theme.RGB | None = None


@dataclass(frozen=True, slots=True)
class _Col:
    header: str
    right: bool = False
    flex: int = 0  # 1, 2, ...: gives width back in this order when short (1 takes the spare)


def _money(v: int | None) -> str:
    if v is None:
        return "—"
    return f"-${-v:,}" if v < 0 else f"${v:,}"


def _extent(s: str, size: int, bold: bool, right: bool = False) -> tuple[int, int]:
    """Pillow's ink box of `s` across, relative to its anchor ("rm" if right, else "lm")."""
    left, _, end, _ = font(size, bold).getbbox(s, anchor="rm" if right else "lm")
    return int(left), int(end)


def _width(s: str, size: int, bold: bool, right: bool = False) -> int:
    """The whole pixels the text takes across (with any overhang at either end)."""
    left, end = _extent(s, size, bold, right)
    return end - min(0, left) if not right else max(0, end) - left


def _fit(
    s: str, avail: float, size: int, bold: bool, minimum: int, right: bool = False
) -> tuple[str, int]:
    """The text and size that fit `avail` px: shrink down to `minimum`, then cut with '…'."""
    while size > minimum and _width(s, size, bold, right) > avail:
        size -= 1
    if _width(s, size, bold, right) <= avail:
        return s, size
    while s and _width(s + "…", size, bold, right) > avail:
        s = s[:-1].rstrip()
    return (s + "…" if s else ""), size


def _wrap(s: str, avail: float, size: int, bold: bool, sep: str = " ") -> list[str]:
    """Greedy line breaking at `sep` (a single word too long is cut later by _fit)."""
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


class _Builder:
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
        fitted, fs = _fit(s, box[2] - box[0], size, bold, min(size, least), right)
        if not fitted:
            return
        left, end = _extent(fitted, fs, bold, right)
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
        for line in _wrap(s, b - a, size, bold, sep):
            self.put(line, (a, self.y, b, self.y + line_h), size, bold, ink, role)
            self.y += line_h

    def table(
        self, cols: list[_Col], rows: list[list[_Cell]], fills: list[theme.RGB | None]
    ) -> None:
        body, head = self.px(BODY), self.px(HEAD)
        row_h, head_h = round(body * 1.5), round(head * 1.6)
        inner = self.inner
        sw_r = body * 0.42
        sw_w = 2 * sw_r + self.px(6)
        # natural widths
        widths = [float(_width(col.header, head, True, col.right) + 2 * inner + 1) for col in cols]
        for row in rows:
            for i, c in enumerate(row):
                w = _width(c.text, body, c.bold, cols[i].right) + 2 * inner + 1
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
            floor = _width(cols[i].header, head, True, cols[i].right) + 2 * inner + 1
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


def _who(view: GameView) -> dict[str, str]:
    return {p.id: p.name for p in view.players}


def _presidents(view: GameView, names: dict[str, str]) -> dict[str, str]:
    """Corporation id -> its president's name; a minor without one (18MEX) is run by the player
    holding the private company of the same id."""
    owners = {co.id: co.owner for co in view.companies if co.owner_kind == "player" and co.owner}
    out = {}
    for c in view.corporations:
        pid = c.president or (owners.get(c.id) if c.kind == "minor" else None)
        if pid:
            out[c.id] = names.get(pid, pid)
    return out


def _turn(view: GameView, may: Sequence[str] | None) -> tuple[str, str]:
    """(who acts, what they may do)."""
    names = _who(view)
    players = [names.get(p, p) for p in view.acting_players]
    parts = []
    for eid in view.acting:
        if eid in names:
            parts.append(names[eid])
        else:
            ctl = ", ".join(players) or _presidents(view, names).get(eid, "")
            parts.append(f"{eid} ({ctl})" if ctl else eid)
    who = ", ".join(parts) or ", ".join(players) or "—"
    may = may or view.may
    if may:
        words = list(dict.fromkeys(KIND_WORDS.get(k, k.replace("_", " ")) for k in may))
        what = " · ".join(words)
    else:
        what = ROUND_WORDS.get(view.round_kind, "")
    return who, what


def card_layout(
    view: GameView, *, width: int = CARD_WIDTH, may: Sequence[str] | None = None
) -> CardLayout:
    """Where every text, fill and colour chip of the card goes (the card is drawn from this)."""
    b = _Builder(width)
    px = b.px
    names = _who(view)
    acting = set(view.acting) | set(view.acting_players)

    # title line
    h = px(TITLE * 1.45)
    title = f"{view.data.title}  ·  {view.round}  ·  Phase {view.phase}"
    b.put(title, (b.x0, b.y, b.x1, b.y + h), px(TITLE), True, theme.INK, "card-title")
    b.y += h + px(4)

    # who acts and what they may do (or the result), on the acting colour
    top = b.y
    b.y += px(8)
    tx0, tx1 = b.x0 + px(12), b.x1 - px(12)
    if view.finished:
        b.para("Final scores", px(TURN), True, theme.INK, "card-turn", tx0, tx1)
        ranked = sorted(view.result.items(), key=lambda kv: -kv[1])
        res = "   ".join(
            f"{i + 1}. {names.get(k, k)} {_money(v)}" for i, (k, v) in enumerate(ranked)
        )
        if res:
            b.para(res, px(BODY), False, theme.INK, "card-turn", tx0, tx1, sep="   ")
    else:
        who, what = _turn(view, may)
        b.para("▶ " + who, px(TURN), True, theme.INK, "card-turn", tx0, tx1)
        if what:
            b.para("may: " + what, px(SMALL), False, theme.INK, "card-turn", tx0, tx1, sep=" · ")
    for note in view.notes:
        b.para(note, px(SMALL), True, theme.IMPASSABLE, "card-turn", tx0, tx1)
    b.y += px(8)
    fill = theme.BLOCKED_FILL if view.finished else theme.ACTING_FILL
    b.out.fills.append(Fill((b.x0, top, b.x1, b.y), fill, px(10), theme.GRID_LINE))
    b.y += px(8)

    # bank and the next train
    info = [f"Bank {_money(view.bank_cash)}"]
    nxt = next((t for t in view.trains if t.available and t.left > 0), None)
    if nxt is not None:
        left = "unlimited" if nxt.left >= 99 else f"{nxt.left} left"
        info.append(f"next train {nxt.name}: {_money(nxt.price)} ({left})")
    if view.open_market_trains:
        info.append("pool: " + " ".join(view.open_market_trains))
    b.para("   ·   ".join(info), px(SMALL), True, theme.INK, "card-info", sep="   ·   ")
    b.y += px(6)

    # players
    cols = [_Col("Player", flex=1), _Col("Cash", True), _Col("Certs", True), _Col("Worth", True)]
    rows: list[list[_Cell]] = []
    fills: list[theme.RGB | None] = []
    for p in view.players:
        over = p.cert_count > p.cert_limit
        rows.append(
            [
                _Cell(("★ " if p.priority else "") + p.name, bold=True),
                _Cell(_money(p.cash)),
                _Cell(
                    f"{p.cert_count}/{p.cert_limit}",
                    bold=over,
                    ink=theme.IMPASSABLE if over else None,
                ),
                _Cell(_money(p.value)),
            ]
        )
        fills.append(theme.ACTING_FILL if p.id in acting else None)
    b.table(cols, rows, fills)
    b.y += px(12)

    # started corporations and minors, in operating order
    order = {cid: i for i, cid in enumerate(view.operating_order)}
    presidents = _presidents(view, names)
    started = [c for c in view.corporations if not c.closed and (c.floated or c.president)]
    started.sort(key=lambda c: (not c.floated, order.get(c.id, 99)))
    cols = [
        _Col("Corp"),
        _Col("President", flex=1),
        _Col("Price", True),
        _Col("Treasury", True),
        _Col("Trains", flex=2),
        _Col("Tokens", True),
    ]
    rows, fills = [], []
    for c in started:
        ink = None if c.floated else theme.GONE_INK
        price = _money(c.price) if c.price is not None or c.kind != "minor" else "minor"
        rows.append(
            [
                _Cell(
                    c.id + (" ✓" if c.operated else ""),
                    bold=True,
                    ink=ink,
                    swatch=theme.corp_rgb(c.color),
                ),
                _Cell(presidents.get(c.id, "—"), ink=ink),
                _Cell(price, bold=c.price is not None, ink=ink),
                _Cell(_money(c.treasury), ink=ink),
                _Cell(" ".join(c.trains) or "—", ink=ink),
                _Cell(f"{c.tokens_left}/{c.tokens_total}", ink=ink),
            ]
        )
        fills.append(theme.ACTING_FILL if c.id in acting else None)
    if rows:
        b.table(cols, rows, fills)
        b.y += px(8)

    # the rest on a line or two, and what the marks mean
    waiting = [c.id for c in view.corporations if not c.closed and c not in started]
    closed = [c.id for c in view.corporations if c.closed]
    rest = []
    if waiting:
        rest.append("Not started: " + " ".join(waiting))
    if closed:
        rest.append("Closed: " + " ".join(closed))
    marks = []
    if any(p.priority for p in view.players):
        marks.append("★ priority deal")
    if any(c.operated for c in started):
        marks.append("✓ operated this round")
    if started:
        marks.append("tokens: left/all")
    if any(not c.floated for c in started):
        marks.append("grey: not floated yet")
    if marks:
        rest.append("   ".join(marks))
    for line in rest:
        b.para(line, px(SMALL), False, theme.MUTED, "card-note")
    b.out.height = round(b.y + b.pad)
    return b.out


def render_card_image(
    view: GameView, *, width: int = CARD_WIDTH, may: Sequence[str] | None = None
) -> Image.Image:
    lay = card_layout(view, width=width, may=may)
    img = Image.new("RGB", (lay.width, lay.height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    for f in lay.fills:
        if f.radius:
            d.rounded_rectangle(f.box, radius=f.radius, fill=f.color, outline=f.outline)
        else:
            d.rectangle(f.box, fill=f.color, outline=f.outline)
    for sw in lay.swatches:
        (cx, cy), r = sw.center, sw.radius
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=sw.color, outline=theme.INK)
    for it in lay.items:
        text(d, it.point, it.text, font(it.size, it.bold), it.ink, anchor=it.anchor, role=it.role)
    return img


def render_card(
    view: GameView,
    *,
    width: int = CARD_WIDTH,
    may: Sequence[str] | None = None,
    compress_level: int = 3,
) -> bytes:
    """PNG bytes of the phone card.  may: the acting entity's legal action kinds, if known."""
    return to_png(render_card_image(view, width=width, may=may), compress_level)


__all__: Sequence[str] = ("card_layout", "render_card", "render_card_image")
