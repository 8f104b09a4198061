"""The track graph of a Board, built from per-hex pieces (pieces.py); a corporation's reach over it
is in reach.py.

Nodes are the cities, towns and off-boards of every hex (its laid tile, or the printed
geometry). Track is the tile paths; two hexes are joined where a path ends on edge e of one
and a path ends on edge (e+3)%6 of the other (18MEX lanes: lane i of n meets lane n-1-i; a
single track meets lane 1 of 2, see `_lanes_meet`).

For routes the graph is summarised as *links*: maximal runs of track from one node to another
that pass through no node. Each link carries a bitmask of the track resources it uses (one
bit per tile path, one bit per hex-edge crossing, one bit per off-centre town's stub), so "no
track used twice" is `a & b == 0`.

An off-centre town (a node with `loc`, e.g. 18MEX's Copper Canyon tile) sits by one edge of its
tile; track from any other edge reaches it on one shared stub, as on the site: the paths from
those edges to the town all carry the stub's bit, so a route cannot come in on one of them and
leave on another, nor can two routes both use it.

The graph depends only on the laid tiles and is cached per tile layout; tokens are applied at
traversal time (reachability, routes).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from engine.core.data import Node, TitleData
from engine.routes.pieces import _crossings, _hex_order, _lanes_meet, _Piece, _piece, _pieces_of
from engine.routes.types import Board, NodeRef

# An endpoint inside one hex: ("edge", e, lane) with lane (count, index) or None,
# or (kind, node index, None) for a city/town/off-board.
EP = tuple[str, int, tuple[int, int] | None]

_NODE_KINDS = ("city", "town", "offboard")


@dataclass(frozen=True, slots=True)
class NodeInfo:
    id: int
    ref: NodeRef  # (hex, kind, index)
    node: Node
    # an off-board end: an off-board node, a node on a red off-board hex, or a node reached
    # only by terminal paths. Routes may not pass through it (unless its hex is pass-through).
    offboard: bool

    @property
    def hex(self) -> str:
        return self.ref[0]

    @property
    def kind(self) -> str:
        return self.ref[1]


@dataclass(frozen=True, slots=True)
class PathInfo:
    id: int  # also its resource bit index
    hex: str
    a: EP
    b: EP
    terminal: bool = False  # an off-board's path: the walk does not go on through its node


@dataclass(frozen=True, slots=True)
class Link:
    """A run of track from node `a` to node `b` passing through no other node."""

    a: int
    b: int
    mask: int  # track resources used (tile paths + hex-edge crossings)
    chain: tuple[str, ...]  # hexes crossed, both ends included (one entry if inside one hex)


@dataclass(frozen=True, slots=True)
class _PathStep:
    """One path as the reach walk steps along it."""

    marks: tuple[tuple[str, int, tuple[int, int] | None], ...]  # its edge ends (hex, edge, lane)
    edges: tuple[tuple[str, int], ...]  # the hex edges it touches, and the facing ones
    nodes: tuple[int, ...]  # the nodes on it
    terminal: bool
    # per edge end with a neighbour: (edge, its mark, whether several paths of the tile leave
    # by that edge, the neighbour's paths entered there with their entry edge)
    exits: tuple[tuple[int, tuple[str, int, tuple[int, int] | None], bool, tuple[tuple[int, int], ...]], ...]


@dataclass(slots=True)
class TrackGraph:
    data: TitleData
    nodes: list[NodeInfo] = field(default_factory=list)
    node_ids: dict[NodeRef, int] = field(default_factory=dict)
    paths: list[PathInfo] = field(default_factory=list)
    # hex -> endpoint -> ids of the paths ending there
    ends: dict[str, dict[EP, list[int]]] = field(default_factory=dict)
    # the links from each node (made per node on first use: a reach walk needs none, scoring a
    # logged route only those from its chains' first hexes)
    _links_from: list[list[Link] | None] | None = None
    # chain of hexes -> links whose chain is exactly that (in that direction)
    _by_chain: dict[tuple[str, ...], list[Link]] | None = None
    # chain -> the links along it, made without the whole index (see `along`)
    _along: dict[tuple[str, ...], list[Link]] | None = None
    # per path, what the reach walk needs (made on first use, see `_walk_table`)
    walk_table: list[_PathStep | None] | None = None
    # the resource bits of the links' masks, numbered on first use (a reach walk needs none):
    # hex-edge crossing -> its bit number; path id -> the extra bits it uses (an off-centre
    # town's shared stub); the number of bits
    _bits: tuple[dict[tuple[tuple[str, int, tuple[int, int] | None], ...], int], dict[int, int], int] | None = None
    _path_nodes: list[tuple[int, ...]] | None = None
    # node -> the paths with another node on them (made on first use, see reach.reaches_two_nodes)
    beyond: dict[int, frozenset[int]] = field(default_factory=dict)
    # hex -> its numbered part (shared with other graphs where the hex and its numbering agree).
    # `placed`, `ends` and `pieces` leave out the hexes with neither track nor a node (an empty
    # hex has no part in any walk; most of a board's hexes early in a game)
    placed: dict[str, Any] = field(default_factory=dict)
    # what the next graph of the title reuses (see `_build`): the laid tiles built for, the
    # pieces and stubs, and per hex with a part (the entries of `placed`, `ends`, `pieces`, in
    # the same order) its place in the title's hex order and the numbers of paths, nodes and
    # stubs before it
    tiles: frozenset[tuple[str, tuple[str, int]]] = frozenset()
    pieces: dict[str, _Piece] = field(default_factory=dict)
    stubs: list[tuple[int, ...]] = field(default_factory=list)
    part_order: list[int] = field(default_factory=list)
    part_starts: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def path_nodes(self) -> list[tuple[int, ...]]:
        """Per path, the nodes at its ends (as the reach walk reaches them)."""
        if self._path_nodes is None:
            self._path_nodes = [
                tuple(nid for ep in (p.a, p.b) if ep[0] != "edge"
                      for nid in [self.node_ids.get((p.hex, ep[0], ep[1]))] if nid is not None)
                for p in self.paths]
        return self._path_nodes

    @property
    def crossing_bits(self) -> dict[tuple[tuple[str, int, tuple[int, int] | None], ...], int]:
        return (self._bits or _number_bits(self))[0]

    @property
    def path_bits(self) -> dict[int, int]:
        return (self._bits or _number_bits(self))[1]

    @property
    def nbits(self) -> int:
        return (self._bits or _number_bits(self))[2]

    @property
    def links_from(self) -> list[list[Link]]:
        return [self.links_of(info.id) for info in self.nodes]

    def links_of(self, node_id: int) -> list[Link]:
        """The links from one node (made on first use)."""
        if self._links_from is None:
            self._links_from = [None] * len(self.nodes)
        links = self._links_from[node_id]
        if links is None:
            links = self._links_from[node_id] = _links_from_node(self, self.nodes[node_id])
        return links

    @property
    def by_chain(self) -> dict[tuple[str, ...], list[Link]]:
        if self._by_chain is None:
            self._by_chain = {}
            for links in self.links_from:
                for link in links:
                    self._by_chain.setdefault(link.chain, []).append(link)
        return self._by_chain

    def along(self, chain: tuple[str, ...]) -> list[Link]:
        """by_chain.get(chain, []): the links whose chain is exactly `chain`, in the same order,
        made only from the nodes of its first hex when the whole index is not made yet (a
        link's chain starts at its first node's hex)."""
        if self._by_chain is not None:
            return self._by_chain.get(chain, [])
        if not chain:
            return []
        if self._along is None:
            self._along = {}
        got = self._along.get(chain)
        if got is None:
            got = self._along[chain] = [lk for info in self.hex_nodes(chain[0])
                                        for lk in _links_from_node(self, info, chain)]
        return got

    def hex_nodes(self, hex_name: str) -> tuple[NodeInfo, ...]:
        """The nodes of one hex, in id order."""
        placed = self.placed.get(hex_name)
        return placed[3] if placed is not None else ()

    def hex_paths(self, hex_name: str) -> tuple[PathInfo, ...]:
        """The paths of one hex, in id order (as `[p for p in paths if p.hex == hex_name]`)."""
        placed = self.placed.get(hex_name)
        return placed[0] if placed is not None else ()

    def node(self, ref: NodeRef) -> NodeInfo:
        return self.nodes[self.node_ids[ref]]

    def name(self, node_id: int) -> str:
        """A node in player words: 'Memphis (A1)', 'the town in I1', 'K6'."""
        info = self.nodes[node_id]
        h = self.data.hexes.get(info.hex)
        loc = h.location if h is not None and h.location else None
        base = f"{loc} ({info.hex})" if loc else info.hex
        if info.kind == "town" and any(
            n.ref[0] == info.hex and n.kind != "town" for n in self.nodes
        ):
            return f"the town in {base}"
        return base


def _build(board: Board, tiles_key: frozenset[tuple[str, tuple[str, int]]],
           prev: TrackGraph | None = None) -> TrackGraph:
    """The graph, hex by hex in the title's hex order (paths and nodes numbered in that order;
    the other resource bits are numbered when first asked for, see `_number_bits`).
    `prev`, a graph of the same title: the hexes before the first one whose tile differs are
    numbered as there, so its parts for them are taken as they are."""
    data = board.data
    g = TrackGraph(data=data, tiles=tiles_key)
    known = _pieces_of(data)
    items = _hex_items(data, known)
    walk: Iterable[int] = range(len(items))  # the hexes (places in the hex order) to number
    if prev is not None and prev.data is data and len(prev.node_ids) == len(prev.nodes):
        order = _hex_order(data)
        changed = sorted({order.get(h, 0) for h, _ in tiles_key ^ prev.tiles})
        # the parts of the hexes before the first changed one are taken as they are
        k = bisect_left(prev.part_order, changed[0]) if changed else len(prev.part_order)
        p0, n0, s0 = (prev.part_starts[k] if k < len(prev.part_order)
                      else (len(prev.paths), len(prev.nodes), len(prev.stubs)))
        g.paths, g.nodes, g.stubs = prev.paths[:p0], prev.nodes[:n0], prev.stubs[:s0]
        # the hex-keyed dicts: copied whole (a copy of a whole dict is cheap), then the entries
        # of the later parts taken out (they are put back below in the same order: the dicts'
        # order stays the hex order of the parts)
        g.node_ids, g.ends = prev.node_ids.copy(), prev.ends.copy()
        g.placed, g.pieces = prev.placed.copy(), prev.pieces.copy()
        node_ids, ends, placed_of, pieces_of = g.node_ids, g.ends, g.placed, g.pieces
        for info in islice(prev.nodes, n0, None):
            del node_ids[info.ref]
        for i in islice(prev.part_order, k, None):
            h = items[i][0]
            del ends[h], placed_of[h], pieces_of[h]
        g.part_order, g.part_starts = prev.part_order[:k], prev.part_starts[:k]
        # after it, only the hexes with a part there and the changed ones can have one (an
        # unchanged hex shows the same piece)
        rest = prev.part_order[k:]
        for i in changed:
            at = bisect_left(rest, i)
            if at == len(rest) or rest[at] != i:
                rest.insert(at, i)
        walk = rest
    all_ends, pieces, g_placed = g.ends, g.pieces, g.placed
    # (the loop below runs for every hex with a part after the first changed one at every
    # lay: kept lean)
    add_paths, add_nodes, add_ids, add_stubs = g.paths.extend, g.nodes.extend, g.node_ids.update, g.stubs.extend
    add_order, add_start = g.part_order.append, g.part_starts.append
    tiles_get = board.tiles.get
    base, node_base, stub_base = len(g.paths), len(g.nodes), len(g.stubs)
    for i in walk:
        hex_name, of_hex = items[i]
        piece = of_hex.get(tiles_get(hex_name))
        if piece is None:
            piece = _piece(board, hex_name, of_hex)
        if not piece.paths and not piece.nodes:  # (an empty hex: no part, see `placed`)
            continue
        add_order(i)
        add_start((base, node_base, stub_base))
        pieces[hex_name] = piece
        placed = piece.placed.get((base, node_base))
        if placed is None:
            placed = _place(piece, hex_name, base, node_base)
        g_placed[hex_name] = placed
        all_ends[hex_name] = placed[1]
        n_paths, n_nodes, n_stubs = placed[5]
        if n_paths:
            add_paths(placed[0])
            base += n_paths
        if n_stubs:
            add_stubs(placed[2])
            stub_base += n_stubs
        if n_nodes:
            add_ids(placed[4])
            add_nodes(placed[3])
            node_base += n_nodes
    return g


def _place(piece: _Piece, hex_name: str, base: int, node_base: int) -> Any:
    """The piece's paths, ends, stubs and nodes numbered from (base, node_base), its nodes'
    refs -> ids, and how many paths, nodes and stubs it has (kept on the piece: a graph's parts
    are never changed once built)."""
    node_infos = tuple(NodeInfo(id=node_base + i, ref=ref, node=node, offboard=offboard)
                       for i, (ref, node, offboard) in enumerate(piece.nodes))
    placed = (
        tuple(PathInfo(base + i, hex_name, a, b, terminal)
              for i, (a, b, terminal) in enumerate(piece.paths)),
        {ep: [base + i for i in pids] for ep, pids in piece.ends},
        tuple(tuple(base + i for i in pids) for pids in piece.stubs),
        node_infos,
        {info.ref: info.id for info in node_infos},
        (len(piece.paths), len(node_infos), len(piece.stubs)))
    if len(piece.placed) > 1024:
        piece.placed.clear()
    piece.placed[(base, node_base)] = placed
    return placed


def _number_bits(g: TrackGraph) -> tuple[dict[tuple[tuple[str, int, tuple[int, int] | None], ...], int],
                                         dict[int, int], int]:
    """The graph's resource bits after its paths': a bit per hex-edge crossing in the order the
    hexes meet them, then a bit per stub."""
    pieces = g.pieces
    nbits = len(g.paths)
    # hex-edge crossings get the bits after the paths, numbered with the earlier hex of the two
    crossing_bits: dict[tuple[tuple[str, int, tuple[int, int] | None], ...], int] = {}
    for hex_name, piece in pieces.items():
        if not piece.later:
            continue
        sig = tuple([nb_piece.by_edge.get(facing) if (nb_piece := pieces.get(nb)) is not None else None
                     for _, _, nb, facing in piece.later])
        keys = piece.crossings.get(sig)
        if keys is None:
            keys = _crossings(piece, hex_name, sig)
            if len(piece.crossings) > 256:
                piece.crossings.clear()
            piece.crossings[sig] = keys
        crossing_bits.update(zip(keys, range(nbits, nbits + len(keys)), strict=True))
        nbits += len(keys)
    path_bits: dict[int, int] = {}
    for pids in g.stubs:
        for pid in pids:
            path_bits[pid] = 1 << nbits
        nbits += 1
    g._bits = (crossing_bits, path_bits, nbits)
    return g._bits


def _across(
    g: TrackGraph, neighbors: dict[int, str], ep: EP
) -> Iterable[tuple[str, int, tuple[int, int] | None]]:
    """The endpoints of the neighbouring hex that track leaving through `ep` meets (its edge
    ends on the facing edge, in the order of its ends: the piece's `by_edge`)."""
    nb = neighbors.get(ep[1])
    if nb is None:
        return ()
    piece = g.pieces.get(nb)
    if piece is None:
        return ()
    edge = (ep[1] + 3) % 6
    lanes = piece.by_edge.get(edge)
    if not lanes:
        return ()
    lane = ep[2]
    return [(nb, edge, other) for other in lanes
            if (other is None and lane is None) or _lanes_meet(lane, other)]


def _links_from_node(g: TrackGraph, info: NodeInfo, want: tuple[str, ...] | None = None
                     ) -> list[Link]:
    """The links from one node, in the walk's order; with `want`, only those whose chain is
    `want` (the walk does not leave it)."""
    hex_name = info.hex
    start_ep: EP = (info.kind, info.ref[2], None)
    out: list[Link] = []
    bits = g._bits or _number_bits(g)  # (the resource bits, asked at every step of the walk)
    for pid in g.ends[hex_name].get(start_ep, ()):
        _walk(g, info.id, hex_name, pid, start_ep, 0, (hex_name,), out, want, bits[0], bits[1])
    return out


def _walk(
    g: TrackGraph,
    start: int,
    hex_name: str,
    pid: int,
    enter: EP,
    mask: int,
    chain: tuple[str, ...],
    out: list[Link],
    want: tuple[str, ...] | None,
    crossing_bits: dict[tuple[tuple[str, int, tuple[int, int] | None], ...], int],
    path_bits: dict[int, int],
) -> None:
    path = g.paths[pid]
    mask |= (1 << pid) | path_bits.get(pid, 0)
    other = path.b if path.a == enter else path.a
    if other[0] != "edge":
        end = g.node_ids.get((hex_name, other[0], other[1]))
        if end is not None and end != start and (want is None or len(chain) == len(want)):
            out.append(Link(start, end, mask, chain))
        return
    neighbors = g.data.hexes[hex_name].neighbors
    if want is not None and (len(chain) >= len(want) or neighbors.get(other[1]) != want[len(chain)]):
        return  # (the track leaves `want`: every edge end across is in the hex beyond that edge)
    mine = (hex_name, other[1], other[2])
    for nb_ep in _across(g, neighbors, other):
        nb = nb_ep[0]
        # the crossing's bit (its key: the two edge ends, in order)
        cbit = 1 << crossing_bits[(mine, nb_ep) if mine <= nb_ep else (nb_ep, mine)]
        if mask & cbit:
            continue
        nb_enter: EP = ("edge", nb_ep[1], nb_ep[2])
        for qid in g.ends[nb].get(nb_enter, ()):
            if mask & ((1 << qid) | path_bits.get(qid, 0)):
                continue
            _walk(g, start, nb, qid, nb_enter, mask | cbit, chain + (nb,), out, want,
                  crossing_bits, path_bits)


_CACHE: dict[tuple[object, ...], TrackGraph] = {}
_CACHE_SIZE = 64
_LAST: list[TrackGraph] = []  # the graph last asked for (the next one built starts from it)


def _hex_items(data: TitleData, known: dict[str, dict[tuple[str, int] | None, _Piece]]
               ) -> list[tuple[str, dict[tuple[str, int] | None, _Piece]]]:
    """known's items in the title's hex order, as a list (made once per title's data)."""
    got = _ITEMS.get(id(data))
    if got is None or got[0] is not known:
        if len(_ITEMS) > 16:
            _ITEMS.clear()
        got = _ITEMS[id(data)] = (known, list(known.items()))
    return got[1]


_ITEMS: dict[int, tuple[Any, list[tuple[str, dict[tuple[str, int] | None, _Piece]]]]] = {}


def board_key(board: Board) -> tuple[object, ...]:
    key: tuple[object, ...] | None = board.memo.get("tiles")
    if key is None:
        key = board.memo["tiles"] = (board.data.title, id(board.data), frozenset(board.tiles.items()))
    return key


def graph_if_built(board: Board) -> TrackGraph | None:
    """The track graph for the tiles on `board` if it is built and kept already (else None)."""
    return _CACHE.get(board_key(board))


def track_graph(board: Board) -> TrackGraph:
    """The track graph for the tiles on `board` (cached per tile layout)."""
    key = board_key(board)
    g = _CACHE.get(key)
    if g is None:
        tiles_key = key[2]
        assert isinstance(tiles_key, frozenset)
        g = _build(board, tiles_key, _LAST[0] if _LAST else None)
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = g
    _LAST[:] = [g]
    return g
