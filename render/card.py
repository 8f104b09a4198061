"""The phone card: what a player reads on a phone, legible in Discord's ~400 px inline preview.

The full status sheet (render.status) is 1200 px wide with nine-column tables, so in a phone
preview its figures are 6 px high, nine columns of them.  The card keeps only:

* the title, round and phase; who acts now and what they may do (or the final scores);
* the bank's cash and the next train for sale;
* per player: cash, certificates against the limit, net worth (★ = priority deal), and the
  time spent on turns when the bot passes the players' clocks;
* per started corporation or minor (floated, or with a president): president, share price,
  treasury, trains and tokens left (✓ = operated this round); the others are named on one line.

It is drawn CARD_WIDTH (800) px wide, twice the preview width like the map close-up, with no
text smaller than MIN_SIZE px (digits at least 7.5 px high in a 400 px preview).  Every text is
fitted to its box (a smaller size down to MIN_SIZE, then an ellipsis); `card_layout` returns the
boxes so tests can check that nothing overflows.

This module owns what goes on the card (its lines, tables and words) and drawing it; the boxes,
text fitting and the table builder are render/cardlayout.py's.

    from render.card import render_card
    png = render_card(game.view())                      # the view's action kinds (view.may)
    png = render_card(view, may=game.legal().kinds)     # or an explicit list of moves
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from engine.view import GameView
from render import theme
from render.cardlayout import (
    BODY,
    CARD_WIDTH,
    SMALL,
    TITLE,
    TURN,
    Builder,
    CardLayout,
    Cell,
    Col,
    Fill,
    Item,
)
from render.draw import draw_deferred, supersampled, text
from render.fonts import font
from render.pngwrite import unfiltered_png

__all__ = ["CARD_WIDTH", "KIND_WORDS", "ROUND_WORDS", "CardLayout", "Item", "card_layout",
           "render_card", "render_card_image"]


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


def _money(v: int | None) -> str:
    if v is None:
        return "—"
    return f"-${-v:,}" if v < 0 else f"${v:,}"


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


def clock_text(seconds: float) -> str:
    """Time on turns, short: 45m, 3h 05m, 2d 4h."""
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes}m"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours}h {minutes:02d}m"
    days, hours = divmod(hours, 24)
    return f"{days}d {hours}h"


def card_layout(
    view: GameView, *, width: int = CARD_WIDTH, may: Sequence[str] | None = None,
    clocks: Mapping[str, float] | None = None,
) -> CardLayout:
    """Where every text, fill and colour chip of the card goes (the card is drawn from this)."""
    b = Builder(width)
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
    cols = [Col("Player", flex=1), Col("Cash", True), Col("Certs", True), Col("Worth", True)]
    if clocks:
        cols.append(Col("Clock", True))
    rows: list[list[Cell]] = []
    fills: list[theme.RGB | None] = []
    for p in view.players:
        over = p.cert_count > p.cert_limit
        row = [
            Cell(("★ " if p.priority else "") + p.name, bold=True),
            Cell(_money(p.cash)),
            Cell(
                f"{p.cert_count}/{p.cert_limit}",
                bold=over,
                ink=theme.IMPASSABLE if over else None,
            ),
            Cell(_money(p.value)),
        ]
        if clocks:
            row.append(Cell(clock_text(clocks[p.id]) if p.id in clocks else "—"))
        rows.append(row)
        fills.append(theme.ACTING_FILL if p.id in acting else None)
    b.table(cols, rows, fills)
    b.y += px(12)

    # started corporations and minors, in operating order
    order = {cid: i for i, cid in enumerate(view.operating_order)}
    presidents = _presidents(view, names)
    started = [c for c in view.corporations if not c.closed and (c.floated or c.president)]
    started.sort(key=lambda c: (not c.floated, order.get(c.id, 99)))
    cols = [
        Col("Corp"),
        Col("President", flex=1),
        Col("Price", True),
        Col("Treasury", True),
        Col("Trains", flex=2),
        Col("Tokens", True),
    ]
    rows, fills = [], []
    for c in started:
        ink = None if c.floated else theme.GONE_INK
        price = _money(c.price) if c.price is not None or c.kind != "minor" else "minor"
        rows.append(
            [
                Cell(
                    c.id + (" ✓" if c.operated else ""),
                    bold=True,
                    ink=ink,
                    swatch=theme.corp_rgb(c.color),
                ),
                Cell(presidents.get(c.id, "—"), ink=ink),
                Cell(price, bold=c.price is not None, ink=ink),
                Cell(_money(c.treasury), ink=ink),
                Cell(" ".join(c.trains) or "—", ink=ink),
                Cell(f"{c.tokens_left}/{c.tokens_total}", ink=ink),
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
    view: GameView, *, width: int = CARD_WIDTH, may: Sequence[str] | None = None,
    clocks: Mapping[str, float] | None = None,
) -> Image.Image:
    lay = card_layout(view, width=width, may=may, clocks=clocks)
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
    # the text pasted from render.draw's kept masks (a game's next card repeats most of it):
    # the pixels Pillow's ImageDraw.text draws (tests/render/test_render_caches.py)
    with supersampled(1) as pending:
        for it in lay.items:
            text(d, it.point, it.text, font(it.size, it.bold), it.ink, anchor=it.anchor,
                 role=it.role)
    draw_deferred(img, pending)
    return img


def render_card(
    view: GameView,
    *,
    width: int = CARD_WIDTH,
    may: Sequence[str] | None = None,
    compress_level: int = 3,
    clocks: Mapping[str, float] | None = None,
) -> bytes:
    """PNG bytes of the phone card.  may: the acting entity's legal action kinds, if known;
    clocks: seconds each player (by id) has spent on turns (a Clock column)."""
    return unfiltered_png(render_card_image(view, width=width, may=may, clocks=clocks),
                          compress_level)

