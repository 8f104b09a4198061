"""Helpers for route tests: hand-built boards on the real title maps."""

from __future__ import annotations

from engine.core.data import load_title_data
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
