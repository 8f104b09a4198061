"""Consent for a train bought from a corporation whose president is another player: the
seller's president is asked (buttons, as for an undo of another player's move) and the purchase
is made only when they agree, on the game as it was asked about.

Requests live in memory (a restart forgets them: the buyer asks again). No rules here: who
controls the selling corporation is the engine's answer; the purchase itself is judged by the
engine when it is applied."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from bot.replies import BotError, Button, Reply
from engine import names
from engine.game import Game

if TYPE_CHECKING:
    from bot.core import Live, Who
    from bot.play import ServicePlay

PREFIX = "sale:"


@dataclass(slots=True)
class Asked:
    """A move waiting for a button, on the game as it was when it was asked."""

    id: int
    game_id: int
    log_length: int
    action: dict[str, Any]

    def stale(self, live: Live) -> bool:
        """The game has moved on (or ended) since."""
        return len(live.records) != self.log_length or live.record.status != "active"


@dataclass(slots=True)
class SaleRequest(Asked):
    buyer: Who
    seller_user: int
    what: str  # the purchase in words


@dataclass(slots=True)
class RunProposal(Asked):
    who: Who


@dataclass(slots=True)
class Waiting:
    """A service's requests waiting for their answer, by id (in memory only)."""

    sales: dict[int, SaleRequest] = field(default_factory=dict)
    runs: dict[int, RunProposal] = field(default_factory=dict)


_ids = itertools.count(1)
A = TypeVar("A", bound=Asked)


async def _current(service: ServicePlay, asked: A, waiting: dict[int, A], moved: str) -> Live:
    """The caller holds the game's lock: the game in memory, with `asked` answered (no longer
    waiting); BotError(moved) when the game has moved on since it was asked."""
    live = await service._live(asked.game_id)
    waiting.pop(asked.id, None)
    if asked.stale(live):
        raise BotError(moved)
    return live


def seller_to_ask(game: Game, action: dict[str, Any], buyer: str) -> tuple[str, str] | None:
    """On an engine thread: (the selling corporation, its president's player id) when the
    train belongs to a corporation another player presides; else None."""
    train = next((t for t in game.state.trains if t.id == action.get("train")), None)
    if train is None or train.owner not in game.state.corporations:
        return None
    owner = game.state.corporations[train.owner]
    president = game.title.controller(game, owner.id, owner.kind)
    if president is None or str(president) == str(buyer):
        return None
    return owner.id, str(president)


async def ask(service: ServicePlay, who: Who, game_id: int, log_length: int,
              action: dict[str, Any], corp: str, seller_user: int, seller_name: str) -> Reply:
    """The request, pinging the selling corporation's president with the two buttons."""
    name = str(action.get("train", "?")).rsplit("-", 1)[0]
    what = f"{names.train(name, action.get('price'))} from {corp} for {action.get('entity')}"
    request = SaleRequest(next(_ids), game_id, log_length, dict(action), who, seller_user, what)
    service.waiting.sales[request.id] = request
    return Reply(
        f"<@{seller_user}>, **{who.name}** wants to buy {what}. {seller_name}, as {corp}'s "
        "president, do you agree?",
        mention=(seller_user,),
        buttons=[Button(f"{PREFIX}yes:{request.id}", "Sell", "success"),
                 Button(f"{PREFIX}no:{request.id}", "Refuse", "danger")],
    )


async def answer(service: ServicePlay, who: Who, request_id: int, accept: bool,
                 interaction_id: str | None) -> Reply:
    """The seller's president answers: the purchase is made (as the buyer's move) or not."""
    request = service.waiting.sales.get(request_id)
    if request is None:
        raise BotError("This train sale request no longer exists (ask again).")
    if who.user_id != request.seller_user:
        raise BotError("Only the selling corporation's president can answer.")
    async with service._locks[request.game_id]:
        live = await _current(service, request, service.waiting.sales,
                              "The game has moved on since this request; ask again.")
        if not accept:
            return Reply(f"**{who.name}** refuses to sell {request.what}.")
        reply, draw = await service._apply(live, request.buyer, request.action, interaction_id,
                                           user_id=request.buyer.user_id)
    service._draw(reply, draw)
    reply.text = f"**{who.name}** agrees to sell.\n" + reply.text
    return reply


async def answer_reply(service: ServicePlay, who: Who, request_id: int, accept: bool,
                       interaction_id: str | None) -> Reply:
    """`answer`, with a refusal as a private reply and a fault logged with its id."""
    from bot.commands import answered

    return await answered(answer(service, who, request_id, accept, interaction_id),
                          "train sale answer")


# -- the best run, shown to the president to confirm ---------------------------------------

RUN_PREFIX = "run:"


def describe_run(game: Game, routes: list[dict[str, Any]]) -> str:
    """On an engine thread: each train's stops and revenue, and the total."""
    data = game.title.data
    parts = []
    for r in routes:
        name = names.train_name(game, str(r.get("train")))
        stops = "-".join((data.hexes[h].location or h) if h in data.hexes else str(h)
                         for h in r.get("hexes") or ())
        worth = f" ${r['revenue']}" if r.get("revenue") is not None else ""
        parts.append(f"{names.train(name)} {stops}{worth}".strip())
    total = sum(int(r.get("revenue") or 0) for r in routes)
    return ("; ".join(parts) or "no route") + f". Total ${total}."


async def propose(service: ServicePlay, who: Who, game_id: int, log_length: int,
                  action: dict[str, Any], game: Game) -> Reply:
    """The solver's best run, for the president to confirm with a button."""
    proposal = RunProposal(next(_ids), game_id, log_length, dict(action), who)
    service.waiting.runs[proposal.id] = proposal
    said = await service.run_engine(describe_run, game, list(action.get("routes") or []))
    return Reply(
        f"{action.get('entity')}'s best run: {said}\nRun it with the button, or give your own "
        "routes: /run routes:Memphis-Grenada;Jackson-Meridian (stops per train).",
        ephemeral=True,
        buttons=[Button(f"{RUN_PREFIX}yes:{proposal.id}", "Run these routes", "success")],
    )


async def confirm(service: ServicePlay, who: Who, proposal_id: int,
                  interaction_id: str | None) -> Reply:
    """The president confirms the proposed run: it is applied as their move (a refusal as a
    private reply, a fault logged with its id)."""
    from bot.commands import answered

    return await answered(_run(service, who, proposal_id, interaction_id), "run confirmation")


async def _run(service: ServicePlay, who: Who, proposal_id: int,
               interaction_id: str | None) -> Reply:
    proposal = service.waiting.runs.get(proposal_id)
    if proposal is None:
        raise BotError("This proposal no longer exists: use /run again.")
    if who.user_id != proposal.who.user_id:
        raise BotError("Only the player who asked for this run can confirm it.")
    async with service._locks[proposal.game_id]:
        live = await _current(service, proposal, service.waiting.runs,
                              "The game has moved on since this proposal: use /run again.")
        reply, draw = await service._apply(live, proposal.who, proposal.action, interaction_id)
    service._draw(reply, draw)
    return reply
