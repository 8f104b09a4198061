"""The map image: every hex of the title, printed or tiled, with tokens and the last move."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.core.data import Hex, TitleData
from engine.view import GameView, HexState
from render import theme
from render.draw import dashed_line, text, to_png
from render.fonts import font
from render.hexart import HexArt, draw_hex, draw_location
from render.layout import HexLayout, Point, fit_layout

DEFAULT_WIDTH = 1600


@dataclass(frozen=True, slots=True)
class MapGeometry:
    """Where things are on a rendered map (returned by map_layout; used by tests and the bot)."""

    layout: HexLayout
    width: int
    height: int
    header: int  # pixels above the map used by the title line

    def hex_center(self, data: TitleData, name: str) -> Point:
        h = data.hexes[name]
        return self.layout.center(h.x, h.y)


def _margin(width: int) -> int:
    return max(24, round(width * 0.025))


def map_layout(data: TitleData, size: int = DEFAULT_WIDTH) -> MapGeometry:
    """The pixel layout used by render_map for this title at this width."""
    margin = _margin(size)
    header = round(margin * 1.8)
    cells = [(h.x, h.y) for h in data.hexes.values()]
    lay = fit_layout(data.layout, cells, size, margin)
    lay = HexLayout(lay.orientation, lay.radius, (lay.origin[0], lay.origin[1] + header))
    _, _, _, y1 = lay.bounds(cells)
    return MapGeometry(lay, size, round(y1 + margin), header)


def _letters(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(65 + rem) + s
    return s


def _corp_colors(view: GameView) -> dict[str, theme.RGB]:
    out: dict[str, theme.RGB] = {}
    for c in list(view.data.corporations) + list(view.data.minors):
        if c.get("color"):
            out[c["id"]] = theme.corp_rgb(c["color"])
    for cv in view.corporations:
        out[cv.id] = theme.corp_rgb(cv.color)
    return out


def _double_hex_partners(view: GameView) -> dict[str, HexState]:
    """18MEX: a double-hex piece implies its partner; add it if the view only has one half."""
    extra: dict[str, HexState] = {}
    for st in view.hexes.values():
        if not st.tile or st.tile not in view.data.tiles:
            continue
        dh = view.data.tiles[st.tile].extra.get("double_hex")
        if not isinstance(dh, dict) or "pair" not in dh:
            continue
        pair = str(dh["pair"])
        ptile = view.data.tiles.get(pair)
        if ptile is None:
            continue
        pdh = ptile.extra.get("double_hex") or {}
        phex = str(pdh.get("hex", ""))
        if phex and phex not in view.hexes:
            extra[phex] = HexState(phex, pair, int(pdh.get("rotation", 0)))
    return extra


def _art(view: GameView, h: Hex, st: HexState | None, colors: dict[str, theme.RGB]) -> HexArt:
    data = view.data
    phase_names = tuple(str(p["name"]) for p in data.phases)
    if st is not None and st.tile and st.tile in data.tiles:
        tile = data.tiles[st.tile]
        geom, rot, fill, printed = tile.geometry, st.rotation, theme.rgb(tile.color), False
        kind = "tile"
        labels = geom.labels
        future: tuple[str, ...] = ()
        after = h.extra.get("future_labels_after_brown")
        if tile.color == "brown" and isinstance(after, dict) and after.get("label"):
            future = (str(after["label"]),)
    else:
        geom, rot, printed, kind = h.geometry, 0, True, h.kind
        fill = theme.BLOCKED_FILL if h.kind == "blocked" else theme.rgb(h.color)
        labels = geom.labels
        future = (str(h.future_label["label"]),) if h.future_label else ()
    if st is not None and (st.tokens or st.reserved or st.tile):
        tokens, reserved = st.tokens, st.reserved
    else:
        tokens = ()
        reserved = tuple(n.reserved_for for n in geom.cities)
    dests = tuple(x for n in h.geometry.cities for x in n.destination_of)
    return HexArt(
        fill=fill,
        geometry=geom,
        rotation=rot,
        kind=kind,
        printed=printed,
        tokens=tokens,
        reserved=reserved,
        destinations=dests,
        markers=st.markers if st is not None else (),
        labels=labels,
        future_labels=future,
        location=h.location,
        terrain_cost=h.terrain_cost,
        terrain_types=h.terrain_types,
        partitions=tuple(h.extra.get("partitions") or ()),
        icons=tuple(str(i.get("image", "")) for i in h.extra.get("icons") or ()),
        phase=view.phase,
        phase_names=phase_names,
        corp_colors=colors,
    )


def render_map_image(
    view: GameView,
    *,
    size: int = DEFAULT_WIDTH,
    highlight_last: bool = True,
    emphasise: Iterable[str] = (),
    coordinates: bool = True,
    header: bool = True,
) -> Image.Image:
    """The map as a Pillow image (see render_map)."""
    data = view.data
    geo = map_layout(data, size)
    lay = geo.layout
    img = Image.new("RGB", (geo.width, geo.height), theme.BACKGROUND)
    d = ImageDraw.Draw(img)
    colors = _corp_colors(view)
    states = dict(view.hexes)
    for k, v in _double_hex_partners(view).items():
        states.setdefault(k, v)

    polys: dict[str, list[Point]] = {}
    arts: list[tuple[Point, HexArt]] = []
    for name, h in data.hexes.items():
        c = lay.center(h.x, h.y)
        art = _art(view, h, states.get(name), colors)
        poly = lay.polygon(c)
        polys[name] = poly
        d.polygon(poly, fill=art.fill)
        draw_hex(d, lay, c, art)
        arts.append((c, art))

    ow = max(1, round(lay.radius * 0.025))
    for poly in polys.values():
        d.polygon(poly, outline=theme.HEX_OUTLINE, width=ow)
    _borders(d, lay, data, states)
    for c, art in arts:
        draw_location(d, lay, c, art)

    if coordinates:
        _coordinates(d, lay, data)
    if header:
        title = f"{data.title}  ·  {view.round}  ·  Phase {view.phase}"
        f = font(round(geo.header * 0.45), bold=True)
        text(d, (_margin(size), geo.header * 0.45), title, f, theme.INK, anchor="lm")

    hw = max(3, round(lay.radius * 0.09))
    for name in emphasise:
        if name in polys:
            d.polygon(polys[name], outline=(30, 110, 230), width=hw)
    if highlight_last:
        for name in view.last_hexes:
            if name in polys:
                d.polygon(polys[name], outline=theme.HIGHLIGHT, width=hw)
    return img


def render_map(
    view: GameView,
    *,
    size: int = DEFAULT_WIDTH,
    highlight_last: bool = True,
    emphasise: Iterable[str] = (),
    coordinates: bool = True,
    header: bool = True,
    compress_level: int = 3,
) -> bytes:
    """PNG bytes of the map.

    size: image width in pixels (the height follows the map's shape).
    highlight_last: outline view.last_hexes (the last action) in magenta.
    emphasise: more hex names to outline in blue (e.g. a route or the hexes a command names).
    coordinates: letters and numbers along the border.  header: the title / round / phase line.
    """
    img = render_map_image(
        view,
        size=size,
        highlight_last=highlight_last,
        emphasise=emphasise,
        coordinates=coordinates,
        header=header,
    )
    return to_png(img, compress_level)


def _borders(
    d: ImageDraw.ImageDraw, lay: HexLayout, data: TitleData, states: dict[str, HexState]
) -> None:
    w = max(3, round(lay.radius * 0.09))
    for h in data.hexes.values():
        c = lay.center(h.x, h.y)
        for b in h.borders:
            e = int(b.get("edge", 0))
            a, z = lay.edge_segment(c, e)
            if b.get("type") == "impassable":
                d.line([a, z], fill=theme.IMPASSABLE, width=w)
            elif b.get("type") == "marker":
                other = data.hexes.get(h.neighbors.get(e, ""))
                if other is not None and other.color != "red" and h.color != "red":
                    # inside a double hex: a light dashed line instead of the hex edge
                    fill = theme.rgb(_fill_name(data, h, states))
                    d.line([a, z], fill=fill, width=max(2, round(lay.radius * 0.05)))
                    dashed_line(d, a, z, theme.HEX_OUTLINE, 1, lay.radius * 0.08, lay.radius * 0.08)


def _fill_name(data: TitleData, h: Hex, states: dict[str, HexState]) -> str:
    st = states.get(h.name)
    if st is not None and st.tile and st.tile in data.tiles:
        return data.tiles[st.tile].color
    return h.color


def _coordinates(d: ImageDraw.ImageDraw, lay: HexLayout, data: TitleData) -> None:
    xs = sorted({h.x for h in data.hexes.values()})
    ys = sorted({h.y for h in data.hexes.values()})
    x0, y0, x1, y1 = lay.bounds((h.x, h.y) for h in data.hexes.values())
    f = font(max(10, round(lay.radius * 0.26)), bold=True)
    gap = lay.radius * 0.3
    for x in xs:
        px = lay.center(x, 0)[0]
        label = str(x + 1)
        text(d, (px, y0 - gap), label, f, theme.COORD_INK)
        text(d, (px, y1 + gap), label, f, theme.COORD_INK)
    for y in ys:
        py = lay.center(0, y)[1]
        label = _letters(y)
        text(d, (x0 - gap, py), label, f, theme.COORD_INK)
        text(d, (x1 + gap, py), label, f, theme.COORD_INK)
