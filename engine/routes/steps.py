"""The reach walk's view of the track graph (engine/routes/graph.py): per path, the step the walk
takes along it (its edge ends, the hex edges it touches, its nodes and the neighbours' paths it
leads into), made once per graph and shared between graphs whose parts agree; and the closure
that bounds a walk (reach.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.routes.graph import PathInfo, TrackGraph, _across, _PathStep


def _walk_table(g: TrackGraph) -> list[_PathStep | None]:
    if g.walk_table is None:
        g.walk_table = [None] * len(g.paths)
    return g.walk_table


# (id of the path's hex part, path id, ids of the parts of the hexes its edge ends face) ->
# (those parts, the step): a step depends on nothing else, so graphs that share the parts share it
_STEPS: dict[tuple[int, ...], tuple[tuple[Any, ...], _PathStep]] = {}


def _path_step(g: TrackGraph, pid: int) -> _PathStep:
    """The walk's view of one path (made once per graph, on first use)."""
    table = _walk_table(g)
    step = table[pid]
    if step is None:
        path = g.paths[pid]
        neighbors = g.data.hexes[path.hex].neighbors
        parts = (g.placed.get(path.hex), *[g.placed.get(neighbors.get(ep[1], ""))
                                           for ep in (path.a, path.b) if ep[0] == "edge"])
        key = (pid, *map(id, parts))
        got = _STEPS.get(key)
        if got is not None and all(a is b for a, b in zip(got[0], parts, strict=True)):
            step = got[1]
        else:
            step = _make_step(g, path)
            if parts[0] is not None:
                if len(_STEPS) > 50_000:
                    _STEPS.clear()
                _STEPS[key] = (parts, step)
        table[pid] = step
    return step


def _make_step(g: TrackGraph, path: PathInfo) -> _PathStep:
    neighbors = g.data.hexes[path.hex].neighbors
    ends = [ep for ep in (path.a, path.b) if ep[0] == "edge"]
    edges: list[tuple[str, int]] = []
    exits = []
    for ep in ends:
        edges.append((path.hex, ep[1]))
        nb = neighbors.get(ep[1])
        if nb is None:
            continue
        edges.append((nb, (ep[1] + 3) % 6))
        shared = sum(len(p) for e, p in g.ends[path.hex].items() if e[0] == "edge" and e[1] == ep[1]) > 1
        onward = tuple((qid, nb_ep[1]) for nb_ep in _across(g, neighbors, ep)
                       for qid in g.ends[nb_ep[0]].get(("edge", nb_ep[1], nb_ep[2]), ()))
        exits.append((ep[1], (path.hex, ep[1], ep[2]), shared, onward))
    nodes = tuple(nid for ep in (path.a, path.b) if ep[0] != "edge"
                  for nid in [g.node_ids.get((path.hex, ep[0], ep[1]))] if nid is not None)
    return _PathStep(tuple((path.hex, ep[1], ep[2]) for ep in ends), tuple(edges), nodes,
                     path.terminal, tuple(exits))


def _closure(g: TrackGraph, passable: Callable[[int], bool],
             tokens: list[int]) -> tuple[set[int], set[int], set[tuple[str, int]]]:
    """The paths, nodes and edges the reach walk could reach at most: the same moves
    with none of the walk's never-turn-back limits. The walk's sets only grow and stay within
    these, so when their sizes match the walk may stop (a late-game network of junctions is
    otherwise walked again below every shared exit)."""
    paths: set[int] = set()
    nodes: set[int] = set(tokens)
    edges: set[tuple[str, int]] = set()
    expanded = set(tokens)
    stack = [pid for n in tokens for pid in g.ends[g.nodes[n].hex].get(
        (g.nodes[n].kind, g.nodes[n].ref[2], None), ())]
    while stack:
        pid = stack.pop()
        if pid in paths:
            continue
        paths.add(pid)
        step = _path_step(g, pid)
        edges.update(step.edges)
        nodes.update(step.nodes)
        if not step.terminal:
            for nid in step.nodes:
                if nid not in expanded and passable(nid):
                    expanded.add(nid)
                    info = g.nodes[nid]
                    stack.extend(g.ends[info.hex].get((info.kind, info.ref[2], None), ()))
        for _edge, _mark, _shared, onward in step.exits:
            stack.extend(qid for qid, _entry in onward)
    return paths, nodes, edges
