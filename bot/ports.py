"""The bot's seam with engine/ and render/: the two ports tests substitute, typed as Protocols
(`EnginePort`: how the service makes a game, `Renderer`: a view to PNG bytes) with their real
implementations, and the few engine calls the bot combines (an import that can be stopped, the
best run for the operating corporation, who controlled an entity then, a title's facts).
Everything else in the bot calls the engine's public API (docs/ENGINE-API.md) directly."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import render
from engine.actions import Action
from engine.core.data import load_title_data
from engine.game import Game
from engine.io.export18xx import import_game as engine_import
from engine.legal import Legal
from engine.routes.api import best_routes_for
from engine.view import GameView

Players = Sequence[tuple[str, str]]  # (engine id, name) per seat, in seat order


class ImportStopped(Exception):
    """An import's replay was stopped (it ran past its time)."""


class EnginePort(Protocol):
    """How the service makes a game from a stored record (a test's port makes games that fail
    on purpose)."""

    def new_game(self, title: str, players: Players, options: Sequence[str]) -> Game: ...


class RealEngine:
    """engine/ as documented in docs/ENGINE-API.md."""

    def new_game(self, title: str, players: Players, options: Sequence[str]) -> Game:
        return Game(title, list(players), list(options))


def import_game(data: dict[str, Any], stop: Callable[[], bool] | None = None) -> Game:
    """Replay an 18xx.games export; `stop()` is asked before each action and, once true, ends
    the replay with ImportStopped."""

    def before(_game: Game, _act: Action) -> None:
        if stop is not None and stop():
            raise ImportStopped

    return engine_import(data, before=before)


def controller_at(actions: Sequence[dict[str, Any]], title: str, players: Players,
                  options: Sequence[str], entity: str, entity_type: str) -> str | None:
    """The player controlling `entity` after the recorded `actions` (its president then)."""
    if entity_type == "player":
        return entity
    game = Game(title, list(players), list(options))
    game.load_log(list(actions), accepted=True)  # a stored game's moves
    return game.title.controller(game, entity, entity_type)


def best_routes(game: Game) -> list[dict[str, Any]]:
    """The best run for the operating corporation: the one the legal answer offers when the
    rules require it in this position (1870 connection run: a route between home and
    destination), else the solver's."""
    legal: Legal = game.legal()
    for choice in legal.choices:
        if choice.get("type") == "run_routes":
            return list(choice.get("routes", []))
    solution = best_routes_for(game, time_limit_ms=2000)
    return [r.model_dump(exclude_none=True) for r in solution.routes]


def title_meta(title: str) -> dict[str, Any]:
    """A title's facts (players min/max, optional rules) from its data."""
    return dict(load_title_data(title).meta)


class Renderer(Protocol):
    """A view to PNG bytes (None: nothing to draw); tests pass one that waits or counts."""

    def render(self, kind: str, view: GameView,
               clocks: Mapping[str, float] | None = None) -> bytes | None: ...


class RealRenderer:
    """render/: kind is map, closeup (around view.last_hexes), market, status, card; also
    "region:A2-D7" (one of render.map_regions(view.data)) and "area:E5" (a close-up around
    any hex), both legible in a phone preview. An unknown kind or place draws nothing.

    kept_map_bytes: the budget of the full maps each drawing process keeps to patch a game's
    next map from its last (render.mapkeep; `keeping` names the game)."""

    def __init__(self, kept_map_bytes: int | None = None) -> None:
        from render.mapkeep import DEFAULT_BUDGET

        self.kept_map_bytes = DEFAULT_BUDGET if kept_map_bytes is None else kept_map_bytes

    def keeping(self, game: object) -> AbstractContextManager[None]:
        """Inside: the full maps drawn are this game's (kept and patched as its own)."""
        from render.mapkeep import kept_for

        return kept_for(game, self.kept_map_bytes)

    def warm(self) -> None:
        """Draw each title's start board once (a render worker's start: render.warm)."""
        from render.warm import warm_up

        warm_up()

    def render(self, kind: str, view: GameView,
               clocks: Mapping[str, float] | None = None) -> bytes | None:
        """clocks: seconds each player (engine id) has spent on turns, shown on the card."""
        what, _, arg = kind.partition(":")
        match what:
            case "map":
                return render.render_map(view)
            case "closeup":  # the hexes of the last move, legible on a phone
                return render.render_map(view, focus=tuple(view.last_hexes))
            case "market":
                return render.render_market(view)
            case "status":
                return render.render_status(view)
            case "card":
                return render.render_card(view, clocks=clocks)
            case "region" if arg in render.map_regions(view.data):
                return render.render_region(view, arg)
            case "area" if arg in view.data.hexes:
                return render.render_map(view, focus=(arg,))
        return None

