"""What the map draws of each hex, apart from the whole image: the hex's art (tile or printed
geometry, tokens, reached destinations, 18MEX double-hex partners), the borders between hexes,
the fill colour of a hex and the coordinates in the margins. render/map.py composes them."""

from __future__ import annotations

from collections.abc import Set

from PIL import ImageDraw

from engine.core.data import Hex, TitleData
from engine.view import GameView, HexState
from render import theme
from render.draw import (
    dashed_line,
    polyline,
    text,
)
from render.fonts import font
from render.hexart import HexArt
from render.layout import HexLayout, Point


def letters(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, rem = divmod(i - 1, 26)
        s = chr(65 + rem) + s
    return s


def reached_destinations(view: GameView) -> set[str]:
    """Corporations whose destination marker is off the map (reached, or closed)."""
    return {c.id for c in view.corporations if c.destination_reached or c.closed}


def corp_colors(view: GameView) -> dict[str, theme.RGB]:
    out: dict[str, theme.RGB] = {}
    for c in list(view.data.corporations) + list(view.data.minors):
        if c.get("color"):
            out[c["id"]] = theme.corp_rgb(c["color"])
    for cv in view.corporations:
        out[cv.id] = theme.corp_rgb(cv.color)
    return out


def double_hex_partners(view: GameView) -> dict[str, HexState]:
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


def hex_art(
    view: GameView,
    h: Hex,
    st: HexState | None,
    colors: dict[str, theme.RGB],
    reached: Set[str] = frozenset(),
) -> HexArt:
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
    dests = tuple(x for n in h.geometry.cities for x in n.destination_of if x not in reached)
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
        name=h.name,
        tile=st.tile if st is not None and st.tile and st.tile in data.tiles else None,
    )


def draw_borders(
    d: ImageDraw.ImageDraw,
    lay: HexLayout,
    data: TitleData,
    states: dict[str, HexState],
    shown: dict[str, list[Point]],
) -> None:
    w = max(3.0, lay.radius * 0.09)
    for h in data.hexes.values():
        if h.name not in shown:
            continue
        c = lay.center(h.x, h.y)
        for b in h.borders:
            e = int(b.get("edge", 0))
            a, z = lay.edge_segment(c, e)
            if b.get("type") == "impassable":
                polyline(d, [a, z], theme.IMPASSABLE, w, caps=True)
            elif b.get("type") == "marker":
                other = data.hexes.get(h.neighbors.get(e, ""))
                if other is not None and other.color != "red" and h.color != "red":
                    # inside a double hex: a light dashed line instead of the hex edge
                    fill = theme.rgb(fill_name(data, h, states))
                    polyline(d, [a, z], fill, max(2.0, lay.radius * 0.05))
                    dashed_line(d, a, z, theme.HEX_OUTLINE, max(1, round(lay.radius / 40)),
                                lay.radius * 0.08, lay.radius * 0.08)


def fill_name(data: TitleData, h: Hex, states: dict[str, HexState]) -> str:
    st = states.get(h.name)
    if st is not None and st.tile and st.tile in data.tiles:
        return data.tiles[st.tile].color
    return h.color


def draw_coordinates(d: ImageDraw.ImageDraw, lay: HexLayout, hexes: list[Hex], margin: int) -> None:
    xs = sorted({h.x for h in hexes})
    ys = sorted({h.y for h in hexes})
    x0, y0, x1, y1 = lay.bounds((h.x, h.y) for h in hexes)
    # the margin follows the image width, so a close-up's large hexes must not push them out
    f = font(max(10, min(round(lay.radius * 0.26), round(margin * 0.8))), bold=True)
    gap = min(lay.radius * 0.3, margin * 0.5)
    for x in xs:
        px = lay.center(x, 0)[0]
        label = str(x + 1)
        text(d, (px, y0 - gap), label, f, theme.COORD_INK, role="coordinate")
        text(d, (px, y1 + gap), label, f, theme.COORD_INK, role="coordinate")
    for y in ys:
        py = lay.center(0, y)[1]
        label = letters(y)
        text(d, (x0 - gap, py), label, f, theme.COORD_INK, role="coordinate")
        text(d, (x1 + gap, py), label, f, theme.COORD_INK, role="coordinate")
