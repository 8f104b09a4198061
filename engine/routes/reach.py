"""A corporation's reach over the track graph (engine/routes/graph.py): which nodes its tokens
block or let pass, and what its network touches from its placed tokens (nodes, cities, edges,
hexes), walked once per tile layout and token placement and cached."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.routes.graph import NodeInfo, TrackGraph, board_key, graph_if_built, track_graph
from engine.routes.pieces import _hex_order, _piece, _pieces_of
from engine.routes.steps import _closure, _path_step, _walk_table
from engine.routes.types import Board, NodeRef

# ---------------------------------------------------------------------------------------------
# Tokens and passability


def city_tokens(board: Board, ref: NodeRef) -> tuple[str | None, ...]:
    if ref[1] != "city":
        return ()
    return tuple(board.tokens.get((ref[0], ref[2]), ()))


def is_blocked(board: Board, info: NodeInfo, corp: str) -> bool:
    """A city whose every slot holds another corporation's token (corp cannot pass). A city may
    list more slots than its tile prints (a title's squeezed-in space): each one counts."""
    if info.kind != "city":
        return False
    toks = city_tokens(board, info.ref)
    if corp in toks:
        return False
    filled = [t for t in toks if t is not None]
    slots = max(info.node.slots, len(toks), 1)
    return len(filled) >= slots


def can_pass(board: Board, info: NodeInfo, corp: str, pass_through: frozenset[str]) -> bool:
    """Whether a route or the corp's track may run through this node and on."""
    if info.offboard and info.hex not in pass_through:
        return False
    return not is_blocked(board, info, corp)


def token_nodes(board: Board, g: TrackGraph, corp: str) -> list[int]:
    out = []
    for (hex_name, index), toks in board.tokens.items():
        if corp in toks:
            i = g.node_ids.get((hex_name, "city", index))
            if i is not None:
                out.append(i)
    return sorted(out)


def token_city_count(board: Board, corp: str) -> int:
    """len(token_nodes(board, track_graph(board), corp)), from the pieces of the token hexes
    when the graph is not built yet (a token's city is a node of the graph when the piece
    showing the hex's tile has that city)."""
    g = graph_if_built(board)
    if g is not None:
        return len(token_nodes(board, g, corp))
    known = _pieces_of(board.data)
    count = 0
    for (hex_name, index), toks in board.tokens.items():
        if corp not in toks:
            continue
        of_hex = known.get(hex_name)
        if of_hex is None:
            continue
        piece = of_hex.get(board.tiles.get(hex_name))
        if piece is None:
            piece = _piece(board, hex_name, of_hex)
        ref = (hex_name, "city", index)
        if any(node[0] == ref for node in piece.nodes):
            count += 1
    return count


# ---------------------------------------------------------------------------------------------
# Reach


@dataclass(frozen=True, slots=True)
class Reach:
    """What a corporation's network touches, starting from its placed tokens."""

    # (hex, edge) pairs the corp's track reaches: the edge a reached path ends on, and the
    # facing edge of the neighbouring hex (so an empty neighbour shows which edge a new tile
    # must use)
    edges: frozenset[tuple[str, int]]
    nodes: frozenset[NodeRef]  # every node reached (token cities included)
    cities: frozenset[NodeRef]  # the reached cities (for token placement)
    connected_hexes: frozenset[str]  # hexes holding reached track or nodes
    paths: frozenset[int] = frozenset()  # ids of reached tile paths (TrackGraph.paths)


_REACH_CACHE: dict[tuple[object, ...], Reach] = {}


class _ReachWalk:
    """One corporation's reach walk (see `reachable`): what it has reached so far, and the
    state of the walk from the current token."""

    def __init__(self, board: Board, g: TrackGraph, corp: str, pass_through: frozenset[str]) -> None:
        self.board, self.g, self.corp, self.pass_through = board, g, corp, pass_through
        self.reached_paths: set[int] = set()
        self.reached_nodes: set[int] = set()
        self.edges: set[tuple[str, int]] = set()
        self.visited_nodes: set[int] = set()
        self.visited_paths: set[int] = set()
        self.crossed: dict[tuple[str, int, tuple[int, int] | None], int] = {}
        # sizes of everything the walk could reach at most (see `_closure`): once reached,
        # nothing is left to find and the walk stops. Reckoned only once the walk has taken as
        # many steps as the graph has paths (a walk that enters no path twice never needs it)
        self.whole: tuple[int, int, int] = (-1, -1, -1)
        self.targets: frozenset[int] = frozenset()  # paths whose reaching ends the walk
        self.tokens: list[int] = []
        self.steps_left = len(g.paths)
        self.table = _walk_table(g)
        self.pass_cache: dict[int, bool] = {}

    def walk_node(self, nid: int, converging: bool) -> None:
        if nid in self.visited_nodes:
            return
        self.visited_nodes.add(nid)
        info = self.g.nodes[nid]
        for pid in self.g.ends[info.hex].get((info.kind, info.ref[2], None), ()):
            self.walk_path(nid, pid, None, converging)
        if converging:
            self.visited_nodes.discard(nid)

    def passable(self, nid: int) -> bool:
        ok = self.pass_cache.get(nid)
        if ok is None:
            ok = self.pass_cache[nid] = can_pass(self.board, self.g.nodes[nid], self.corp, self.pass_through)
        return ok

    def bound(self) -> None:
        """Reckon what the walk could reach at most (its answers are the same with or without:
        it only stops a walk sooner); stop now if none of the targets can be reached."""
        paths, nodes, edges = _closure(self.g, self.passable, self.tokens)
        self.whole = (len(paths), len(nodes), len(edges))
        if self.targets:
            self.targets = self.targets & paths
            if not self.targets:
                raise _Complete

    def walk_path(self, origin: int, pid: int, skip: int | None, converging: bool) -> None:
        if pid in self.visited_paths:
            return
        step = self.table[pid] or _path_step(self.g, pid)
        crossed = self.crossed
        for m in step.marks:
            if crossed.get(m):
                return
        self.visited_paths.add(pid)
        reached_paths, reached_nodes, edges = self.reached_paths, self.reached_nodes, self.edges
        reached_paths.add(pid)
        edges.update(step.edges)
        reached_nodes.update(step.nodes)
        self.steps_left -= 1
        if not self.steps_left:
            self.bound()
        whole = self.whole
        if pid in self.targets or (len(reached_paths) == whole[0] and len(reached_nodes) == whole[1]
                                   and len(edges) == whole[2]):
            raise _Complete
        if not step.terminal:
            for nid in step.nodes:
                if nid != origin and nid not in self.visited_nodes and self.passable(nid):
                    self.walk_node(nid, converging)
        visited = self.visited_paths  # (a path walked already is not entered: asked here)
        for edge, mark, shared, onward_paths in step.exits:
            if edge == skip:
                continue
            crossed[mark] = crossed.get(mark, 0) + 1
            onward = converging or shared
            for qid, entry in onward_paths:
                if qid not in visited:
                    self.walk_path(origin, qid, entry, onward)
            crossed[mark] -= 1
        if converging:
            self.visited_paths.discard(pid)


class _Complete(Exception):
    """The reach walk has found everything it could find, or what it was looking for."""


def _walk_reach(board: Board, corp: str, pass_through: frozenset[str], targets: frozenset[int]
                ) -> _ReachWalk:
    g = track_graph(board)
    order = _hex_order(g.data)
    tokens = sorted(token_nodes(board, g, corp), key=lambda n: (order[g.nodes[n].hex], g.nodes[n].ref[2]))
    walker = _ReachWalk(board, g, corp, pass_through)
    walker.reached_nodes.update(tokens)
    walker.tokens, walker.targets = tokens, targets
    try:
        for start in tokens:
            walker.visited_nodes = set(tokens) - {start}
            walker.visited_paths = set()
            walker.crossed = {}
            walker.walk_node(start, False)
    except _Complete:
        pass
    return walker


_REACHES_CACHE: dict[tuple[object, ...], bool] = {}


def reaches_any(board: Board, corp: str, pass_through: frozenset[str], targets: Iterable[int]) -> bool:
    """Whether the corporation's reach walk (see `reachable`) reaches any of these paths; it
    stops at the first one found."""
    wanted = frozenset(targets)
    if not wanted:
        return False
    key = (*_reach_key(board, corp, pass_through), wanted)
    hit = _REACHES_CACHE.get(key)
    if hit is None:
        hit = bool(_walk_reach(board, corp, pass_through, wanted).reached_paths & wanted)
        if len(_REACHES_CACHE) >= 1024:
            _REACHES_CACHE.pop(next(iter(_REACHES_CACHE)))
        _REACHES_CACHE[key] = hit
    return hit


def reachable(board: Board, corp: str, pass_through: frozenset[str] = frozenset()) -> Reach:
    """The corporation's network: what its track reaches from its tokens, walked as the site
    walks it.

    From each token city in turn (the corporation's other token cities count as visited) a
    depth-first walk follows the track: out of a node along each of its paths, across each hex
    edge into the neighbour's paths that meet it, and from a path into the nodes on it. A walk
    never turns back: a path and a node are entered once per token (again only below an exit
    that several paths of a tile share), and an edge already crossed on the way is not crossed
    again. Other corporations' tokens filling a city stop the walk there (the city itself is
    reached); so do off-boards (unless their hex is in `pass_through`) and terminal paths.
    """
    key = _reach_key(board, corp, pass_through)
    hit = _REACH_CACHE.get(key)
    if hit is not None:
        return hit
    walker = _walk_reach(board, corp, pass_through, frozenset())
    g = walker.g
    reached_paths, reached_nodes, edges = walker.reached_paths, walker.reached_nodes, walker.edges
    hexes = {g.paths[p].hex for p in reached_paths} | {g.nodes[n].hex for n in reached_nodes}
    refs = frozenset(g.nodes[n].ref for n in reached_nodes)
    reach = Reach(edges=frozenset(edges), nodes=refs, cities=frozenset(r for r in refs if r[1] == "city"),
                  connected_hexes=frozenset(hexes), paths=frozenset(reached_paths))
    if len(_REACH_CACHE) >= 256:
        _REACH_CACHE.pop(next(iter(_REACH_CACHE)))
    _REACH_CACHE[key] = reach
    return reach


def _reach_key(board: Board, corp: str, pass_through: frozenset[str]) -> tuple[object, ...]:
    tokens = board.memo.get("tokens")
    if tokens is None:
        tokens = board.memo["tokens"] = frozenset((k, tuple(v)) for k, v in board.tokens.items())
    return (board_key(board), tokens, corp, pass_through)


def known_reach(board: Board, corp: str, pass_through: frozenset[str] = frozenset()) -> Reach | None:
    """The corporation's whole reach if it has been walked already (else None)."""
    return _REACH_CACHE.get(_reach_key(board, corp, pass_through))


# The questions below have the answer `reachable` would give, but walk only until it is known
# (the walk's sets only grow, so once a path that settles the question is reached, it is).


def reaches_two_nodes(board: Board, corp: str, pass_through: frozenset[str] = frozenset()) -> bool:
    """len(reachable(...).nodes) >= 2: the network touches two nodes (a route could run)."""
    full = known_reach(board, corp, pass_through)
    if full is not None:
        return len(full.nodes) >= 2
    # the token cities count as reached; none: nothing is (counted without building the graph
    # when it is not built yet: a corporation with two tokens asks no walk, and a graph
    # nobody walks on is not worth its build)
    count = token_city_count(board, corp)
    if count != 1:
        return count >= 2
    g = track_graph(board)
    home = token_nodes(board, g, corp)[0]
    beyond = g.beyond.get(home)
    if beyond is None:
        # (the paths with another node on them: those ending at any other node, found from
        # the nodes' ends; as `pid for pid, nodes in enumerate(g.path_nodes) if any(n != home
        # for n in nodes)`, without a pass over every path)
        ends = g.ends
        beyond = g.beyond[home] = frozenset(
            pid for info in g.nodes if info.id != home
            for pid in ends[info.ref[0]].get((info.ref[1], info.ref[2], None), ()))
    return reaches_any(board, corp, pass_through, beyond)


def reaches_hex(board: Board, corp: str, pass_through: frozenset[str], hex_name: str,
                edges: Iterable[int]) -> bool:
    """Whether reachable(...) has one of `hex_name`'s `edges` among its edges or the hex among
    its connected hexes (a tile laid there with those exits would extend the network)."""
    full = known_reach(board, corp, pass_through)
    want = {(hex_name, e) for e in edges}
    if full is not None:
        return bool(want & full.edges) or hex_name in full.connected_hexes
    g = track_graph(board)
    if any(g.nodes[n].hex == hex_name for n in token_nodes(board, g, corp)):
        return True
    return reaches_any(board, corp, pass_through, hex_targets(g, hex_name, {e for _, e in want}))


def hex_targets(g: TrackGraph, hex_name: str, edges: set[int]) -> list[int]:
    """The paths whose reaching puts the hex among the reached hexes or one of its `edges`
    among the reached edges (a reached path adds its own hex's edges and the facing edges of
    its neighbours): every path of the hex, and a neighbour's paths with an edge end facing one
    of `edges` (a path may be listed twice)."""
    hexes = g.data.hexes
    targets: list[int] = []
    for h in _near(g.data).get(hex_name, ()):
        ends = g.ends.get(h)
        if not ends:
            continue
        if h == hex_name:
            targets.extend(pid for pids in ends.values() for pid in pids)
            continue
        facing = {e for e, nb in hexes[h].neighbors.items() if nb == hex_name and (e + 3) % 6 in edges}
        if facing:
            targets.extend(pid for ep, pids in ends.items() if ep[0] == "edge" and ep[1] in facing
                           for pid in pids)
    return targets


_NEAR: dict[int, tuple[Any, dict[str, list[str]]]] = {}


def _near(data: Any) -> dict[str, list[str]]:
    """Per hex, the hexes that are it or have it as a neighbour, in the title's hex order
    (made once per title's data)."""
    got = _NEAR.get(id(data))
    if got is not None and got[0] is data:
        return got[1]
    near: dict[str, list[str]] = {}
    for h, hx in data.hexes.items():
        for x in {h, *hx.neighbors.values()}:
            near.setdefault(x, []).append(h)
    if len(_NEAR) > 16:
        _NEAR.clear()
    _NEAR[id(data)] = (data, near)
    return near


def reaches_city(board: Board, corp: str, pass_through: frozenset[str], hex_name: str,
                 city: int) -> bool:
    """Whether the city is among reachable(...).cities."""
    ref: NodeRef = (hex_name, "city", city)
    full = known_reach(board, corp, pass_through)
    if full is not None:
        return ref in full.cities
    g = track_graph(board)
    nid = g.node_ids.get(ref)
    if nid is None:
        return False
    if nid in token_nodes(board, g, corp):
        return True
    return reaches_any(board, corp, pass_through, g.ends[hex_name].get(("city", city, None), ()))


def forget_boards() -> None:
    """Forget what the process keeps of the boards it has seen: their track graphs and the
    answers walked on them (the tiles' pieces and the walk's steps stay). For timing a replay
    of positions the process has not seen (bench/referee_bench.py --fresh)."""
    from engine.routes import graph

    graph._CACHE.clear()
    graph._LAST.clear()
    _REACH_CACHE.clear()
    _REACHES_CACHE.clear()
