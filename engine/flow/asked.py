"""A stock round's question that changes nothing (what kinds of move the player has): while it
runs, the player's certificate count and the certificate limit are reckoned once, not once per
certificate and company looked at. Outside such a question they are reckoned every time."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from engine.game import Game


T = TypeVar("T")


class AskedCounts:
    if TYPE_CHECKING:  # (the round's game, see engine/flow/base.py)
        @property
        def game(self) -> Game: ...

    _asked: dict[str | None, int] | None = None  # player -> count, None -> the limit

    def asking(self, ask: Callable[[], T]) -> T:
        if self._asked is not None:
            return ask()
        self._asked = {}
        try:
            return ask()
        finally:
            self._asked = None

    def count_now(self, pid: str) -> int:
        """title.cert_count(game, pid), once per question."""
        asked = self._asked
        if asked is None:
            return self.game.title.cert_count(self.game, pid)
        n = asked.get(pid)
        if n is None:
            n = asked[pid] = self.game.title.cert_count(self.game, pid)
        return n

    def limit_now(self) -> int:
        """title.cert_limit(game), once per question."""
        asked = self._asked
        if asked is None:
            return self.game.title.cert_limit(self.game)
        n = asked.get(None)
        if n is None:
            n = asked[None] = self.game.title.cert_limit(self.game)
        return n
