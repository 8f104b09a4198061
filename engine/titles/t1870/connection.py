"""1870 connection run: the best run in which one train goes from home to the destination.

In a connection run the corporation runs its trains as usual, except that at least one train
must run from its home hex to its destination hex (one end of its route in each;
`Title1870.connection_route_error` is the engine's check). This module finds the run of
highest revenue under that constraint, exactly, with the route solver's own pieces
(engine.routes.solver): its per-kind route listings (`RouteGroup`) for the trains that run
freely, its revenue bounds and its deterministic work budget.

Search (exact unless the budget runs out):

1. For each kind of train, the *connecting* routes are listed by a depth-first walk from each
   node of the destination hex, recording every line that ends on a node of the home hex (and
   holds a token of the corporation and enough stops). Only nodes from which the home hex can
   still be reached without passing a node that may not be run through are entered, and a line
   whose counted stops plus the fewest counted stops still needed to reach home exceed the
   train's limit is cut. Revenue bounds prune as in the solver.
2. Trains of one kind are interchangeable, so the connecting train is one representative of
   each kind that has a connecting route. For connector t, with `ubc` the best connecting
   route of t and `ub[u]` the best free route of every other train u, no run is worth more
   than UB(t) = ubc + sum(ub[u]). Connectors are tried from the highest UB down.
3. For connector t, a revenue guess G starts at UB(t) and is lowered as in the solver: any run
   worth at least G uses, for t, a connecting route worth >= G - (UB(t) - ubc) and, for each
   other train u, a route (or none) worth >= G - (UB(t) - ub[u]); those listings are combined
   by branch and bound (t must run, the others may not; no track shared). If the best run found
   reaches G, or G is down to the best run found so far, no better run exists for t.
4. The answer is re-scored by `revenue.check_routes`, the engine's judge.

The game's side (the run's ends, the corporation's board, the run offered) is in
connection_offer.py.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from engine.routes.revenue import check_routes, route_context
from engine.routes.solver import (
    STEPS_PER_MS,
    Candidate,
    OutOfBudget,
    RouteGroup,
    Solution,
    WorkBudget,
    as_route,
    combine,
    group_key,
)
from engine.routes.types import Board, RouteRules, TrainSpec

INF = float("inf")
CONNECTION_TIME_LIMIT_MS = 2000  # work budget of the offered connection run (deterministic)


class _Connecting:
    """Connecting routes (destination hex to home hex) of one kind of train."""

    def __init__(self, group: RouteGroup, dest_nodes: list[int], home_nodes: set[int]) -> None:
        self.group = group
        ctx = group.ctx
        g = ctx.graph
        n = len(g.nodes)
        self.starts = dest_nodes
        self.goal = [i in home_nodes for i in range(n)]
        # need[m]: fewest counted stops after m up to and including a home node, over lines
        # whose inner nodes may be run through (INF: the home hex cannot be reached from m)
        need: list[float] = [INF] * n
        queue: deque[int] = deque()
        for h in home_nodes:
            need[h] = 0
            queue.append(h)
        while queue:  # 0-1 breadth first search (stop costs are 0 or 1)
            x = queue.popleft()
            for lk in g.links_from[x]:
                m = lk.b
                if not ctx.through[m]:
                    continue
                d = need[x] + group.cnt[x]
                if d < need[m]:
                    need[m] = d
                    if group.cnt[x]:
                        queue.append(m)
                    else:
                        queue.appendleft(m)
        for d in dest_nodes:  # a route may start on a node it could not run through
            if not ctx.through[d] and not self.goal[d]:
                need[d] = min((need[lk.b] + group.cnt[lk.b] for lk in g.links_from[d]), default=INF)
        self.need = need
        self.cands: dict[int, Candidate] = {}
        self.listed_to = INF
        self.top: Candidate | None = None  # the best connecting route
        self.searched = False

    def walk(self, threshold: float, budget: WorkBudget, best_only: bool) -> None:
        grp = self.group
        ctx = grp.ctx
        adj = grp.graph.links_from
        cnt, val, through, token = grp.cnt, grp.val, ctx.through, ctx.token
        goal, need = self.goal, self.need
        max_stops, min_stops = grp.spec.max_stops, grp.spec.min_stops
        cands = self.cands
        state = {"thr": threshold}

        def grow(
            node: int, nodes: int, mask: int, c: int, v: int, nn: int, fwd: Any, tok: bool
        ) -> None:
            budget.spend()
            if fwd is not None:
                if goal[node] and tok and nn >= min_stops and mask not in cands:
                    rev = grp.revenue(v, fwd, None)
                    if rev >= state["thr"]:
                        cands[mask] = Candidate(rev, mask, fwd, None)
                        if best_only and rev > state["thr"]:
                            state["thr"] = rev
                if not through[node]:
                    return
            for lk in adj[node]:
                m = lk.b
                if nodes >> m & 1 or mask & lk.mask:
                    continue
                c2 = c + cnt[m]
                if c2 + need[m] > max_stops:
                    continue
                v2 = v + val[m]
                if v2 + grp.optimistic(c2) < state["thr"]:
                    continue
                grow(m, nodes | 1 << m, mask | lk.mask, c2, v2, nn + 1, (lk, fwd), tok or token[m])

        for d in self.starts:
            if cnt[d] + need[d] > max_stops or val[d] + grp.optimistic(cnt[d]) < state["thr"]:
                continue
            grow(d, 1 << d, 0, cnt[d], val[d], 1, None, token[d])

    def best(self, budget: WorkBudget) -> Candidate | None:
        """The best connecting route (None: there is none)."""
        if not self.searched:
            self.walk(-INF, budget, best_only=True)
            self.searched = True
            self.top = max(self.cands.values(), key=lambda c: c.revenue, default=None)
        return self.top

    def listing(self, threshold: float, budget: WorkBudget) -> list[Candidate]:
        if threshold < self.listed_to:
            self.walk(threshold, budget, best_only=False)
            self.listed_to = threshold
        out = [c for c in self.cands.values() if c.revenue >= threshold]
        out.sort(key=lambda c: -c.revenue)
        return out


class _Search:
    """The search over connectors; `total` and `pick` hold the best run found so far
    ((train, route) pairs, the connecting route first)."""

    def __init__(
        self,
        trains: Mapping[str, TrainSpec],
        train_group: dict[str, RouteGroup],
        connecting: dict[tuple[object, ...], _Connecting],
        rules: RouteRules,
        budget: WorkBudget,
    ) -> None:
        self.trains = trains
        self.train_group = train_group
        self.connecting = connecting
        self.bounded = rules.route_bonus is None or rules.route_bonus_max is not None
        self.budget = budget
        self.total = -1
        self.pick: list[tuple[str, Candidate]] = []
        # trains of one kind are interchangeable: one connector per kind, the first by id
        self.reps: dict[tuple[object, ...], str] = {}
        for tid in sorted(trains):
            self.reps.setdefault(group_key(trains[tid]), tid)

    def offer(self, total: int, pick: list[tuple[str, Candidate]]) -> None:
        if total > self.total:
            self.total, self.pick = total, pick

    def run(self) -> bool:
        """Find the best run; False when no train has a connecting route."""
        trains, budget = self.trains, self.budget
        # first the best connecting route of each kind: a legal run is found early
        tops: dict[str, Candidate] = {}
        for key, tid in self.reps.items():
            top = self.connecting[key].best(budget)
            if top is not None:
                tops[tid] = top
                self.offer(top.revenue, [(tid, top)])  # the connecting train alone
        if not tops:
            return False
        if len(trains) == 1:  # no other train: that route is the answer
            return True
        ub = {tid: self.train_group[tid].best(budget) for tid in trains}
        order = sorted(trains, key=lambda t: (-ub[t], repr(group_key(trains[t])), t))
        # connectors from the highest bound down: the connecting route's best plus the others'
        bounds = [
            (top.revenue + sum(ub[u] for u in trains if u != tid), tid) for tid, top in tops.items()
        ]
        for total_ub, tid in sorted(bounds, key=lambda b: (-b[0], b[1])):
            if total_ub <= self.total:
                break
            self.with_connector(tid, total_ub, tops[tid].revenue, ub, order)
        return True

    def with_connector(
        self, tid: str, total_ub: int, ubc: int, ub: dict[str, int], order: list[str]
    ) -> None:
        """The best run in which `tid` runs the connecting route (guesses lowered from the
        bound `total_ub` until the best run found reaches the guess)."""
        trains, budget = self.trains, self.budget
        conn = self.connecting[group_key(trains[tid])]
        others = [u for u in order if u != tid]
        same_as_next = [
            i + 1 < len(others) and group_key(trains[others[i]]) == group_key(trains[others[i + 1]])
            for i in range(len(others))
        ]
        guess = total_ub
        step = 10
        while True:
            if self.bounded:
                conn_list = conn.listing(guess - (total_ub - ubc), budget)
                lists = [
                    self.train_group[u].listing(guess - (total_ub - ub[u]), budget) for u in others
                ]
            else:  # no bound on the bonus: list everything, one pass
                guess = ubc
                conn_list = conn.listing(-INF, budget)
                lists = [self.train_group[u].listing(-INF, budget) for u in others]
            self.offer(*_combine(tid, conn_list, others, lists, same_as_next, self.total, budget))
            if self.total >= guess or guess <= ubc:
                return
            guess = max(ubc, self.total, guess - step)
            step *= 3

    def salvage(self) -> None:
        """Out of budget before any run was found: a connecting route met so far, if any."""
        if self.pick:
            return
        for key, tid in self.reps.items():
            for cand in self.connecting[key].cands.values():
                self.offer(cand.revenue, [(tid, cand)])


def _combine(
    conn_tid: str,
    conn: list[Candidate],
    others: list[str],
    lists: list[list[Candidate]],
    same_as_next: list[bool],
    incumbent: int,
    budget: WorkBudget,
) -> tuple[int, list[tuple[str, Candidate]]]:
    """Branch and bound: the connecting train runs one of `conn` (best first), every other
    train at most one route of its list; no track shared. Only runs worth more than
    `incumbent` count."""
    free_bound = sum(lst[0].revenue for lst in lists if lst)
    best, best_pick = incumbent, []
    for c in conn:
        if c.revenue + free_bound <= best:
            break
        total, pick = combine(others, lists, same_as_next, best, budget, fixed=((conn_tid, c),))
        if total > best:
            best, best_pick = total, pick
    return best, best_pick


def best_connection(
    board: Board,
    corp: str,
    trains: Mapping[str, TrainSpec],
    rules: RouteRules,
    home_hex: str,
    dest_hex: str,
    *,
    time_limit_ms: int | None = None,
) -> Solution | None:
    """The best run of `corp`'s trains in which one train runs from a node of `home_hex` to a
    node of `dest_hex` (one route per train, no shared track); None when no train can. The
    connecting route comes first, from the destination to home; the others follow by train.

    `exact` is False only when the work budget of `time_limit_ms` ran out: the best run found
    so far is returned then (no routes at all if no connecting route was met yet)."""
    ctx = route_context(board, corp, rules)
    g = ctx.graph
    budget = WorkBudget(None if time_limit_ms is None else max(1, time_limit_ms) * STEPS_PER_MS)
    if not ctx.tokens or not trains:
        return None
    dest_nodes = [i for i, info in enumerate(g.nodes) if info.hex == dest_hex]
    home_nodes = {i for i, info in enumerate(g.nodes) if info.hex == home_hex}
    if not dest_nodes or not home_nodes:
        return None
    groups: dict[tuple[object, ...], RouteGroup] = {}
    connecting: dict[tuple[object, ...], _Connecting] = {}
    train_group: dict[str, RouteGroup] = {}
    for tid in sorted(trains):
        key = group_key(trains[tid])
        if key not in groups:
            groups[key] = RouteGroup(ctx, trains[tid], rules.route_bonus_max)
            connecting[key] = _Connecting(groups[key], dest_nodes, home_nodes)
        train_group[tid] = groups[key]

    search = _Search(trains, train_group, connecting, rules, budget)
    exact = True
    try:
        if not search.run():
            return None
    except OutOfBudget:
        exact = False
        search.salvage()
    if not search.pick:  # the budget ran out before any connecting route was found
        return Solution([], 0, False)

    # the connecting route first (from the destination to home), then the others by train
    pick = search.pick[:1] + sorted(search.pick[1:], key=lambda p: p[0])
    routes = [as_route(g, tid, cand) for tid, cand in pick]
    scored = check_routes(board, corp, trains, routes, rules)
    final = [r.model_copy(update={"revenue": s.revenue}) for r, s in zip(routes, scored, strict=True)]
    return Solution(final, sum(s.revenue for s in scored), exact)
