"""The stock market image: the real (uneven) grid, zones with a legend, markers in stack order."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.core.data import TitleData
from engine.view import GameView
from render import theme
from render.draw import fit_font_size, recording_text, text
from render.fonts import font
from render.pngwrite import unfiltered_png

DEFAULT_WIDTH = 1400
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class MarketGeometry:
    """Pixel positions of the market grid (returned by market_layout)."""

    width: int
    height: int
    origin: tuple[float, float]
    cell_w: float
    cell_h: float
    row_lengths: tuple[int, ...]
    legend_top: float

    def cell_box(self, row: int, col: int) -> Box:
        x = self.origin[0] + col * self.cell_w
        y = self.origin[1] + row * self.cell_h
        return (x, y, x + self.cell_w, y + self.cell_h)

    def chip_box(self, row: int, col: int, index: int, count: int) -> Box:
        """Where the index-th marker of a stack of `count` is drawn (0 = operates first, top)."""
        x0, y0, x1, y1 = self.cell_box(row, col)
        top = y0 + self.cell_h * 0.4
        avail = y1 - 3 - top
        h = min(self.cell_h * 0.3, avail / max(1, count))
        pad = self.cell_w * 0.05
        return (x0 + pad, top + index * h, x1 - pad, top + (index + 1) * h - 1)


def cell_types(data: TitleData) -> dict[tuple[int, int], tuple[str, ...]]:
    out: dict[tuple[int, int], tuple[str, ...]] = {}
    for key, types in data.market.get("cells", {}).items():
        _, row, col = (int(x) for x in key.split(","))
        out[(row, col)] = tuple(types)
    for p in data.market.get("par_cells", ()):
        cell = (int(p["row"]), int(p["col"]))
        if "par" not in out.get(cell, ()):
            out[cell] = out.get(cell, ()) + ("par",)
    return out


def _zone_of(types: tuple[str, ...]) -> str:
    for t in types:
        if t != "par" and t in theme.ZONE_FILL:
            return t
    return ""


def market_layout(data: TitleData, size: int = DEFAULT_WIDTH) -> MarketGeometry:
    rows = tuple(int(n) for n in data.market["row_lengths"])
    margin = max(16, round(size * 0.02))
    cols = max(rows)
    cw = (size - 2 * margin) / cols
    ch = cw * 1.3
    header = round(margin * 2.2)
    legend_top = header + ch * len(rows) + margin
    zones = {_zone_of(t) for t in cell_types(data).values()} | {"par"}
    legend_rows = (len(zones) + 1) // 2
    height = round(legend_top + legend_rows * cw * 0.55 + margin)
    return MarketGeometry(size, height, (margin, header), cw, ch, rows, legend_top)


def render_market_image(view: GameView, *, size: int = DEFAULT_WIDTH) -> Image.Image:
    data = view.data
    geo = market_layout(data, size)
    img = _grid(data, size, geo).copy()
    d = ImageDraw.Draw(img)
    colors = {
        c["id"]: theme.corp_rgb(c["color"])
        for c in data.corporations + data.minors
        if c.get("color")
    }
    for cv in view.corporations:
        colors[cv.id] = theme.corp_rgb(cv.color)
    for (row, col), stack in view.market.items():
        for i, cid in enumerate(stack):
            _chip(d, geo.chip_box(row, col, i, len(stack)), cid, colors.get(cid, theme.MUTED))
    return img


# the drawn grids (title, zones, prices, par frames, legend: all from the title data) by
# (data, width), the least recently used dropped beyond GRIDS_BUDGET bytes (Pillow holds an RGB
# pixel in 4 bytes: a 1400 px wide grid is 4.7 MB for 18MS, 6.6 MB for 1870)
_GRIDS: OrderedDict[tuple[int, int], tuple[TitleData, Image.Image]] = OrderedDict()
GRIDS_BUDGET = 24 << 20


def _grid_bytes(img: Image.Image) -> int:
    return img.width * img.height * 4


def _grid(data: TitleData, size: int, geo: MarketGeometry) -> Image.Image:
    """The market without its markers (kept: never drawn on, copied for each image; drawn
    afresh while text is recorded, so that the prices are recorded too)."""
    if recording_text():
        return _draw_grid(data, geo)
    key = (id(data), size)
    got = _GRIDS.get(key)
    if got is not None and got[0] is data:
        _GRIDS.move_to_end(key)
        return got[1]
    img = _draw_grid(data, geo)
    _GRIDS[key] = (data, img)
    while len(_GRIDS) > 1 and sum(_grid_bytes(g) for _, g in _GRIDS.values()) > GRIDS_BUDGET:
        _GRIDS.popitem(last=False)
    return img


def _draw_grid(data: TitleData, geo: MarketGeometry) -> Image.Image:
    img = Image.new("RGB", (geo.width, geo.height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    prices = data.market["grid_prices"]
    types = cell_types(data)
    margin = geo.origin[0]
    text(
        d,
        (margin, geo.origin[1] * 0.45),
        f"{data.title}  ·  Stock market",
        font(round(geo.origin[1] * 0.42), True),
        theme.INK,
        anchor="lm",
    )

    # prices as wide as the cell allows: 1870's 21 columns are ~18 px each in a phone preview
    fprice = font(price_font_size(geo, prices), bold=True)
    par_cells = []
    for row, n in enumerate(geo.row_lengths):
        for col in range(n):
            box = geo.cell_box(row, col)
            t = types.get((row, col), ())
            fill = theme.ZONE_FILL[_zone_of(t)]
            d.rectangle(box, fill=fill, outline=theme.GRID_LINE, width=1)
            price = prices[row][col] if col < len(prices[row]) else None
            if price is not None:
                text(
                    d,
                    ((box[0] + box[2]) / 2, box[1] + geo.cell_h * 0.2),
                    str(price),
                    fprice,
                    theme.text_on(fill),
                    role="price",
                )
            if "par" in t:
                par_cells.append(box)
    pw = max(3, round(geo.cell_w * 0.07))
    for box in par_cells:
        d.rectangle(
            (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), outline=theme.PAR_OUTLINE, width=pw
        )
    _legend(d, geo, {_zone_of(t) for t in types.values()})
    return img


def price_font_size(geo: MarketGeometry, prices: list[list[int | None]]) -> int:
    """The price font size: the widest price fills 92 % of a cell and 36 % of its height."""
    widest = max((str(p) for row in prices for p in row if p is not None), key=len, default="0")
    return fit_font_size(widest, geo.cell_w * 0.92, round(geo.cell_h * 0.36), True)


def render_market(view: GameView, *, size: int = DEFAULT_WIDTH, compress_level: int = 3) -> bytes:
    """PNG bytes of the stock market.

    size: image width in pixels.  Each corporation is a chip in its colour with its short name;
    a stack lists the corporation that operates first at the top.  Par cells have a red frame.
    """
    return unfiltered_png(render_market_image(view, size=size), compress_level)


def _chip(
    d: ImageDraw.ImageDraw, box: tuple[float, float, float, float], cid: str, color: theme.RGB
) -> None:
    h = box[3] - box[1]
    d.rounded_rectangle(box, radius=max(1, h * 0.3), fill=color, outline=theme.INK, width=1)
    size = fit_font_size(cid, (box[2] - box[0]) * 0.9, round(h * 0.78), True, minimum=6)
    text(
        d,
        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2),
        cid,
        font(size, bold=True),
        theme.text_on(color),
        role="chip",
    )


def _legend(d: ImageDraw.ImageDraw, geo: MarketGeometry, zones: set[str]) -> None:
    order = ["", "par", "no_cert_limit", "unlimited", "multiple_buy", "ledge", "close", "endgame"]
    items = [z for z in order if z in zones or z == "par"] + sorted(
        z for z in zones if z not in order
    )
    sw = geo.cell_w * 0.5
    lh = geo.cell_w * 0.55
    f = font(round(lh * 0.45))
    col_w = (geo.width - 2 * geo.origin[0]) / 2
    for i, z in enumerate(items):
        x = geo.origin[0] + (i % 2) * col_w
        y = geo.legend_top + (i // 2) * lh
        box = (x, y + lh * 0.15, x + sw, y + lh * 0.85)
        if z == "par":
            d.rectangle(
                box,
                fill=theme.ZONE_FILL[""],
                outline=theme.PAR_OUTLINE,
                width=max(2, round(sw * 0.1)),
            )
        else:
            d.rectangle(
                box, fill=theme.ZONE_FILL.get(z, theme.ZONE_FILL[""]), outline=theme.GRID_LINE
            )
        label = theme.ZONE_TEXT.get(z, z.replace("_", " "))
        text(d, (x + sw + 8, y + lh / 2), label, f, theme.INK, anchor="lm")
