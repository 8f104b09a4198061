"""The status sheet: round, phase, who acts, bank, trains, players, corporations, privates.

Too wide to read in a phone preview; render.card.render_card draws the phone card (who acts,
players' cash / certificates / worth, the started corporations) that stays legible at 400 px.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from engine.view import GameView
from render import theme
from render.draw import text
from render.fonts import Font, font
from render.pngwrite import unfiltered_png

DEFAULT_WIDTH = 1200


@dataclass(slots=True)
class Cell:
    text: str
    swatch: theme.RGB | None = None  # a coloured chip drawn before the text
    bold: bool = False
    ink: theme.RGB | None = None


@dataclass(slots=True)
class Table:
    title: str
    headers: list[str]
    rows: list[list[Cell]]
    row_fill: list[theme.RGB | None] = field(default_factory=list)
    right: set[int] = field(default_factory=set)  # right-aligned (numeric) columns
    flex: int = -1  # the column that takes the spare width and wraps its text


def _money(v: int | None) -> str:
    return "—" if v is None else f"${v:,}"


def _tables(view: GameView) -> tuple[list[str], list[Table]]:
    names = {p.id: p.name for p in view.players}
    corp_names = {c.id: c.id for c in view.corporations}
    acting = set(view.acting) | set(view.acting_players)

    def who(eid: str | None) -> str:
        if eid is None:
            return "—"
        return names.get(eid, corp_names.get(eid, eid))

    lines = [
        f"{view.data.title}  ·  {view.round}  ·  Phase {view.phase}",
        "Acting: "
        + (", ".join(who(a) for a in view.acting) or "—")
        + f"      Bank: {_money(view.bank_cash)}",
    ]
    if view.finished:
        res = ", ".join(
            f"{who(k)} {_money(v)}" for k, v in sorted(view.result.items(), key=lambda kv: -kv[1])
        )
        lines.append("Game over: " + res)
    lines += list(view.notes)

    tables: list[Table] = []
    # players
    rows: list[list[Cell]] = []
    fills: list[theme.RGB | None] = []
    for p in view.players:
        shares = "  ".join(f"{cid} {pct}%" for cid, pct in sorted(p.shares.items()) if pct)
        over = p.cert_count > p.cert_limit
        rows.append(
            [
                Cell(("★ " if p.priority else "") + p.name, bold=True),
                Cell(_money(p.cash)),
                Cell(
                    f"{p.cert_count}/{p.cert_limit}",
                    ink=theme.IMPASSABLE if over else None,
                    bold=over,
                ),
                Cell(shares or "—"),
                Cell(" ".join(p.companies) or "—"),
                Cell(_money(p.value)),
            ]
        )
        fills.append(theme.ACTING_FILL if p.id in acting else None)
    tables.append(
        Table(
            "Players (★ priority deal)",
            ["Player", "Cash", "Certs", "Shares", "Privates", "Value"],
            rows,
            fills,
            {1, 2, 5},
            3,
        )
    )
    # corporations
    rows, fills = [], []
    order = {cid: i for i, cid in enumerate(view.operating_order)}
    corps = sorted(view.corporations, key=lambda c: (c.closed, not c.floated, order.get(c.id, 99)))
    for c in corps:
        col = theme.corp_rgb(c.color)
        muted = c.closed or not c.floated
        ink = theme.GONE_INK if muted else None
        state = "closed" if c.closed else ("" if c.floated else "not floated")
        rows.append(
            [
                Cell(c.id + (" ✓" if c.operated else ""), swatch=col, bold=True, ink=ink),
                Cell(who(c.president) if c.president else state or "—", ink=ink),
                Cell(_money(c.treasury), ink=ink),
                Cell(" ".join(c.trains) or "—", ink=ink),
                Cell(f"{c.tokens_left}/{c.tokens_total}", ink=ink),
                Cell(_money(c.price), ink=ink, bold=not muted),
                Cell(_money(c.par), ink=ink),
                Cell(f"{c.ipo_percent}% / {c.market_percent}%", ink=ink),
                Cell(" ".join(c.companies) or "", ink=ink),
            ]
        )
        fills.append(theme.ACTING_FILL if c.id in acting else None)
    tables.append(
        Table(
            "Corporations (✓ operated this round)",
            [
                "Corp",
                "President",
                "Treasury",
                "Trains",
                "Tokens",
                "Price",
                "Par",
                "IPO / pool",
                "Privates",
            ],
            rows,
            fills,
            {2, 4, 5, 6},
            8,
        )
    )
    # privates
    rows, fills = [], []
    for co in view.companies:
        ink = theme.GONE_INK if co.closed else None
        owner = "closed" if co.closed else who(co.owner)
        rows.append(
            [
                Cell(co.id, bold=True, ink=ink),
                Cell(co.name, ink=ink),
                Cell(_money(co.value), ink=ink),
                Cell(_money(co.revenue), ink=ink),
                Cell(owner, ink=ink),
            ]
        )
        fills.append(None)
    if rows:
        tables.append(
            Table(
                "Private companies",
                ["", "Name", "Value", "Revenue", "Owner"],
                rows,
                fills,
                {2, 3},
                1,
            )
        )
    return lines, tables


def render_status_image(view: GameView, *, size: int = DEFAULT_WIDTH) -> Image.Image:
    scale = size / DEFAULT_WIDTH
    fs = round(22 * scale)
    f, fb = font(fs), font(fs, bold=True)
    fh = font(round(fs * 1.3), bold=True)
    pad = round(16 * scale)
    row_h = round(fs * 1.55)
    lines, tables = _tables(view)

    # measure
    height = pad + len(lines) * round(fs * 1.6) + pad
    train_h = round(fs * 3.2)
    height += row_h + train_h + pad
    for tab in tables:
        widths = _col_widths(tab, f, fb, size - 2 * pad, pad)
        height += row_h * 2 + pad
        height += sum(_row_height(tab, row, widths, f, fb, row_h) for row in tab.rows)
    img = Image.new("RGB", (size, height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)

    y: float = pad
    for i, line in enumerate(lines):
        text(d, (pad, y + fs * 0.8), line, fh if i == 0 else fb, theme.INK, anchor="lm")
        y += round(fs * 1.6)
    y += pad

    # trains
    text(
        d,
        (pad, y + row_h / 2),
        "Trains (bank)  ·  green = next available",
        fb,
        theme.INK,
        anchor="lm",
    )
    y += row_h
    nxt = next((t.name for t in view.trains if t.available and t.left > 0), None)
    x: float = pad
    bw = (size - 2 * pad) / max(1, len(view.trains) + (1 if view.open_market_trains else 0))
    for t in view.trains:
        gone = t.left == 0 or t.rusted_or_obsolete
        fill = (
            theme.NEXT_TRAIN_FILL
            if t.name == nxt
            else ((228, 225, 215) if gone else (255, 255, 255))
        )
        box = (x + 2, y, x + bw - 4, y + train_h)
        d.rounded_rectangle(
            box,
            radius=6,
            fill=fill,
            outline=theme.INK if t.name == nxt else theme.GRID_LINE,
            width=2 if t.name == nxt else 1,
        )
        ink = theme.GONE_INK if gone else theme.INK
        cx = (box[0] + box[2]) / 2
        text(d, (cx, y + train_h * 0.3), t.name, fh, ink)
        left = "∞" if t.left >= 99 else f"×{t.left}"
        text(d, (cx, y + train_h * 0.72), f"{_money(t.price)} {left}", f, ink)
        if t.rusted_or_obsolete:
            d.line((box[0] + 6, box[3] - 6, box[2] - 6, box[1] + 6), fill=theme.IMPASSABLE, width=2)
        x += bw
    if view.open_market_trains:
        box = (x + 2, y, x + bw - 4, y + train_h)
        d.rounded_rectangle(box, radius=6, fill=(255, 255, 255), outline=theme.GRID_LINE)
        cx = (box[0] + box[2]) / 2
        text(d, (cx, y + train_h * 0.3), "pool", fb, theme.INK)
        text(d, (cx, y + train_h * 0.72), " ".join(view.open_market_trains), f, theme.INK)
    y += train_h + pad

    for tab in tables:
        y = _draw_table(d, tab, y, size, pad, row_h, f, fb)
    return img


def _col_widths(t: Table, f: Font, fb: Font, total: float, pad: int) -> list[float]:
    n = len(t.headers)
    w = [fb.getlength(h) + pad for h in t.headers]
    for row in t.rows:
        for i, c in enumerate(row[:n]):
            ff = fb if c.bold else f
            extra = ff.size * 1.1 + 10 if c.swatch else 0
            w[i] = max(w[i], ff.getlength(c.text) + extra + pad)
    flex = t.flex if 0 <= t.flex < n else n - 1
    fixed = sum(x for i, x in enumerate(w) if i != flex)
    w[flex] = max(total * 0.15, total - fixed)
    s = sum(w)
    if s > total:
        w = [x * total / s for x in w]
    return w


def _wrap(s: str, ff: Font, width: float) -> list[str]:
    lines: list[str] = []
    cur = ""
    for word in s.split("  ") if "  " in s else s.split(" "):
        cand = f"{cur}  {word}" if cur else word
        if cur and ff.getlength(cand) > width:
            lines.append(cur)
            cur = word
        else:
            cur = cand
    lines.append(cur)
    return lines


def _row_height(
    t: Table, row: list[Cell], widths: list[float], f: Font, fb: Font, row_h: int
) -> int:
    flex = t.flex if 0 <= t.flex < len(widths) else len(widths) - 1
    if flex >= len(row):
        return row_h
    c = row[flex]
    n = len(_wrap(c.text, fb if c.bold else f, widths[flex] - 16))
    return row_h + round((n - 1) * f.size * 1.2)


def _draw_table(
    d: ImageDraw.ImageDraw, t: Table, y: float, size: int, pad: int, row_h: int, f: Font, fb: Font
) -> float:
    text(d, (pad, y + row_h / 2), t.title, fb, theme.INK, anchor="lm")
    y += row_h
    widths = _col_widths(t, f, fb, size - 2 * pad, pad)
    d.rectangle((pad, y, size - pad, y + row_h), fill=theme.HEADER_FILL)
    x = float(pad)
    for i, h in enumerate(t.headers):
        _cell_text(
            d, Cell(h, bold=True, ink=theme.HEADER_INK), x, y, widths[i], row_h, i in t.right, f, fb
        )
        x += widths[i]
    y += row_h
    flex = t.flex if 0 <= t.flex < len(widths) else len(widths) - 1
    for r, row in enumerate(t.rows):
        fill = (
            t.row_fill[r]
            if r < len(t.row_fill) and t.row_fill[r]
            else (theme.ROW_ALT if r % 2 else None)
        )
        rh = _row_height(t, row, widths, f, fb, row_h)
        if fill:
            d.rectangle((pad, y, size - pad, y + rh), fill=fill)
        x = float(pad)
        for i, c in enumerate(row[: len(widths)]):
            if i == flex and rh > row_h:
                ff = fb if c.bold else f
                for k, line in enumerate(_wrap(c.text, ff, widths[i] - 16)):
                    sub = Cell(line, c.swatch, c.bold, c.ink)
                    _cell_text(d, sub, x, y + k * f.size * 1.2, widths[i], row_h, False, f, fb)
            else:
                _cell_text(d, c, x, y, widths[i], row_h, i in t.right, f, fb)
            x += widths[i]
        y += rh
    return y + pad


def _cell_text(
    d: ImageDraw.ImageDraw,
    c: Cell,
    x: float,
    y: float,
    w: float,
    h: float,
    right: bool,
    f: Font,
    fb: Font,
) -> None:
    ff = fb if c.bold else f
    ink = c.ink or theme.INK
    inner = 8
    cy = y + h / 2
    s = c.text
    avail = w - 2 * inner
    if c.swatch is not None:
        r = ff.size * 0.42
        sx = x + inner + r
        d.ellipse((sx - r, cy - r, sx + r, cy + r), fill=c.swatch, outline=theme.INK)
        x += 2 * r + 6
        avail -= 2 * r + 6
    while s and ff.getlength(s) > avail:
        s = s[:-2] + "…" if len(s) > 2 else ""
    if right:
        text(d, (x + w - inner, cy), s, ff, ink, anchor="rm")
    else:
        text(d, (x + inner, cy), s, ff, ink, anchor="lm")


def render_status(view: GameView, *, size: int = DEFAULT_WIDTH, compress_level: int = 3) -> bytes:
    """PNG bytes of the status sheet.  size: image width in pixels (text scales with it)."""
    return unfiltered_png(render_status_image(view, size=size), compress_level)


__all__: Sequence[str] = ("render_status", "render_status_image")
