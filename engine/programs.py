"""Programmed moves: a player's standing orders, as the 18xx.games site has them.

A player sets an order with a logged action of their own:

- `program_share_pass {unconditional, indefinite}`: pass in the stock round whenever the turn
  comes to them. Unless `unconditional`, the order is cancelled (`program_disable` with the
  reason) at their next turn after something changed in the round: shares were sold, a
  corporation was started (parred), a corporation redeemed a share (1870), or another player
  bought into a corporation they preside holding less than half of it. Unless
  `indefinite`, the order ends with the stock round.
- `program_buy_shares {corporation, until_condition, from_market, auto_pass_after}`: buy one
  share of the corporation at each turn (from the initial offering, or the open market with
  `from_market`) and pass, until the corporation floats (`"float"`) or the player holds that
  many shares (a number); then the order is cancelled with the site's reason. The same changes
  as above cancel it; so does a share it cannot buy. It ends with the stock round.
- `program_disable {reason}`: the player cancels their order (or the engine does, with the
  site's reason, as one of the automatic actions).

An order changes nothing by itself. After every live move the engine looks at whoever must
act: while that is a player with an order in a stock round, it makes the ordered moves itself
and records them as the move's `auto_actions` (`pass`, `buy_shares`, `program_disable`),
which is how the site records them. A replay applies the recorded automatic actions; an
undo of the move undoes them with it.

The orders live in `State.programs` (player id -> the order as logged, plus the reason a
change gave, if any), so snapshots and undo keep them like any other state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.state import IPO, MARKET

if TYPE_CHECKING:
    from engine.game import Game

PROGRAM_TYPES = ("program_share_pass", "program_buy_shares", "program_disable")
MAX_AUTO = 400  # programmed moves after one move (a whole stock round of passes is far below)


def _programs(game: Game) -> dict[str, dict[str, Any]]:
    return game.state.programs


def active(game: Game, pid: str) -> dict[str, Any] | None:
    """The order `pid` has standing (as logged, with "pending": a change's reason), or None."""
    return _programs(game).get(pid)


def describe(order: dict[str, Any]) -> str:
    """An order in plain words ("pass in stock rounds", "buy GMO until it floats")."""
    if order["type"] == "program_share_pass":
        words = "pass in this stock round" if not order.get("indefinite") else "pass in every stock round"
        return words + (" whatever happens" if order.get("unconditional") else
                        " until something changes")
    until = order.get("until_condition")
    src = "the open market" if order.get("from_market") else "the initial offering"
    goal = "until it floats" if until == "float" else f"until holding {until} shares"
    return f"buy {order.get('corporation')} from {src} {goal}"


# ------------------------------------------------------------------ live checks
def check_order(game: Game, act: Any) -> None:
    """Why a player's live order is refused (EngineError naming the rule), or nothing."""
    st = game.state
    if act.entity_type != "player" or not any(p.id == str(act.entity) for p in st.players):
        raise EngineError("A programmed move is a player's own order: its entity is a player of "
                          "this game.", rule="program.player")
    pid = str(act.entity)
    if st.player(pid).bankrupt:
        raise EngineError("A bankrupt player has no moves to program.", rule="program.player")
    if act.type == "program_disable":
        if pid not in _programs(game):
            raise EngineError(f"{game.player_name(pid)} has no programmed move to cancel.",
                              rule="program.none")
        return
    if act.type == "program_share_pass":
        return
    corp = st.corporations.get(str(act.corporation))
    if corp is None or corp.kind != "corporation" or corp.closed:
        raise EngineError(f"There is no open corporation {act.corporation} to buy shares of.",
                          rule="program.corporation")
    if not corp.ipoed:
        raise EngineError(f"{corp.id} has not been started: an auto-buy buys shares of a "
                          "corporation whose par is set.", rule="program.corporation")
    until = act.until_condition
    if until == "float":
        if corp.floated:
            raise EngineError(f"{corp.id} has already floated: buy until a number of shares "
                              "instead.", rule="program.until")
    elif isinstance(until, int) and not isinstance(until, bool) and 0 < until <= 10:
        held = shares.percent(corp, pid) // 10
        if held >= until:
            raise EngineError(f"{game.player_name(pid)} already holds {held} shares of "
                              f"{corp.id}.", rule="program.until")
    else:
        raise EngineError("An auto-buy goes on until the corporation floats (\"float\") or "
                          "until holding a number of shares (1 to 10).", rule="program.until")


def offers(game: Game, pid: str) -> list[dict[str, Any]]:
    """The orders `pid` may give now, as complete actions (the legal answer's programs)."""
    st = game.state
    if game.finished or not any(p.id == pid and not p.bankrupt for p in st.players):
        return []
    base = {"entity": pid, "entity_type": "player"}
    out: list[dict[str, Any]] = [
        {**base, "type": "program_share_pass", "unconditional": False, "indefinite": False},
        {**base, "type": "program_share_pass", "unconditional": False, "indefinite": True},
    ]
    for corp in st.corporations.values():
        if corp.kind == "corporation" and corp.ipoed and not corp.closed and not corp.floated:
            out.append({**base, "type": "program_buy_shares", "corporation": corp.id,
                        "until_condition": "float", "from_market": False,
                        "auto_pass_after": False})
    if pid in _programs(game):
        out.append({**base, "type": "program_disable", "reason": "user"})
    return out


# ------------------------------------------------------------------ state changes
def record(game: Game, act: Any) -> None:
    """A logged order (or its cancelling) takes effect."""
    pid = str(act.entity)
    progs = _programs(game)
    if act.type == "program_disable":
        progs.pop(pid, None)
        return
    order = {k: v for k, v in act.model_dump(exclude_none=True).items()
             if k not in ("id", "entity", "entity_type", "auto_actions", "created_at", "user")}
    order["pending"] = None
    progs[pid] = order


def observe(game: Game, act: Any, was_stock: bool, round_before: Any) -> None:
    """After a move: note what it changed for the standing orders, and end the orders of a
    stock round that has just ended."""
    progs = _programs(game)
    if not progs:
        return
    if was_stock:
        for pid, reason in _changes(game, act):
            order = progs.get(pid)
            if order is not None and order.get("pending") is None and not order.get("unconditional"):
                order["pending"] = reason
    if was_stock and game.round is not round_before:
        for pid in [p for p, o in progs.items()
                    if o["type"] != "program_share_pass" or not o.get("indefinite")]:
            del progs[pid]


def _changes(game: Game, act: Any) -> list[tuple[str, str]]:
    """(player, reason) for each order `act` cancels at its owner's next turn."""
    st = game.state
    progs = _programs(game)
    actor = str(act.entity)
    others = [p for p in progs if p != actor]
    if act.type == "sell_shares" and act.entity_type == "player":
        return [(p, "Shares were sold") for p in others]
    if act.type == "par":
        # the site's auto-buy lets the first stock round's pars go by; an auto-pass does not
        return [(p, f"Corporation {act.corporation} parred") for p in others
                if progs[p]["type"] == "program_share_pass" or game.turn > 1]
    if act.type != "buy_shares" or not act.shares:
        return []
    corp = st.corporations.get(str(act.shares[0]).rsplit("_", 1)[0])
    if corp is None:
        return []
    if act.entity_type == "corporation":
        return [(p, f"{act.entity} redeemed a share.") for p in progs]
    pres = shares.president(corp)
    if pres is None or pres == actor or pres not in others:
        return []
    if progs[pres].get("corporation") == corp.id:  # the corporation an auto-buy is buying
        return []
    if shares.percent(corp, pres) < 50:  # a president short of half may be overtaken
        return [(pres, f"{game.player_name(actor)} bought on corporation {corp.id} and is unsecure")]
    return []


# ------------------------------------------------------------------ firing
def due(game: Game) -> tuple[str, dict[str, Any]] | None:
    """The player whose order acts now, and the order: a stock round waits on them, or (1870)
    an answer to a sale, also in an operating round (the site's orders act there too; an
    auction or a draft is not theirs)."""
    progs = _programs(game)
    if not progs or game.finished:
        return None
    if game.round.kind != "stock" and not _protecting(game.round):
        return None
    eid, etype = game.round.current()
    if etype != "player" or eid not in progs:
        return None
    return eid, progs[eid]


def next_moves(game: Game, pid: str, order: dict[str, Any]) -> list[dict[str, Any]]:
    """The moves `pid`'s order makes now (none: it waits). An auto-buy with `auto_pass_after`
    that reaches its goal ends and gives way to an auto-pass for the round, as the site's."""
    move = next_move(game, pid, order)
    if move is None:
        return []
    if (move["type"] == "program_disable" and order.get("auto_pass_after")
            and str(move["reason"]).endswith(_GOALS)):
        return [move, {"type": "program_share_pass", "entity": pid, "entity_type": "player",
                       "unconditional": False, "indefinite": False}]
    return [move]


_GOALS = (" is floated", ", end condition met")


def next_move(game: Game, pid: str, order: dict[str, Any]) -> dict[str, Any] | None:
    """The move `pid`'s order makes now (None: it makes none and stays)."""
    base = {"entity": pid, "entity_type": "player"}
    kinds = game.round.kinds()
    if order["type"] == "program_share_pass":
        if order.get("pending"):
            return {"type": "program_disable", **base, "reason": order["pending"]}
        return {"type": "pass", **base} if "pass" in kinds else None
    st = game.state
    corp = st.corporations.get(str(order.get("corporation")))
    if corp is None:
        return {"type": "program_disable", **base, "reason": "The corporation is gone"}
    until = order.get("until_condition")
    done = None
    if until == "float":
        if corp.floated:
            done = f"{corp.id} is floated"
    elif isinstance(until, int) and shares.percent(corp, pid) // 10 >= until:
        done = f"{until} share(s) bought in {corp.id}, end condition met"
    if done is not None:
        return {"type": "program_disable", **base, "reason": done}
    source = MARKET if order.get("from_market") else IPO
    where = "market" if source == MARKET else "IPO"
    if len({c.percent for c in corp.certs if c.owner == source}) > 1:
        return {"type": "program_disable", **base,
                "reason": f"Shares of different sizes exist, cannot auto buy {corp.id} from {where}"}
    rnd: Any = game.round
    bought = getattr(getattr(rnd, "turn_state", None), "bought", False)
    cert = next((c for c in corp.certs if c.owner == source and not c.president), None)
    if not bought and "buy_shares" not in kinds and not _protecting(rnd):
        return None  # nothing to buy with now (no cash): it waits, as the site's does
    if not bought and (cert is None or _protecting(rnd)
                       or rnd.buy_error(pid, corp, cert) is not None):
        return {"type": "program_disable", **base, "reason": f"Cannot buy {corp.id} from {where}"}
    if order.get("pending"):
        return {"type": "program_disable", **base, "reason": order["pending"]}
    if bought or cert is None:
        return {"type": "pass", **base} if "pass" in kinds else None
    return {"type": "buy_shares", **base, "shares": [cert.id], "percent": cert.percent}


def _protecting(rnd: Any) -> bool:
    """1870: the turn is a president's answer to a sale (price protection), not a turn."""
    check = getattr(rnd, "in_protection", None)
    return bool(callable(check) and check())
