"""The only places the bot touches engine/ and render/: `RealEngine` (new, import, export,
apply through the engine's own objects, best routes) and `RealRenderer` (a view to PNG bytes),
each behind a small Protocol so tests and benches can pass their own."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

log = logging.getLogger(__name__)


class ImportStopped(Exception):
    """An import's replay was stopped (it ran past its time)."""


class EnginePort(Protocol):
    def new_game(
        self, title: str, players: Sequence[tuple[str, str]], options: Sequence[str], seed: int
    ) -> Any: ...
    def is_rejection(self, err: Exception) -> bool: ...
    def dump(self, action: Any) -> dict[str, Any]: ...
    def import_game(self, data: dict[str, Any], stop: Callable[[], bool] | None = None) -> Any: ...
    def export_game(self, game: Any, meta: dict[str, Any]) -> dict[str, Any]: ...
    def best_routes(self, game: Any) -> list[dict[str, Any]] | None: ...
    def title_meta(self, title: str) -> dict[str, Any]: ...


class RealEngine:
    """engine/ as documented in docs/ENGINE-API.md, imported lazily."""

    def new_game(
        self, title: str, players: Sequence[tuple[str, str]], options: Sequence[str], seed: int
    ) -> Any:
        from engine.game import Game

        kwargs: dict[str, Any] = {"players": list(players), "options": list(options)}
        if "seed" in inspect.signature(Game).parameters:
            kwargs["seed"] = seed
        return Game(title, **kwargs)

    def is_rejection(self, err: Exception) -> bool:
        from engine import EngineError

        return isinstance(err, EngineError)

    def dump(self, action: Any) -> dict[str, Any]:
        from engine import dump_action

        return dump_action(action) if not isinstance(action, dict) else dict(action)

    def import_game(self, data: dict[str, Any], stop: Callable[[], bool] | None = None) -> Any:
        """Replay an export; `stop()` is asked before each action and, once true, ends the
        replay with ImportStopped."""
        from engine.io.export18xx import import_game

        def before(_game: Any, _act: Any) -> None:
            if stop is not None and stop():
                raise ImportStopped
        return import_game(data, before=before)

    def check_export(self, data: Any) -> None:
        """Refuse (EngineError) a file that is not a usable 18xx.games export."""
        from engine.io.export18xx import check_export

        check_export(data)

    def controller_at(self, actions: Sequence[dict[str, Any]], title: str,
                      players: Sequence[tuple[str, str]], options: Sequence[str],
                      entity: str, entity_type: str) -> str | None:
        """The player controlling `entity` after the recorded `actions` (its president then)."""
        from engine.game import Game

        game = Game(title, list(players), list(options))
        game.load_log(list(actions))
        if entity_type == "player":
            return entity
        return game.title.controller(game, entity, entity_type)

    def export_game(self, game: Any, meta: dict[str, Any]) -> dict[str, Any]:
        from engine.io.export18xx import export_game

        params = inspect.signature(export_game).parameters
        kwargs = {k: v for k, v in meta.items() if k in params}
        return dict(export_game(game, **kwargs))

    def best_routes(self, game: Any) -> list[dict[str, Any]] | None:
        """The solver's best run for the operating corporation (None: no solver)."""
        try:
            from engine.routes.api import best_routes_for
        except ImportError:
            return None
        # a run the rules require in this position (1870 connection run: a route between home
        # and destination) is offered by the engine's legal answer: use it
        for choice in getattr(game.legal(), "choices", ()):
            if choice.get("type") == "run_routes":
                return list(choice.get("routes", []))
        solution = best_routes_for(game, time_limit_ms=2000)
        return [
            r if isinstance(r, dict) else r.model_dump(exclude_none=True) for r in solution.routes
        ]

    def title_meta(self, title: str) -> dict[str, Any]:
        from engine.core.data import load_title_data

        return dict(load_title_data(title).meta)


class Renderer(Protocol):
    def render(self, kind: str, view: Any) -> bytes | None: ...


class RealRenderer:
    """render/ (render_map / render_market / render_status: view -> PNG), if it is installed."""

    def __init__(self) -> None:
        self._missing: set[str] = set()

    def render(self, kind: str, view: Any) -> bytes | None:
        """kind: map, closeup (around view.last_hexes), market, status, card; also
        "region:A2-D7" (one of render.map_regions(view.data)) and "area:E5" (a close-up around
        any hex), both legible in a phone preview."""
        if kind.startswith(("region:", "area:")):
            return self._part(kind, view)
        name = "render_map" if kind == "closeup" else f"render_{kind}"
        if name in self._missing:
            return None
        try:
            import render

            fn = getattr(render, name, None)
            if fn is None:
                module = __import__(f"render.{name[len('render_'):]}", fromlist=[name])
                fn = getattr(module, name)
        except (ImportError, AttributeError):
            log.warning("render.%s is not available: posting text only", name)
            self._missing.add(name)
            return None
        if kind == "closeup":  # the hexes of the last move, legible on a phone
            return bytes(fn(view, focus=tuple(getattr(view, "last_hexes", ()))))
        return bytes(fn(view))

    def _part(self, kind: str, view: Any) -> bytes | None:
        what, _, arg = kind.partition(":")
        try:
            import render
        except ImportError:
            return None
        if what == "region":
            if arg not in render.map_regions(view.data):
                return None
            return bytes(render.render_region(view, arg))
        if arg not in view.data.hexes:
            return None
        return bytes(render.render_map(view, focus=(arg,)))
