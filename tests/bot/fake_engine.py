"""A tiny turn-based game standing in for engine.Game in the bot's tests.

It is NOT an engine module: it lives in the tests and only implements the documented surface
the bot uses (apply/legal/view/log/acting_players/finished/result, undo/redo as actions), so
the bot's own behaviour (permissions, idempotency, undo policy, restarts) can be tested while
the real engine is being written. Rules: players take turns; a bid must be at least $20 and
below the bidder's cash; a tile may be laid on E12 or F13; the game ends when every player
passes in a row. State is a fold over the effective log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError


@dataclass(frozen=True)
class FakeLegal:
    entity: str
    entity_type: str
    player: str
    kinds: tuple[str, ...]
    bids: tuple[tuple[str, int], ...] = ()
    tiles: dict[str, list[tuple[str, list[int]]]] = field(default_factory=dict)
    dividends: tuple[str, ...] = ()


@dataclass(frozen=True)
class FakeView:
    round: str
    phase: str
    hexes: dict[str, Any]
    market: dict[tuple[int, int], tuple[str, ...]]
    acting_players: tuple[str, ...]
    finished: bool


class FakeGame:
    def __init__(
        self, title: str, players: list[tuple[str, str]], options: list[str], seed: int = 0
    ) -> None:
        if len(players) < 2:
            raise EngineError("A game needs at least 2 players.", rule="setup.players")
        self.title = title
        self.players = [p for p, _n in players]
        self.names = dict(players)
        self.options = options
        self.log: list[dict[str, Any]] = []
        self._recompute()

    # -- state as a fold over the effective log ----------------------------------------------
    def _effective(self) -> list[dict[str, Any]]:
        stack: list[dict[str, Any]] = []
        undone: list[dict[str, Any]] = []
        for a in self.log:
            if a["type"] == "undo":
                if stack:
                    undone.append(stack.pop())
            elif a["type"] == "redo":
                if undone:
                    stack.append(undone.pop())
            else:
                stack.append(a)
                undone.clear()
        self._undone = undone
        return stack

    def _recompute(self) -> None:
        self.turn = 0
        self.cash = {p: 100 for p in self.players}
        self.hexes: dict[str, Any] = {}
        self.passes = 0
        self.price = 50
        for a in self._effective():
            self._do(a)

    def _do(self, a: dict[str, Any]) -> None:
        who = str(a["entity"])
        if a["type"] == "bid":
            self.cash[who] -= int(a["price"])
            self.price += 10
            self.passes = 0
        elif a["type"] == "lay_tile":
            self.hexes[a["hex"]] = (a["tile"], a["rotation"])
            self.passes = 0
        elif a["type"] == "pass":
            self.passes += 1
        self.turn = (self.turn + 1) % len(self.players)

    @property
    def current(self) -> str:
        return self.players[self.turn]

    @property
    def finished(self) -> bool:
        return self.passes >= len(self.players)

    def result(self) -> dict[str, int]:
        return dict(self.cash)

    def acting_players(self) -> tuple[str, ...]:
        return () if self.finished else (self.current,)

    def legal(self) -> FakeLegal:
        return FakeLegal(
            entity=self.current,
            entity_type="player",
            player=self.current,
            kinds=("bid", "lay_tile", "pass"),
            bids=(("M&O", 20), ("BS", 20)),
            tiles={h: [("57-0", [0, 1, 2])] for h in ("E12", "F13") if h not in self.hexes},
        )

    def view(self) -> FakeView:
        return FakeView(
            round="Stock Round 1",
            phase="2",
            hexes=dict(self.hexes),
            market={(0, self.price // 10): ("GMO",)},
            acting_players=self.acting_players(),
            finished=self.finished,
        )

    def apply(self, action: dict[str, Any]) -> dict[str, Any]:
        a = dict(action)
        kind = a.get("type")
        if kind not in ("undo", "redo"):
            if self.finished:
                raise EngineError("The game is over.", rule="game.over")
            if str(a.get("entity")) != self.current:
                raise EngineError(f"It is {self.names[self.current]}'s turn.", rule="turn")
        if kind == "bid":
            if int(a["price"]) < 20:
                raise EngineError("A bid must be at least $20.", rule="auction.min_bid")
            if int(a["price"]) > self.cash[self.current]:
                raise EngineError("You cannot bid more than your cash.", rule="auction.cash")
        elif kind == "lay_tile":
            if a.get("hex") not in self.legal().tiles:
                raise EngineError(f"No tile can be laid on {a.get('hex')} now.", rule="tile.hex")
        elif kind == "undo":
            if not self._effective():
                raise EngineError("Nothing to undo.", rule="undo.none")
        elif kind == "redo":
            self._effective()
            if not self._undone:
                raise EngineError("Nothing to redo.", rule="redo.none")
        elif kind != "pass":
            raise EngineError(f"{kind} is not allowed now.", rule="kind")
        a["id"] = len(self.log) + 1
        self.log.append(a)
        self._recompute()
        return a


class FakePort:
    """The bot's EnginePort backed by FakeGame."""

    def new_game(self, title: str, players: Any, options: Any, seed: int) -> FakeGame:
        return FakeGame(title, list(players), list(options), seed)

    def is_rejection(self, err: Exception) -> bool:
        return isinstance(err, EngineError)

    def dump(self, action: Any) -> dict[str, Any]:
        return dict(action)

    def import_game(self, data: dict[str, Any]) -> FakeGame:
        game = FakeGame(data["title"], [(str(p["id"]), p["name"]) for p in data["players"]], [])
        for a in data["actions"]:
            game.apply({**a, "entity": str(a["entity"])})
        return game

    def export_game(self, game: FakeGame, meta: dict[str, Any]) -> dict[str, Any]:
        return {
            "id": meta.get("game_id"),
            "title": game.title,
            "players": [{"id": p, "name": game.names[p]} for p in game.players],
            "settings": {"seed": 1, "optional_rules": game.options},
            "actions": list(game.log),
        }

    def best_routes(self, game: Any) -> None:
        return None

    def title_meta(self, title: str) -> dict[str, Any]:
        return {"players": {"min": 2, "max": 4}, "optional_rules": [{"id": "or_11"}]}


class FakeRenderer:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def render(self, kind: str, view: Any) -> bytes:
        self.calls.append(kind)
        return b"\x89PNG\r\n\x1a\n" + kind.encode()
