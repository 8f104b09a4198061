"""The best routes for a corporation's trains: an exact search.

1. Candidate routes per kind of train (same stop limits and multipliers) are listed by a
   depth-first walk over the track graph's links, starting at each of the corporation's token
   cities and growing the line first at one end, then at the other. A route is identified by
   its track mask (its tile paths and hex-edge crossings), which fixes its stops.
2. A branch-and-bound over the trains (best train first, each train's routes best first)
   picks at most one route per train with no shared track.
3. Revenue bounds prune both steps: with `ub[t]` the best single route of train t, any route
   of train t in a combination worth at least G has revenue >= G - sum(ub of the others).
   The search guesses G near the sum of the bounds and lowers the guess until the best
   combination found reaches it; a combination at least as good as the guess is optimal
   (every optimal route passed the filter), and the last guess is a revenue already reached,
   so the answer is exact.
4. The answer is re-scored by `revenue.check_routes`, the engine's judge.

The engine has no clock, so `time_limit_ms` is turned into a deterministic work budget
(search steps); when the budget runs out the best answer so far is returned with
`exact=False`.

Its pieces (RouteGroup listings, Candidate routes, WorkBudget, as_route) are public so that a
title's constrained search (1870's connection run, engine/titles/t1870/connection.py) reuses them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.actions import Route
from engine.routes.graph import Link, TrackGraph
from engine.routes.revenue import RouteContext, check_routes, route_context
from engine.routes.types import Board, RouteRules, TrainSpec

STEPS_PER_MS = 400  # work budget per millisecond of `time_limit_ms` (deterministic)

# (link, previous) cons cells: a line grown from a token city
Cons = tuple[Link, "Cons"] | None


@dataclass(frozen=True, slots=True)
class Solution:
    routes: list[Route]  # one per train that runs, with connections, hexes, nodes, revenue
    revenue: int
    exact: bool


@dataclass(frozen=True, slots=True)
class Candidate:
    revenue: int
    mask: int
    fwd: Cons  # links grown from the token city at the head end
    back: Cons  # links grown from the token city at the tail end


class OutOfBudget(Exception):
    pass


@dataclass(slots=True)
class WorkBudget:
    left: int | None

    def spend(self, n: int = 1) -> None:
        if self.left is not None:
            self.left -= n
            if self.left < 0:
                raise OutOfBudget


def group_key(spec: TrainSpec) -> tuple[object, ...]:
    return (spec.max_stops, spec.free, spec.multiplier, spec.multiplied, spec.min_stops)


class RouteGroup:
    """Route listing for one kind of train."""

    def __init__(self, ctx: RouteContext, spec: TrainSpec, bonus_max: int | None) -> None:
        g = ctx.graph
        self.ctx = ctx
        self.spec = spec
        self.graph = g
        mult = spec.multiplier
        applies = spec.multiplied
        self.cnt = [0 if info.kind in spec.free else 1 for info in g.nodes]
        self.val = [
            ctx.values[i] * (mult if applies is None or info.kind in applies else 1)
            for i, info in enumerate(g.nodes)
        ]
        self.has_bonus = ctx.rules.route_bonus is not None
        self.bonus_max = 0 if not self.has_bonus else bonus_max
        # optimistic value still to gain with r counted stops left: the r best counted
        # stops of the corp's component plus every free stop in it
        comp = _component(g, ctx)
        counted = sorted((self.val[n] for n in comp if self.cnt[n]), reverse=True)
        free_sum = sum(max(self.val[n], 0) for n in comp if not self.cnt[n])
        top = [free_sum]
        for v in counted:
            top.append(top[-1] + max(v, 0))
        self.top = top
        self.cands: dict[int, Candidate] = {}
        self.listed_to: float = float("inf")  # lowest threshold already listed completely
        self.ub: int | None = None

    def optimistic(self, used_count: int) -> float:
        if self.bonus_max is None:
            return float("inf")
        r = self.spec.max_stops - used_count
        top = self.top
        return top[min(max(r, 0), len(top) - 1)] + self.bonus_max

    def revenue(self, nodes_val: int, fwd: Cons, back: Cons) -> int:
        if not self.has_bonus:
            return nodes_val
        nodes = _line_nodes(fwd, back)
        bonus = self.ctx.rules.route_bonus
        assert bonus is not None
        g = self.graph
        return nodes_val + bonus(self.ctx.board, self.ctx.corp, [g.nodes[n].ref for n in nodes])

    def walk(self, threshold: float, budget: WorkBudget, best_only: bool) -> None:
        """List every route worth >= threshold (or, with best_only, find the best route)."""
        ctx = self.ctx
        adj = self.graph.links_from
        cnt, val, through = self.cnt, self.val, ctx.through
        max_stops = self.spec.max_stops
        min_stops = self.spec.min_stops
        cands = self.cands
        state = {"thr": threshold}

        def record(nnodes: int, v: int, mask: int, fwd: Cons, back: Cons) -> None:
            if nnodes < min_stops or mask in cands:
                return
            rev = self.revenue(v, fwd, back)
            if rev < state["thr"]:
                return
            cands[mask] = Candidate(rev, mask, fwd, back)
            if best_only and rev > state["thr"]:
                state["thr"] = rev

        def grow_tail(
            tail: int, start: int, nodes: int, mask: int, c: int, v: int, nn: int,
            fwd: Cons, back: Cons,
        ) -> None:  # fmt: skip
            budget.spend()
            record(nn, v, mask, fwd, back)
            if not through[tail] and back is not None:
                return
            for lk in adj[tail]:
                m = lk.b
                if nodes >> m & 1 or mask & lk.mask:
                    continue
                c2 = c + cnt[m]
                if c2 > max_stops:
                    continue
                v2 = v + val[m]
                if v2 + self.optimistic(c2) < state["thr"]:
                    continue
                grow_tail(m, start, nodes | 1 << m, mask | lk.mask, c2, v2, nn + 1, fwd, (lk, back))

        def grow_head(
            head: int, start: int, nodes: int, mask: int, c: int, v: int, nn: int, fwd: Cons
        ) -> None:
            budget.spend()
            if fwd is not None:
                record(nn, v, mask, fwd, None)
                # then grow the other end, from the token city, if it may be passed
                if through[start]:
                    for lk in adj[start]:
                        m = lk.b
                        if nodes >> m & 1 or mask & lk.mask:
                            continue
                        c2 = c + cnt[m]
                        if c2 > max_stops:
                            continue
                        v2 = v + val[m]
                        if v2 + self.optimistic(c2) < state["thr"]:
                            continue
                        grow_tail(
                            m, start, nodes | 1 << m, mask | lk.mask, c2, v2, nn + 1, fwd,
                            (lk, None),
                        )  # fmt: skip
                if not through[head]:
                    return
            for lk in adj[head]:
                m = lk.b
                if nodes >> m & 1 or mask & lk.mask:
                    continue
                c2 = c + cnt[m]
                if c2 > max_stops:
                    continue
                v2 = v + val[m]
                if v2 + self.optimistic(c2) < state["thr"]:
                    continue
                grow_head(m, start, nodes | 1 << m, mask | lk.mask, c2, v2, nn + 1, (lk, fwd))

        for t in ctx.tokens:
            c0 = cnt[t]
            if c0 > max_stops:
                continue
            if val[t] + self.optimistic(c0) < state["thr"]:
                continue
            grow_head(t, t, 1 << t, 0, c0, val[t], 1, None)

    def best(self, budget: WorkBudget) -> int:
        if self.ub is None:
            self.walk(float("-inf"), budget, best_only=True)
            self.ub = max((c.revenue for c in self.cands.values()), default=0)
        return self.ub

    def listing(self, threshold: float, budget: WorkBudget) -> list[Candidate]:
        if threshold < self.listed_to:
            self.walk(threshold, budget, best_only=False)
            self.listed_to = threshold
        out = [c for c in self.cands.values() if c.revenue >= threshold and c.revenue > 0]
        out.sort(key=lambda c: -c.revenue)
        return out


def _component(g: TrackGraph, ctx: RouteContext) -> list[int]:
    """Nodes a route from the corp's tokens could reach (ignoring stop limits)."""
    seen = set(ctx.tokens)
    stack = list(ctx.tokens)
    while stack:
        n = stack.pop()
        if n not in ctx.tokens and not ctx.through[n]:
            continue
        for lk in g.links_from[n]:
            if lk.b not in seen:
                seen.add(lk.b)
                stack.append(lk.b)
    return sorted(seen)


def _line_links(fwd: Cons, back: Cons) -> list[Link]:
    """The links of a line in travel order (tail end first)."""
    head: list[Link] = []
    while fwd is not None:
        head.append(fwd[0])
        fwd = fwd[1]
    tail: list[Link] = []
    while back is not None:
        tail.append(back[0])
        back = back[1]
    # tail links were grown outwards from the token city: walk them back in, then out the head
    return [Link(lk.b, lk.a, lk.mask, lk.chain[::-1]) for lk in tail] + head[::-1]


def _line_nodes(fwd: Cons, back: Cons) -> list[int]:
    links = _line_links(fwd, back)
    return [links[0].a] + [lk.b for lk in links]


def as_route(g: TrackGraph, train_id: str, cand: Candidate) -> Route:
    links = _line_links(cand.fwd, cand.back)
    nodes = [links[0].a] + [lk.b for lk in links]
    return Route(
        train=train_id,
        connections=[list(lk.chain) for lk in links],
        hexes=[g.nodes[n].hex for n in nodes],
        revenue=cand.revenue,
        nodes=[f"{g.nodes[n].hex}-{g.nodes[n].node.part_index}" for n in nodes],
    )


def best_routes(
    board: Board,
    corp: str,
    trains: Mapping[str, TrainSpec],
    rules: RouteRules,
    *,
    time_limit_ms: int | None = None,
) -> Solution:
    """The best legal routes for `corp`'s trains (one route per train, no shared track)."""
    ctx = route_context(board, corp, rules)
    budget = WorkBudget(None if time_limit_ms is None else max(1, time_limit_ms) * STEPS_PER_MS)
    if not ctx.tokens or not trains:
        return Solution([], 0, True)
    groups: dict[tuple[object, ...], RouteGroup] = {}
    train_group: dict[str, RouteGroup] = {}
    for tid in sorted(trains):
        spec = trains[tid]
        key = group_key(spec)
        if key not in groups:
            groups[key] = RouteGroup(ctx, spec, rules.route_bonus_max)
        train_group[tid] = groups[key]

    exact = True
    best_total = 0
    best_pick: list[tuple[str, Candidate]] = []
    try:
        ub = {tid: train_group[tid].best(budget) for tid in trains}
        order = sorted(trains, key=lambda t: (-ub[t], repr(group_key(trains[t])), t))
        total_ub = sum(ub.values())
        floor = max(ub.values(), default=0)  # one train alone reaches its best route
        # one train alone: its best route is the answer
        top_tid = order[0]
        top_cands = train_group[top_tid].listing(ub[top_tid], budget)
        if top_cands:
            best_total, best_pick = top_cands[0].revenue, [(top_tid, top_cands[0])]
        step = 10
        guess = total_ub
        while True:
            bounded = rules.route_bonus is None or rules.route_bonus_max is not None
            if not bounded:
                guess = floor
            lists: list[list[Candidate]] = []
            for tid in order:
                thr = guess - (total_ub - ub[tid]) if bounded else float("-inf")
                lists.append(train_group[tid].listing(thr, budget))
            total, pick = _combine(order, trains, lists, best_total, budget)
            if total > best_total:
                best_total, best_pick = total, pick
            if best_total >= guess or guess <= floor:
                break
            guess = max(floor, best_total, guess - step)
            step *= 3
    except OutOfBudget:
        exact = False

    g = ctx.graph
    routes = [as_route(g, tid, cand) for tid, cand in sorted(best_pick, key=lambda p: p[0])]
    # the engine's judge scores the answer
    scored = check_routes(board, corp, trains, routes, rules)
    final = []
    for route, s in zip(routes, scored, strict=True):
        final.append(route.model_copy(update={"revenue": s.revenue}))
    revenue = sum(s.revenue for s in scored)
    return Solution(final, revenue, exact)


def _combine(
    order: list[str],
    trains: Mapping[str, TrainSpec],
    lists: list[list[Candidate]],
    incumbent: int,
    budget: WorkBudget,
) -> tuple[int, list[tuple[str, Candidate]]]:
    """Branch and bound: the best set of at most one route per train, no shared track."""
    same_as_next = [
        i + 1 < len(order) and group_key(trains[order[i]]) == group_key(trains[order[i + 1]])
        for i in range(len(order))
    ]
    return combine(order, lists, same_as_next, incumbent, budget)


def combine(
    order: list[str],
    lists: list[list[Candidate]],
    same_as_next: list[bool],
    incumbent: int,
    budget: WorkBudget,
    *,
    fixed: tuple[tuple[str, Candidate], ...] = (),
) -> tuple[int, list[tuple[str, Candidate]]]:
    """Branch and bound over the trains of `order`: at most one route of its list per train, no
    track shared (with the `fixed` routes either). Only sets worth more than `incumbent` count;
    returns (their best revenue, the routes incl. the fixed ones) or (incumbent, []).
    same_as_next[i]: train i and i+1 are interchangeable (their routes are taken in order)."""
    n = len(order)
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + (lists[i][0].revenue if lists[i] else 0)
    best = incumbent
    best_pick: list[tuple[str, Candidate]] = []
    acc: list[tuple[str, Candidate]] = list(fixed)

    def search(i: int, used: int, total: int, start: int) -> None:
        nonlocal best, best_pick
        budget.spend()
        if total > best:
            best, best_pick = total, list(acc)
        if i == n or total + suffix[i] <= best:
            return
        lst = lists[i]
        rest = suffix[i + 1]
        tid = order[i]
        for idx in range(start, len(lst)):
            cand = lst[idx]
            if total + cand.revenue + rest <= best:
                break
            if cand.mask & used:
                continue
            acc.append((tid, cand))
            search(i + 1, used | cand.mask, total + cand.revenue, idx + 1 if same_as_next[i] else 0)
            acc.pop()
        # this train runs nothing (an identical next train then runs nothing either)
        search(i + 1, used, total, len(lists[i + 1]) if same_as_next[i] else 0)

    used = 0
    for _tid, cand in fixed:
        used |= cand.mask
    search(0, used, sum(c.revenue for _t, c in fixed), 0)
    return best, best_pick
