"""A simple draft: in turn, each player buys exactly one private company at face value."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import EngineError
from engine.flow.base import Round

if TYPE_CHECKING:
    from engine.game import Game


class DraftRound(Round):
    kind = "draft"

    def __init__(self, game: Game, reverse: bool = True) -> None:
        super().__init__(game)
        ids = [p.id for p in game.state.players]
        self.order = ids[::-1] if reverse else ids
        self.index = 0

    def name(self) -> str:
        return "Private Company Draft"

    def current(self) -> tuple[str, str]:
        return (self.order[self.index], "player")

    def kinds(self) -> list[str]:
        return ["bid"]

    def available(self) -> list[Any]:
        return [c for c in self.game.state.companies.values() if c.owner is None and not c.closed]

    def process(self, action: Any) -> None:
        pid = str(action.entity)
        if action.type != "bid":
            raise EngineError("In the draft each player must buy one private company (no passing).",
                              rule="draft.must_buy")
        if pid != self.current()[0]:
            raise EngineError(f"It is {self.game.player_name(self.current()[0])}'s turn to draft.",
                              rule="turn.wrong_player")
        st = self.game.state
        company = st.companies.get(action.company)
        if company is None or company.owner is not None or company.closed:
            raise EngineError(f"{action.company} is not available in the draft.", rule="draft.company")
        if action.price != company.value:
            raise EngineError(f"{company.id} costs exactly its face value, ${company.value}.",
                              rule="draft.price")
        player = st.player(pid)
        if player.cash < company.value:
            raise EngineError(f"You cannot afford {company.id} (${company.value}).", rule="draft.cash")
        player.cash -= company.value
        st.bank.cash += company.value
        company.owner = pid
        self.index += 1
        if self.index >= len(self.order):
            for c in self.available():
                c.closed = True
            st.priority = 0
            self.finished = True
