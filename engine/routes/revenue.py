"""Checking and scoring routes: the engine's one judge of a route's legality and revenue.

A logged route names its train and `connections`, the hex chains between consecutive stops.
Each chain is matched against the track graph's links (a link's chain is exactly the hexes it
crosses), the links are stitched into one line of stops, and the line is checked:

* the track exists along every chain and forms one continuous line;
* no stop is visited twice, no track (tile path or hex-edge crossing) is used twice, within a
  route or across the corporation's routes of the same run;
* off-boards only at the ends (except pass-through hexes such as 18MS Memphis/New Orleans);
  no passing through a city whose slots are all held by other corporations;
* at least `min_stops` stops, at most `max_stops` counted stops (free kinds do not count);
* a city with one of the corporation's tokens is on the route.

Revenue = sum of stop values (phase-dependent, or `rules.stop_value`) with the train's
multiplier on the kinds it applies to, plus `rules.route_bonus`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.actions import Route
from engine.core.data import TitleData
from engine.errors import EngineError
from engine.routes.graph import Link, TrackGraph, track_graph
from engine.routes.reach import token_nodes
from engine.routes.types import Board, NodeRef, RouteRules, TrainSpec

# ---------------------------------------------------------------------------------------------
# Trains


def _distance_spec(train_id: str, name: str, dist: Mapping[str, Any]) -> TrainSpec:
    counts = frozenset(dist.get("stops_that_count") or ("city", "town", "offboard"))
    free = frozenset(dist.get("free_stops") or ())
    applies = dist.get("multiplier_applies_to")
    return TrainSpec(
        id=train_id,
        name=name,
        max_stops=int(dist.get("max_stops", 999)),
        counts=counts - free,
        free=free,
        multiplier=int(dist.get("revenue_multiplier", 1) or 1),
        multiplied=frozenset(applies) if applies else None,
    )


def train_spec(data: TitleData, train_id: str, face_name: str | None = None) -> TrainSpec:
    """The route limits of a train card `train_id` ("2D-1") run as `face_name` ("4D").

    `face_name` defaults to the card's own name (the id without its copy number).
    """
    card = train_id.rsplit("-", 1)[0]
    face = face_name or card
    for t in data.trains:
        if t["name"] == face:
            return _distance_spec(train_id, face, t.get("distance") or {})
        for v in t.get("variants") or ():
            if v.get("name") == face:
                return _distance_spec(train_id, face, v.get("distance") or t.get("distance") or {})
    raise EngineError(f"There is no {face} train in {data.title}", rule="route.unknown_train")


# ---------------------------------------------------------------------------------------------
# Per-corporation facts about each node


@dataclass(slots=True)
class RouteContext:
    """What a route needs to know about every node, for one corporation and phase."""

    board: Board
    corp: str
    rules: RouteRules
    graph: TrackGraph
    values: list[int]  # stop value of each node
    through: list[bool]  # may a route pass through it
    blocked: list[bool]  # city full of other corporations' tokens
    token: list[bool]  # city holding one of corp's tokens
    tokens: list[int]  # ids of the token cities


def route_context(board: Board, corp: str, rules: RouteRules) -> RouteContext:
    g = track_graph(board)
    values: list[int] = []
    through: list[bool] = []
    blocked: list[bool] = []
    pass_through = rules.pass_through_offboards
    stop_value = rules.stop_value
    phase = rules.phase
    city_tokens = board.tokens
    for info in g.nodes:
        ref = info.ref
        if stop_value is not None:
            values.append(stop_value(board, corp, ref, phase))
        else:
            values.append(info.node.value(phase))
        # is_blocked(board, info, corp), inline: a city whose every slot holds another's token
        full = False
        if ref[1] == "city":
            in_city = city_tokens.get((ref[0], ref[2]), ())
            if in_city and corp not in in_city:
                filled = 0
                for who in in_city:
                    if who is not None:
                        filled += 1
                full = filled >= max(info.node.slots, len(in_city), 1)
        blocked.append(full)
        # can_pass(board, info, corp, pass_through), with the city's tokens looked at once
        through.append(not full and not (info.offboard and ref[0] not in pass_through))
    toks = token_nodes(board, g, corp)
    token = [False] * len(g.nodes)
    for t in toks:
        token[t] = True
    return RouteContext(board, corp, rules, g, values, through, blocked, token, toks)


def stop_revenue(ctx: RouteContext, spec: TrainSpec, nodes: Sequence[int]) -> int:
    """Revenue of a train stopping at `nodes` (in travel order), bonus included."""
    total = 0
    mult = spec.multiplier
    applies = spec.multiplied
    g = ctx.graph
    for n in nodes:
        v = ctx.values[n]
        if mult != 1 and (applies is None or g.nodes[n].kind in applies):
            v *= mult
        total += v
    if ctx.rules.route_bonus is not None:
        total += ctx.rules.route_bonus(ctx.board, ctx.corp, [g.nodes[n].ref for n in nodes])
    return total


def counted_stops(ctx: RouteContext, spec: TrainSpec, nodes: Sequence[int]) -> int:
    g = ctx.graph
    return sum(1 for n in nodes if g.nodes[n].kind not in spec.free)


def _train_words(spec: TrainSpec) -> str:
    return f"The {spec.name} train"


def _kinds_words(spec: TrainSpec) -> str:
    counted = sorted(k for k in ("city", "town", "offboard") if k not in spec.free)
    names = {"city": "cities", "town": "towns", "offboard": "off-boards"}
    text = ", ".join(names[k] for k in counted)
    if spec.free:
        text += "; " + ", ".join(names[k] for k in sorted(spec.free)) + " are free"
    return text


def _between(chain: Sequence[str]) -> str:
    if len(chain) == 1:
        return f"inside {chain[0]}"
    return f"between {chain[0]} and {chain[-1]}"


def check_line(ctx: RouteContext, spec: TrainSpec, links: Sequence[Link]) -> tuple[int, int]:
    """Check one line of stops (stitched links); return (revenue, track mask) or raise."""
    g = ctx.graph
    who = _train_words(spec)
    nodes = [links[0].a] + [lk.b for lk in links]
    seen: set[int] = set()
    for n in nodes:
        if n in seen:
            raise EngineError(f"{who}'s route visits {g.name(n)} twice", rule="route.node_twice")
        seen.add(n)
    mask = 0
    for lk in links:
        if mask & lk.mask:
            raise EngineError(
                f"{who}'s route reuses track {_between(lk.chain)}", rule="route.track_reused"
            )
        mask |= lk.mask
    pass_through = ctx.rules.pass_through_offboards
    for n in nodes[1:-1]:
        info = g.nodes[n]
        if info.offboard and info.hex not in pass_through:
            raise EngineError(
                f"{who}'s route runs through {g.name(n)}, an off-board area that can only "
                "start or end a route",
                rule="route.offboard_middle",
            )
        if ctx.blocked[n]:
            raise EngineError(
                f"{who}'s route runs through {g.name(n)}, whose token slots are all taken by "
                "other corporations",
                rule="route.blocked_city",
            )
    if len(nodes) < spec.min_stops:
        raise EngineError(
            f"{who}'s route needs at least {spec.min_stops} stops", rule="route.too_few_stops"
        )
    counted = counted_stops(ctx, spec, nodes)
    if counted > spec.max_stops:
        raise EngineError(
            f"{who} can count at most {spec.max_stops} stops ({_kinds_words(spec)}), "
            f"but this route has {counted}",
            rule="route.too_many_stops",
        )
    if not any(ctx.token[n] for n in nodes):
        raise EngineError(
            f"{who}'s route must include a city with a {ctx.corp} token", rule="route.no_token"
        )
    return stop_revenue(ctx, spec, nodes), mask


def _lines(g: TrackGraph, chains: Sequence[Sequence[str]]) -> list[tuple[Link, ...]]:
    """Every way the chains can be laid on actual track as one continuous line."""
    options: list[list[Link]] = []
    for chain in chains:
        fwd = tuple(chain)
        opts = list(g.along(fwd))
        if len(fwd) > 1:
            opts += g.along(fwd[::-1])
        options.append(opts)
    out: list[tuple[Link, ...]] = []
    seen: set[tuple[int, tuple[int, ...]]] = set()

    def extend(i: int, acc: list[Link]) -> None:
        if i == len(options):
            key = (sum(lk.mask for lk in acc), tuple(sorted([acc[0].a] + [lk.b for lk in acc])))
            if key not in seen:
                seen.add(key)
                out.append(tuple(acc))
            return
        for lk in options[i]:
            if acc and lk.a != acc[-1].b:
                continue
            acc.append(lk)
            extend(i + 1, acc)
            acc.pop()

    extend(0, [])
    return out


@dataclass(frozen=True, slots=True)
class ScoredRoute:
    train: TrainSpec
    links: tuple[Link, ...]
    nodes: tuple[int, ...]
    mask: int
    revenue: int


def _node_signature(g: TrackGraph, n: int) -> str:
    info = g.nodes[n]
    return f"{info.hex}-{info.node.part_index}"


def _candidates(ctx: RouteContext, spec: TrainSpec, route: Route) -> list[ScoredRoute]:
    """The legal readings of one logged route (best revenue first), or raise."""
    g = ctx.graph
    who = _train_words(spec)
    chains = route.connections
    if not chains or any(not c for c in chains):
        raise EngineError(f"{who}'s route needs at least 2 stops", rule="route.too_few_stops")
    lines = _lines(g, chains)
    if not lines:
        for chain in chains:
            fwd = tuple(chain)
            if not g.along(fwd) and not g.along(fwd[::-1]):
                raise EngineError(
                    f"{who}'s route has no track {_between(chain)} along {'-'.join(chain)}",
                    rule="route.no_track",
                )
        raise EngineError(
            f"{who}'s route is not one continuous line of track", rule="route.not_continuous"
        )
    if route.nodes:
        wanted = sorted(route.nodes)
        matching = [
            ln
            for ln in lines
            if sorted(_node_signature(g, n) for n in [ln[0].a] + [lk.b for lk in ln]) == wanted
        ]
        lines = matching or lines
    legal: list[ScoredRoute] = []
    first_error: EngineError | None = None
    for ln in lines:
        try:
            revenue, mask = check_line(ctx, spec, ln)
        except EngineError as err:
            first_error = first_error or err
            continue
        nodes = (ln[0].a,) + tuple(lk.b for lk in ln)
        legal.append(ScoredRoute(spec, ln, nodes, mask, revenue))
    if not legal:
        assert first_error is not None
        raise first_error
    legal.sort(key=lambda s: -s.revenue)
    return legal


def check_routes(
    board: Board,
    corp: str,
    trains: Mapping[str, TrainSpec],
    routes: Sequence[Route],
    rules: RouteRules,
) -> list[ScoredRoute]:
    """Parse and check the routes of one run; the reading with the best total is returned."""
    ctx = route_context(board, corp, rules)
    per_route: list[list[ScoredRoute]] = []
    used_trains: set[str] = set()
    for route in routes:
        spec = trains.get(route.train)
        if spec is None:
            raise EngineError(f"{corp} has no train {route.train}", rule="route.unknown_train")
        if route.train in used_trains:
            raise EngineError(
                f"The {spec.name} train ({route.train}) can run only one route",
                rule="route.train_twice",
            )
        used_trains.add(route.train)
        per_route.append(_candidates(ctx, spec, route))
    if not per_route:
        return []
    best: list[ScoredRoute] | None = None
    best_total = -1

    def pick(i: int, used: int, total: int, acc: list[ScoredRoute]) -> None:
        nonlocal best, best_total
        if i == len(per_route):
            if total > best_total:
                best, best_total = list(acc), total
            return
        for cand in per_route[i]:
            if cand.mask & used:
                continue
            acc.append(cand)
            pick(i + 1, used | cand.mask, total + cand.revenue, acc)
            acc.pop()

    pick(0, 0, 0, [])
    if best is None:
        # name a pair of routes whose every reading shares track
        for i in range(len(per_route)):
            for j in range(i + 1, len(per_route)):
                if all(a.mask & b.mask for a in per_route[i] for b in per_route[j]):
                    ti, tj = per_route[i][0].train, per_route[j][0].train
                    raise EngineError(
                        f"The {ti.name} and {tj.name} trains' routes use the same track; "
                        "trains of one corporation may not share track",
                        rule="route.track_shared",
                    )
        raise EngineError(
            "These routes cannot all run together without sharing track",
            rule="route.track_shared",
        )
    return best


def score_routes(
    board: Board,
    corp: str,
    trains: Mapping[str, TrainSpec],
    routes: Sequence[Route],
    rules: RouteRules,
) -> list[int]:
    """Each route's revenue, after checking the whole run is legal (EngineError otherwise)."""
    return [s.revenue for s in check_routes(board, corp, trains, routes, rules)]


def node_refs(g: TrackGraph, nodes: Sequence[int]) -> list[NodeRef]:
    return [g.nodes[n].ref for n in nodes]
