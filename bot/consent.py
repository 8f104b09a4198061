"""Consent for a train bought from a corporation whose president is another player: the
seller's president is asked (buttons, as for an undo of another player's move) and the purchase
is made only when they agree, on the game as it was asked about.

Requests are stored (bot/store/asked.py): a button pressed after a restart, or handled by
another bot process, finds its request; an answered one is deleted, so a second press does
nothing. No rules here: who controls the selling corporation is the engine's answer; the
purchase itself is judged by the engine when it is applied."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.core import Who
from bot.replies import BotError, Button, Reply
from bot.store.asked import AskedRecord
from engine import names
from engine.game import Game

if TYPE_CHECKING:
    from bot.core import Live
    from bot.play import ServicePlay

PREFIX = "sale:"


def _asker(asked: AskedRecord) -> Who:
    return Who(asked.asker_id, asked.asker_name, asked.asker_admin)


async def _find(service: ServicePlay, who: Who, kind: str, asked_id: int, gone: str,
                not_yours: str) -> AskedRecord:
    """The stored request a button names, if it is still there and `who` may answer it."""
    asked = await service.asked.get(kind, asked_id)
    if asked is None:
        raise BotError(gone)
    if who.user_id != asked.answerer_id:
        raise BotError(not_yours)
    return asked


async def _current(service: ServicePlay, asked: AskedRecord, moved: str) -> Live:
    """The caller holds the game's lock: the game in memory, with `asked` answered (deleted);
    BotError(moved) when the game has moved on (or ended) since it was asked, or when the
    request was answered meanwhile."""
    if not await service.asked.drop(asked.id):
        raise BotError("This request was answered already.")
    live = await service._live(asked.game_id)
    if len(live.records) != asked.log_length or live.record.status != "active":
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
    request_id = await service.asked.create("sale", game_id, log_length, dict(action),
                                            who.user_id, who.name, who.is_admin, seller_user,
                                            what)
    return Reply(
        f"<@{seller_user}>, **{who.name}** wants to buy {what}. {seller_name}, as {corp}'s "
        "president, do you agree?",
        mention=(seller_user,),
        buttons=[Button(f"{PREFIX}yes:{request_id}", "Sell", "success"),
                 Button(f"{PREFIX}no:{request_id}", "Refuse", "danger")],
    )


async def answer(service: ServicePlay, who: Who, request_id: int, accept: bool,
                 interaction_id: str | None) -> Reply:
    """The seller's president answers: the purchase is made (as the buyer's move) or not."""
    request = await _find(service, who, "sale", request_id,
                          "This train sale request no longer exists (ask again).",
                          "Only the selling corporation's president can answer.")
    async with service._locks[request.game_id]:
        live = await _current(service, request,
                              "The game has moved on since this request; ask again.")
        if not accept:
            return Reply(f"**{who.name}** refuses to sell {request.what}.")
        buyer = _asker(request)
        reply, draw = await service._apply(live, buyer, request.action, interaction_id,
                                           user_id=buyer.user_id)
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
    proposal_id = await service.asked.create("run", game_id, log_length, dict(action),
                                             who.user_id, who.name, who.is_admin, who.user_id)
    said = await service.run_engine(describe_run, game, list(action.get("routes") or []))
    return Reply(
        f"{action.get('entity')}'s best run: {said}\nRun it with the button, or give your own "
        "routes: /run routes:Memphis-Grenada;Jackson-Meridian (stops per train).",
        ephemeral=True,
        buttons=[Button(f"{RUN_PREFIX}yes:{proposal_id}", "Run these routes", "success")],
    )


async def confirm(service: ServicePlay, who: Who, proposal_id: int,
                  interaction_id: str | None) -> Reply:
    """The president confirms the proposed run: it is applied as their move (a refusal as a
    private reply, a fault logged with its id)."""
    from bot.commands import answered

    return await answered(_run(service, who, proposal_id, interaction_id), "run confirmation")


async def _run(service: ServicePlay, who: Who, proposal_id: int,
               interaction_id: str | None) -> Reply:
    proposal = await _find(service, who, "run", proposal_id,
                           "This proposal no longer exists: use /run again.",
                           "Only the player who asked for this run can confirm it.")
    async with service._locks[proposal.game_id]:
        live = await _current(service, proposal,
                              "The game has moved on since this proposal: use /run again.")
        reply, draw = await service._apply(live, _asker(proposal), proposal.action,
                                           interaction_id)
    service._draw(reply, draw)
    return reply
