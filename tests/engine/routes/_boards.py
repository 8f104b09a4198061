"""Helpers for route tests: hand-built boards on the real title maps."""

from __future__ import annotations

from engine.core.data import load_title_data
from engine.routes.graph import Link, TrackGraph
from engine.routes.types import Board, RouteRules

MS_PASS = frozenset({"A1", "I1"})


def ms_board(
    tiles: dict[str, tuple[str, int]], tokens: dict[tuple[str, int], tuple[str | None, ...]]
) -> Board:
    return Board(load_title_data("18MS"), tiles, tokens)


def ms_rules(phase: str = "2") -> RouteRules:
    return RouteRules(phase=phase, pass_through_offboards=MS_PASS)


# Memphis (A1, IC home) - Grenada town (B2, tile 58 rot 2) - tile 9 straights to Chattanooga
IC_LINE = {"B2": ("58", 2), "B4": ("9", 1), "B6": ("9", 1), "B8": ("9", 1), "B10": ("9", 1)}


def all_lines(graph: TrackGraph, max_links: int) -> list[list[Link]]:
    """Every line of up to `max_links` links (no node or track twice) from every node: the
    brute-force tests judge each with check_line."""
    lines: list[list[Link]] = []

    def grow(acc: list[Link], nodes: set[int], mask: int) -> None:
        lines.append(list(acc))
        if len(acc) >= max_links:
            return
        for lk in graph.links_from[acc[-1].b]:
            if lk.b in nodes or lk.mask & mask:
                continue
            acc.append(lk)
            grow(acc, nodes | {lk.b}, mask | lk.mask)
            acc.pop()

    for links in graph.links_from:
        for lk in links:
            grow([lk], {lk.a, lk.b}, lk.mask)
    return lines
