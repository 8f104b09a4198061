"""Tile lays and upgrades: colour order, preserved track, legal exits, tile supply."""

from __future__ import annotations

from engine.core.data import Geometry, Hex, Tile, TitleData
from engine.state import PlacedTile, State

COLOR_ORDER = ("white", "yellow", "green", "brown", "gray")


def current_geometry(data: TitleData, state: State, hex_name: str) -> tuple[Geometry, int, str]:
    """(geometry, rotation, colour) of what is on a hex now."""
    placed = state.tiles.get(hex_name)
    if placed is not None:
        tile = data.tiles[placed.tile]
        return tile.geometry, placed.rotation, tile.color
    h = data.hexes[hex_name]
    color = h.color if h.kind in ("preprinted", "gray", "offboard", "red_track") else "white"
    if h.kind == "preprinted":
        color = h.color
    return h.geometry, 0, color


def _path_keys(geo: Geometry, rotation: int) -> set[frozenset[tuple[str, int]]]:
    keys = set()
    for p in geo.paths:
        a = ("edge", (p.a[1] + rotation) % 6) if p.a[0] == "edge" else (p.a[0], -1)
        b = ("edge", (p.b[1] + rotation) % 6) if p.b[0] == "edge" else (p.b[0], -1)
        keys.add(frozenset((a, b)))
    return keys


def _look(geo: Geometry, rotation: int) -> frozenset[object]:
    """What a tile laid in `rotation` looks like: its track by edge and node (with the node's
    index, so that tokens keep their place), lanes, and where off-centre towns sit."""
    track = frozenset(frozenset(((p.rotated(rotation).a, p.a_lane), (p.rotated(rotation).b,
                                                                       p.b_lane)))
                      for p in geo.paths)
    locs = frozenset((n.kind, n.index, (n.loc + rotation) % 6)
                     for n in geo.nodes() if n.loc is not None)
    return frozenset((track, locs))


def distinct_rotations(geo: Geometry, rotations: list[int]) -> list[int]:
    """The first of each group of `rotations` that lay the same track (a symmetric tile: the
    straight's 0 and 3): what a player needs to choose from. Every rotation of `rotations`
    stays a legal lay."""
    seen: set[frozenset[object]] = set()
    out = []
    for r in rotations:
        look = _look(geo, r)
        if look not in seen:
            seen.add(look)
            out.append(r)
    return out


def preserves_track(old: Geometry, old_rot: int, new: Geometry, new_rot: int) -> bool:
    """Every old path (by edge numbers and node kinds) is still present after the upgrade."""
    return _path_keys(old, old_rot) <= _path_keys(new, new_rot)


def lay_error(
    data: TitleData,
    state: State,
    hex_name: str,
    tile: Tile,
    rotation: int,
    colors_allowed: tuple[str, ...],
) -> str | None:
    """Why this tile may not go on this hex in this rotation (None = it may)."""
    h: Hex | None = data.hexes.get(hex_name)
    if h is None:
        return f"There is no hex {hex_name} on this map."
    if not h.tileable:
        where = f" ({h.location})" if h.location else ""
        return f"No tile may be laid on {hex_name}{where}."
    if tile.color not in colors_allowed:
        return f"{tile.color.capitalize()} tiles are not available in this phase."
    old_geo, old_rot, old_color = current_geometry(data, state, hex_name)
    if COLOR_ORDER.index(tile.color) != COLOR_ORDER.index(old_color) + 1:
        if old_color == "white":
            return f"{hex_name} is empty: only a yellow tile may be laid there."
        if old_color == COLOR_ORDER[-1]:
            return f"The {old_color} tile on {hex_name} cannot be upgraded."
        return f"A {old_color} tile can only be upgraded to {COLOR_ORDER[COLOR_ORDER.index(old_color) + 1]}."
    allowed = h.possible_tiles.get(tile.color, {})
    if tile.name not in allowed:
        return f"Tile {tile.name} may not be laid on {hex_name}."
    exits = tile.geometry.exits(rotation)
    if not exits <= h.passable_edges:
        return f"Tile {tile.name} at rotation {rotation} would run track off the map or into a blank side."
    if (old_color != "white" or old_geo.paths) and not preserves_track(
        old_geo, old_rot, tile.geometry, rotation
    ):
        return f"Tile {tile.name} at rotation {rotation} does not keep the existing track of {hex_name}."
    if rotation not in allowed[tile.name]:
        return f"Tile {tile.name} may not be laid on {hex_name} at rotation {rotation}."
    return None


def take_tile(state: State, data: TitleData, copy_id: str) -> tuple[Tile, str] | None:
    """Find the tile of a copy id and a free copy of it (the named one if free)."""
    name = copy_id.rsplit("-", 1)[0] if "-" in copy_id else copy_id
    tile = data.tiles.get(name)
    if tile is None:
        return None
    free = state.tile_supply.get(name, [])
    if copy_id in free:
        return tile, copy_id
    if free:
        return tile, free[0]
    return tile, ""


def copy_error(state: State, data: TitleData, copy_id: str) -> str | None:
    """Why a lay may not name this copy: a lay names the copy it lays, and that copy must be
    in the supply (the site refuses a copy it does not have, or one already on the map)."""
    name, _, num = copy_id.rpartition("-")
    tile = data.tiles.get(name)
    if tile is None or not num.isdigit() or copy_id in state.tile_supply.get(name, []):
        return None
    if copy_id not in tile.copy_ids:
        return f"There is no tile {copy_id}: #{name} has {len(tile.copy_ids)} copies ({', '.join(tile.copy_ids)})."
    where = next((h for h, p in state.tiles.items() if p.copy_id == copy_id), None)
    if where is not None:
        return f"Tile {copy_id} is already on {where}: name a free copy of #{name}."
    return None


def place_tile(state: State, data: TitleData, hex_name: str, tile: Tile, copy_id: str, rotation: int) -> PlacedTile | None:
    """Put the tile on the hex; the old tile goes back to the supply. Returns the old one."""
    old = state.tiles.get(hex_name)
    if old is not None:
        state.tile_supply.setdefault(old.tile, []).append(old.copy_id)
        state.tile_supply[old.tile].sort(key=lambda c: int(c.rsplit("-", 1)[1]))
    state.tile_supply[tile.name].remove(copy_id)
    state.tiles[hex_name] = PlacedTile(tile.name, copy_id, rotation)
    return old
