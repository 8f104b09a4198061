"""The pieces of a track graph (engine/routes/graph.py): one hex's share of it, from its laid
tile (rotated) or its printed geometry: its paths and their ends, nodes, edge ends and lanes,
off-centre towns' stubs, and the hex-edge crossings numbered with it. A piece depends only on
the title's data and the tile laid in the hex, and is cached per title and laid tile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.data import Geometry, Node, TitleData
from engine.routes.types import Board, NodeRef

if TYPE_CHECKING:
    from engine.routes.graph import EP, NodeInfo, PathInfo


def _ep(ep: tuple[str, int], lane: tuple[int, int] | None, rotation: int) -> EP:
    if ep[0] == "edge":
        return ("edge", (ep[1] + rotation) % 6, lane)
    return (ep[0], ep[1], None)


def _geometry(board: Board, hex_name: str) -> tuple[Geometry, int]:
    laid = board.tiles.get(hex_name)
    if laid is None:
        return board.data.hexes[hex_name].geometry, 0
    tile_name, rotation = laid
    tile = board.data.tiles.get(tile_name) or board.data.tile_by_copy_id(tile_name)
    return tile.geometry, rotation % 6


def _lanes_meet(a: tuple[int, int] | None, b: tuple[int, int] | None) -> bool:
    """Whether track on lane `a` of an edge meets track on lane `b` of the facing edge (None:
    a single track, one lane of one). Lane i of n meets lane n-1-i; of different widths, the
    narrower side's lanes sit centred on the wider's (a single track meets lane 1 of 2, as
    on the site: lane 0 of a two-lane edge meets no single track)."""
    (wa, ia), (wb, ib) = sorted((a or (1, 0), b or (1, 0)))
    return ia + (wb - wa) // 2 == wb - 1 - ib


@dataclass(frozen=True, slots=True)
class _Piece:
    """One hex's share of a track graph (its tile or printed geometry, rotated), with path
    and node numbers local to the hex; the same for every board showing that tile there."""

    data: TitleData  # held so that the cache key's id(data) stays this object's
    paths: tuple[tuple[EP, EP, bool], ...]
    ends: tuple[tuple[EP, tuple[int, ...]], ...]  # in the order the paths first reach them
    stubs: tuple[tuple[int, ...], ...]  # per off-centre town: its paths sharing the stub
    nodes: tuple[tuple[NodeRef, Node, bool], ...]  # (ref, node, off-board end)
    edges: tuple[tuple[int, tuple[int, int] | None], ...]  # its edge ends (edge, lane)
    by_edge: dict[int, tuple[tuple[int, int] | None, ...]]  # edge -> lanes of its edge ends
    # its edge ends facing a hex later in the title's hex order: (edge, lane, neighbour, the
    # neighbour's edge); the crossing there is numbered with this hex
    later: tuple[tuple[int, tuple[int, int] | None, str, int], ...]
    # the neighbours' lanes at those edges -> the crossings numbered with this hex, in order
    crossings: dict[tuple[tuple[tuple[int, int] | None, ...] | None, ...],
                    tuple[tuple[tuple[str, int, tuple[int, int] | None], ...], ...]]
    # (first path id, first node id) -> its paths, ends, stubs and nodes numbered from there,
    # its nodes' refs -> ids, and its numbers of paths, nodes and stubs (a graph's parts are
    # never changed once built, so graphs share them)
    placed: dict[tuple[int, int], tuple[tuple[PathInfo, ...], dict[EP, list[int]],
                                        tuple[tuple[int, ...], ...], tuple[NodeInfo, ...],
                                        dict[NodeRef, int], tuple[int, int, int]]]


# id(title data) -> (the data, hex -> the laid (tile, rotation) or None -> its piece)
_PIECES: dict[int, tuple[TitleData, dict[str, dict[tuple[str, int] | None, _Piece]]]] = {}


def _pieces_of(data: TitleData) -> dict[str, dict[tuple[str, int] | None, _Piece]]:
    got = _PIECES.get(id(data))
    if got is None or got[0] is not data:
        if len(_PIECES) > 16:
            _PIECES.clear()
        got = _PIECES[id(data)] = (data, {h: {} for h in data.hexes})
    return got[1]
_ORDER: dict[int, tuple[TitleData, dict[str, int]]] = {}


def _hex_order(data: TitleData) -> dict[str, int]:
    got = _ORDER.get(id(data))
    if got is None or got[0] is not data:
        got = _ORDER[id(data)] = (data, {h: i for i, h in enumerate(data.hexes)})
    return got[1]


def _crossings(piece: _Piece, hex_name: str, sig: tuple[tuple[tuple[int, int] | None, ...] | None, ...]
               ) -> tuple[tuple[tuple[str, int, tuple[int, int] | None], ...], ...]:
    """The crossings numbered with this hex, given the neighbours' lanes at its later edges
    (see `_lanes_meet`)."""
    out = []
    for (edge, lane, nb, facing), lanes in zip(piece.later, sig, strict=True):
        if not lanes:
            continue
        mine = (hex_name, edge, lane)
        for other_lane in lanes:
            if _lanes_meet(lane, other_lane):
                other = (nb, facing, other_lane)
                out.append((mine, other) if hex_name < nb else (other, mine))
    return tuple(out)


def _piece(board: Board, hex_name: str, known: dict[tuple[str, int] | None, _Piece]) -> _Piece:
    """The piece of `hex_name` on `board`; `known`: the hex's pieces made so far, by laid tile."""
    data = board.data
    laid = board.tiles.get(hex_name)
    geom, rot = _geometry(board, hex_name)
    paths: list[tuple[EP, EP, bool]] = []
    ends: dict[EP, list[int]] = {}
    terminal: set[NodeRef] = set()
    for p in geom.paths:
        a = _ep(p.a, p.a_lane, rot)
        b = _ep(p.b, p.b_lane, rot)
        pid = len(paths)
        paths.append((a, b, bool(p.terminal)))
        ends.setdefault(a, []).append(pid)
        ends.setdefault(b, []).append(pid)
        if p.terminal:
            for e in (a, b):
                if e[0] != "edge":
                    terminal.add((hex_name, e[0], e[1]))
    stubs = []
    for town in geom.towns:
        if town.loc is None:
            continue
        own_edge = (town.loc + rot) % 6
        here: EP = ("town", town.index, None)
        stubs.append(tuple(
            pid for pid in ends.get(here, ())
            if any(e[0] == "edge" and e[1] != own_edge for e in (paths[pid][0], paths[pid][1]))))
    hex_offboard = data.hexes[hex_name].kind == "offboard"
    nodes = []
    for node in geom.nodes():
        ref: NodeRef = (hex_name, node.kind, node.index)
        nodes.append((ref, node, node.kind == "offboard" or hex_offboard or ref in terminal))
    edges = tuple((ep[1], ep[2]) for ep in ends if ep[0] == "edge")
    by_edge: dict[int, list[tuple[int, int] | None]] = {}
    for edge, lane in edges:
        by_edge.setdefault(edge, []).append(lane)
    order = _hex_order(data)
    here_at = order[hex_name]
    neighbors = data.hexes[hex_name].neighbors
    later = tuple((edge, lane, nb, (edge + 3) % 6) for edge, lane in edges
                  for nb in [neighbors.get(edge)] if nb is not None and order.get(nb, -1) > here_at)
    got = _Piece(data, tuple(paths), tuple((ep, tuple(pids)) for ep, pids in ends.items()),
                 tuple(stubs), tuple(nodes), edges, {e: tuple(v) for e, v in by_edge.items()},
                 later, {}, {})
    if len(known) > 256:
        known.clear()
    known[laid] = got
    return got
