"""Routes typed as stops, one train per part: "Memphis-Grenada-Jackson;Jackson-Meridian".

Each part names a train's stops in order (place names or hex ids, any case; either direction),
optionally after the train ("3+: Memphis-Jackson"); parts without a train go to the operating
corporation's trains in order. Each part is matched against the routes the solver lists for
that train (the legal lines from the corporation's tokens), the best-paying match chosen. The
engine still judges the whole run when it is applied (shared track, the title's conditions).
"""

from __future__ import annotations

import re
from typing import Any

from engine.errors import EngineError
from engine.names import match_hex
from engine.routes.api import operating_corporation

WORK_LIMIT = 2_000_000  # solver steps to list one train's routes


def _parts(text: str) -> list[tuple[str | None, list[str]]]:
    out: list[tuple[str | None, list[str]]] = []
    for part in re.split(r"[;\n]", text):
        part = part.strip()
        if not part:
            continue
        train, sep, rest = part.partition(":")
        if not sep:
            train, rest = "", part
        stops = [s.strip() for s in re.split(r"\s*(?:-|–|>)\s*", rest) if s.strip()]
        out.append((train.strip() or None, stops))
    return out


def _stop_matches(data: Any, typed: str, hex_name: str) -> bool:
    return match_hex(data, typed, [hex_name]) == hex_name


def _matches(data: Any, stops: list[str], hexes: list[str]) -> bool:
    if len(stops) != len(hexes):
        return False
    return (all(_stop_matches(data, s, h) for s, h in zip(stops, hexes, strict=True))
            or all(_stop_matches(data, s, h) for s, h in zip(stops, reversed(hexes), strict=True)))


def train_routes(game: Any, train_id: str) -> list[tuple[Any, list[str]]]:
    """The routes the solver lists for one train of the operating corporation (best first),
    each with its stops' hexes but the towns (a player may leave them out)."""
    from engine.routes.revenue import route_context
    from engine.routes.solver import RouteGroup, WorkBudget, _line_links, as_route

    t = game.title
    corp = operating_corporation(game)
    train = next(x for x in t.active_trains(game, corp) if x.id == train_id)
    rules = t.route_rules(game, corp)
    ctx = route_context(t.board(game), corp.id, rules)
    if not ctx.tokens:
        return []
    group = RouteGroup(ctx, t.train_spec(game, train), rules.route_bonus_max)
    try:
        cands = group.listing(float("-inf"), WorkBudget(WORK_LIMIT))
    except Exception as err:  # out of budget: too many lines to list
        raise EngineError("Too many routes to match by name here: give the routes as JSON "
                          "or run the best routes.", rule="route.by_name") from err
    out = []
    for c in cands:
        links = _line_links(c.fwd, c.back)
        nodes = [links[0].a] + [lk.b for lk in links]
        big = [ctx.graph.nodes[n].hex for n in nodes if ctx.graph.nodes[n].kind != "town"]
        out.append((as_route(ctx.graph, train_id, c), big))
    return out


def routes_by_name(game: Any, text: str) -> list[dict[str, Any]]:
    """The run the text names, as the `routes` of a run_routes action (refused with the
    reason when a part matches no legal route of its train)."""
    t = game.title
    corp = operating_corporation(game)
    trains = t.active_trains(game, corp)
    if not trains:
        raise EngineError(f"{corp.id} has no train to run.", rule="route.train")
    data = t.data
    free = [x.id for x in trains]
    routes: list[dict[str, Any]] = []
    for named, stops in _parts(text):
        if named is not None:
            pick = [i for i in free if i.lower() == named.lower()] or [
                i for i in free if next(x for x in trains if x.id == i).name.lower() == named.lower()]
            if not pick:
                raise EngineError(f"{corp.id} has no train {named} left to run.", rule="route.train")
            tid = pick[0]
        elif free:
            tid = free[0]
        else:
            raise EngineError(f"{corp.id} has only {len(trains)} train(s): more routes than trains.",
                              rule="route.one_per_train")
        free.remove(tid)
        if len(stops) < 2:
            raise EngineError(f"A route names at least two stops, e.g. Memphis-Grenada ({tid}).",
                              rule="route.by_name")
        found = [r for r, big in train_routes(game, tid)
                 if _matches(data, stops, list(r.hexes or ())) or _matches(data, stops, big)]
        if not found:
            raise EngineError(f"No legal route of {tid} stops at {', '.join(stops)} in that order.",
                              rule="route.by_name")
        best = max(found, key=lambda r: r.revenue or 0)
        routes.append(best.model_dump(exclude_none=True, exclude={"revenue"}))
    return routes
