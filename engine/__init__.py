"""Pure rules engine for 18xx titles (18MS, 1870, 18MEX): no I/O, no clock, deterministic."""

from engine.actions import dump_action, parse_action
from engine.errors import EngineError

__all__ = ["EngineError", "Game", "dump_action", "parse_action"]


def __getattr__(name: str) -> object:  # lazy: keep `import engine.core.data` light
    if name == "Game":
        from engine.game import Game

        return Game
    raise AttributeError(name)
