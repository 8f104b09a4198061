"""What followed from each action, as structured events (derived, never stored).

A `Recorder` takes a digest (engine/digest.py) of the game before an action, one just after the round has
processed it (before any round change: what the action itself did, e.g. a payout), and one
after everything (round changes, automatic steps); `Game.apply` keeps the events of the last
move in `game.last_events`. `story(game)` replays a game's moves in effect on a fresh game and
gives every move with its events (for /history and /catchup). The same moves always give the
same events: they come only from the states and the action.

Event kinds and their `info`:
  round          name, kind, previous                 a new round begins
  phase          phase, previous, train_limit, tiles  a new phase
  rust|obsolete  train (name), owners {corp or "depot": count}, salvage (per train)
  company_closed owner
  float          cash (what the corporation received)
  corp_closed    -
  president      old, new (player ids)
  price          old, new (prices), why: sale | payout | withhold | half | sold_out |
                 no_train | no_route | other
  payout         total, per_share (None for a minor), to {holder: amount}
  half           total, kept, paid, per_share, to
  withhold       total
  run            total (the run's revenue), trains [(name, route revenue or None, stop hexes)]
  split          total, kept, to {owner: amount}      a minor's run paid at once
  income         owner, amount                        a private company pays its owner
  contribution   corp, amount                         the president pays toward a train
  loan           amount (the player's debt now), fee (part of it: what the loan cost)
  interest       amount                               a debt grows
  bankrupt       -
  skip           entity_type, why (no_move), cash, certs, cert_limit
  bank_broken    -
  end_triggered  reason, when: set_end | or_end | after_or (with `or_number`)
  game_over      reason, result {player: value}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from engine.core import shares
from engine.digest import Digest, digest


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    subject: str | None = None  # the entity the event is about (player, corporation, ...)
    info: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.info.get(key, default)


class Recorder:
    """Digests around one action; `finish` gives its events."""

    def __init__(self, game: Any, action: Any) -> None:
        self.action = action
        self.before = _settled_digest(game)
        self.middle: Digest | None = None
        self.skipped: list[str] = []  # players a stock round passed over, automatic actions too

    def mid(self, game: Any) -> None:
        """Called once the round has processed the action, before any round change (the
        first call counts: automatic follow-up actions call it again, and add the players
        their stock round passed over)."""
        rnd = game.round
        if rnd.kind == "stock":
            self.skipped.extend(getattr(rnd, "skipped", ()))
        if self.middle is None:
            self.middle = digest(game)

    def finish(self, game: Any) -> list[Event]:
        after = _settled_digest(game)
        middle = self.middle or after
        if middle.round_kind == "stock":
            middle = middle._replace(skipped=tuple(self.skipped))
        return events_between(game, self.before, middle, after, self.action)


def _settled_digest(game: Any) -> Digest:
    """The digest of the game's state between actions: the one an action's `finish` took is
    the next action's `before` while the state has not changed since (the game counts every
    change of its state: `Game._processed`, as its legal answer's cache does). Kept on the
    game as a cache; digests are only read."""
    processed = getattr(game, "_processed", None)
    key = (processed, id(game.state), id(game.round))
    kept = getattr(game, "digest_memo", None)
    if processed is not None and kept is not None and kept[0] == key:
        return cast(Digest, kept[1])
    made = digest(game)
    if processed is not None:
        game.digest_memo = (key, made)
    return made


def _per_share(game: Any, corp_id: str, total: int) -> int | float | None:
    corp = game.state.corporations.get(corp_id)
    if corp is None or corp.kind != "corporation":
        return None
    value = total * shares.share_percent(corp) / 100
    return int(value) if value == int(value) else round(value, 2)


def _salvage(game: Any, name: str) -> int | None:
    spec = game.title.train_specs.get(name, {})
    value = spec.get("salvage")
    if value is None and isinstance(spec.get("rusts"), dict):
        value = spec["rusts"].get("salvage_paid_to_owning_corporation")
    return int(value) if value else None


def _dividend(game: Any, b: Digest, m: Digest, act: Any) -> list[Event]:
    corp_id = str(act.entity)
    kind = str(getattr(act, "kind", "") or "")
    total = b.revenue if b.revenue is not None else 0
    if kind == "withhold":
        return [Event("withhold", corp_id, {"total": total})]
    to: dict[str, int] = {}
    for pid, cash in m.cash.items():
        if cash > b.cash.get(pid, cash):
            to[pid] = cash - b.cash[pid]
    if corp_id in m.corps and corp_id in b.corps:
        gain = m.corps[corp_id].cash - b.corps[corp_id].cash
        # salvage of its trains that rusted at the end of this round is not a dividend
        for tid, (owner, gone, name) in b.trains.items():
            if owner == corp_id and not gone and m.trains.get(tid, (None, False, ""))[1]:
                gain -= _salvage(game, name) or 0
        if gain > 0:
            to[corp_id] = gain
    if kind == "half":
        # the corporation's gain is what it keeps plus what its own shares earn: split it by
        # what each share earned the players
        corp = game.state.corporations.get(corp_id)
        held = {p.id: shares.percent(corp, p.id) for p in game.state.players} if corp else {}
        paid_pct = sum(held.get(k, 0) for k in to)
        players_paid = sum(v for k, v in to.items() if k != corp_id)
        per_pct = players_paid / paid_pct if paid_pct else 0.0
        own = to.get(corp_id, 0)
        kept = total - players_paid if not per_pct else own - round(
            per_pct * (100 - sum(held.values()) - (corp and shares.percent(corp, "market") or 0)))
        kept = min(max(kept, 0), total)
        if corp_id in to:
            to[corp_id] = own - kept
            if to[corp_id] <= 0:
                del to[corp_id]
        return [Event("half", corp_id, {"total": total, "kept": kept, "paid": total - kept,
                                         "per_share": _per_share(game, corp_id, total - kept),
                                         "to": to})]
    return [Event("payout", corp_id, {"total": total, "per_share": _per_share(game, corp_id, total),
                                      "to": to})]


def _deal(b: Digest, m: Digest, act: Any) -> list[Event]:
    """The action's own deal: certificates bought or sold (what moved, for how much, from
    where), a train bought (from whom)."""
    if act.type in ("buy_shares", "sell_shares", "par") and act.entity is not None:
        who = str(act.entity)
        moved = [(cid, was, m.certs[cid]) for cid, was in b.certs.items()
                 if cid in m.certs and m.certs[cid][1] != was[1]
                 and who in (was[1], m.certs[cid][1])]
        if not moved:
            return []
        verb = "sell" if act.type == "sell_shares" else "buy"
        if act.type == "sell_shares":
            moved = [x for x in moved if x[1][1] == who]
        else:
            moved = [x for x in moved if x[2][1] == who]
        if not moved:
            return []
        old = b.cash.get(who, b.corps[who].cash if who in b.corps else 0)
        new = m.cash.get(who, m.corps[who].cash if who in m.corps else 0)
        sources = sorted({x[1][1] for x in moved}) if verb == "buy" else sorted({x[2][1] for x in moved})
        return [Event("shares", who, {
            "verb": verb, "corp": moved[0][1][0], "percent": sum(x[1][2] for x in moved),
            "president": any(x[1][3] for x in moved), "price": abs(new - old),
            "other": sources[0] if len(sources) == 1 else None})]
    if act.type == "run_routes" and act.entity is not None:
        trains = [(b.trains.get(str(r.train), (None, False, str(r.train)))[2], r.revenue,
                   tuple(r.hexes or ())) for r in (act.routes or [])]
        logged = [r for _t, r, _h in trains]
        total = m.revenue if m.acting == b.acting else (
            sum(int(r) for r in logged) if trains and None not in logged else None)
        return [Event("run", str(act.entity), {"total": total, "trains": trains})]
    if act.type == "buy_train" and act.entity is not None and getattr(act, "train", None):
        was = b.trains.get(str(act.train))
        if was is None:
            return []
        return [Event("train", str(act.entity), {"train": getattr(act, "variant", None) or was[2],
                                                 "price": act.price, "seller": was[0]})]
    return []


def _split(b: Digest, m: Digest, minor: str) -> list[Event]:
    """A minor's run paid at once (no dividend choice): what the minor keeps and what its
    owner receives."""
    before, mid = b.corps.get(minor), m.corps.get(minor)
    if before is None or mid is None or before.kind != "minor" or before.president is None:
        return []
    kept = mid.cash - before.cash
    owner = before.president
    paid = m.cash.get(owner, 0) - b.cash.get(owner, 0)
    if kept <= 0 and paid <= 0:
        return []
    return [Event("split", minor, {"total": max(kept, 0) + max(paid, 0), "kept": max(kept, 0),
                                   "to": {owner: paid} if paid > 0 else {}})]


def _price_why(b: Digest, a: Digest, act: Any, corp_id: str, old: int, new: int) -> str:
    kind = act.type
    if kind == "dividend" and str(act.entity) == corp_id:
        return str(getattr(act, "kind", "") or "payout")
    if kind == "sell_shares" or (b.round_kind == "stock" and new < old and a.round_key == b.round_key):
        return "sale"
    if b.round_kind == "stock" and a.round_key != b.round_key and new > old:
        return "sold_out"  # the only rise at the end of a stock round
    if b.round_kind == "operating" and new < old and b.acting[0] == corp_id:
        return "no_train" if b.corps[corp_id].trains == 0 else "no_route"
    return "other"


def _player_skips(game: Any, a: Digest, pids: tuple[str, ...]) -> list[Event]:
    return [Event("skip", pid, {"entity_type": "player", "why": "no_move", "cash": a.cash[pid],
                                "certs": game.title.cert_count(game, pid),
                                "cert_limit": game.title.cert_limit(game)})
            for pid in pids if pid in a.cash and pid not in a.bankrupt]


def _skips(game: Any, b: Digest, m: Digest, a: Digest, act: Any) -> list[Event]:
    """Entities whose turn came and went inside this action: in a stock round the players the
    round passed over for having nothing to do (also as it ends, and as a new one starts);
    in an operating round the corporations passed over (the same round going on)."""
    out: list[Event] = []
    if b.round_kind == "stock" and m.round_kind == "stock" and m.round_key == b.round_key:
        out += _player_skips(game, a, m.skipped)
    if a.round_kind == "stock" and a.round_key != m.round_key and not a.finished:
        out += _player_skips(game, a, a.skipped)  # a new stock round began with them
    if a.round_key != b.round_key or a.finished:
        return out
    if b.round_kind == "operating" and a.order and a.order == b.order:  # (a merger reorders)
        order = list(a.order)
        # only from the operating corporation's own turn (an 18MEX merger offer interrupts it)
        if (b.acting[0] in order and a.acting[0] in order and b.acting[0] == b.turn_corp
                and a.acting[0] == a.turn_corp):
            i, j = order.index(b.acting[0]), order.index(a.acting[0])
            for cid in order[i + 1:j]:
                out.append(Event("skip", cid, {"entity_type": "corporation", "why": "no_move"}))
    return out


def events_between(game: Any, b: Digest, m: Digest, a: Digest, act: Any) -> list[Event]:
    """The events of `act`, from the digests before it, after its round processed it (`m`)
    and after everything; `game` is in the state after (for names and limits)."""
    out: list[Event] = _deal(b, m, act)
    if act.type == "dividend" and act.entity is not None:
        out.extend(_dividend(game, b, m, act))
    if act.type == "run_routes" and act.entity is not None:
        out.extend(_split(b, m, str(act.entity)))
    for cid, ca in a.corps.items():
        cb = b.corps.get(cid)
        if cb is None:
            continue
        if cb.price is not None and ca.price is not None and cb.price != ca.price:
            out.append(Event("price", cid, {"old": cb.price, "new": ca.price,
                                           "why": _price_why(b, a, act, cid, cb.price, ca.price)}))
        if ca.floated and not cb.floated:
            out.append(Event("float", cid, {"cash": max(ca.cash - cb.cash, 0)}))
        if cb.president is not None and ca.president is not None and cb.president != ca.president:
            out.append(Event("president", cid, {"old": cb.president, "new": ca.president}))
    buyer = str(act.entity) if act.type == "buy_train" and act.entity_type != "player" else None
    for pid, cash in a.cash.items():
        old = b.cash.get(pid, cash)
        if buyer is not None and b.corps.get(buyer) and b.corps[buyer].president == pid \
                and m.cash.get(pid, old) < old:
            out.append(Event("contribution", pid, {"corp": buyer, "amount": old - m.cash[pid]}))
        if cash < 0 <= old:
            out.append(Event("loan", pid, {"amount": -cash, "fee": game.title.loan_fee}))
    for pid in sorted(a.bankrupt - b.bankrupt):
        out.append(Event("bankrupt", pid))
    if a.phase != b.phase:
        phase: dict[str, Any] = next((p for p in game.title.data.phases if p["name"] == a.phase), {})
        out.append(Event("phase", None, {"phase": a.phase, "previous": b.phase,
                                         "train_limit": phase.get("train_limit"),
                                         "tiles": tuple(phase.get("tile_colors", ()))}))
    out.extend(_trains_gone(game, b, a))
    for cid, (_owner, closed, _rev) in a.companies.items():
        was = b.companies.get(cid)
        if closed and was is not None and not was[1]:
            out.append(Event("company_closed", cid, {"owner": was[0]}))
    for cid, ca in a.corps.items():
        if ca.closed and cid in b.corps and not b.corps[cid].closed:
            out.append(Event("corp_closed", cid))
    out.extend(_skips(game, b, m, a, act))
    broke = (a.trigger == "bank" and b.trigger != "bank") or (a.bank <= 0 < b.bank)
    if broke:
        out.append(Event("bank_broken"))
    if a.trigger and not b.trigger and not a.finished:
        when = game.state.title_state.end_when(a.trigger)
        out.append(Event("end_triggered", None, {"reason": a.trigger, "when": when}))
    if a.round_key != b.round_key and not a.finished:
        out.append(Event("round", None, {"name": a.round_name, "kind": a.round_kind,
                                         "previous": b.round_name}))
        out.extend(_round_start(game, b, a))
    if a.finished and not b.finished:
        out.append(Event("game_over", None, {"reason": a.end_reason,
                                             "result": dict(game.result())}))
    return out


def _trains_gone(game: Any, b: Digest, a: Digest) -> list[Event]:
    gone: dict[str, dict[str, int]] = {}
    for tid, (owner, was_gone, name) in b.trains.items():
        now = a.trains.get(tid)
        if now is None or was_gone or not now[1]:
            continue
        if owner in a.corps and a.corps[owner].closed and not b.corps[owner].closed:
            continue  # gone with its closing owner (18MEX minors), not rusted
        owners = gone.setdefault(name, {})
        holder = owner if owner is not None else "depot"  # a discarded train in the market
        if owner is not None or tid in b.pool:
            owners[holder] = owners.get(holder, 0) + 1
    out = []
    for name, owners in gone.items():
        spec = game.title.train_specs.get(name, {})
        kind = "obsolete" if spec.get("obsolete_on_first") else "rust"
        out.append(Event(kind, None, {"train": name, "owners": owners,
                                      "salvage": _salvage(game, name)}))
    return out


def _round_start(game: Any, b: Digest, a: Digest) -> list[Event]:
    """What a new operating round pays at its start: private incomes (each open company with
    an owner and an income), and debts growing (a player's cash lower than before)."""
    out: list[Event] = []
    if a.round_kind != "operating":
        return out
    for cid, (owner, closed, revenue) in a.companies.items():
        if owner is not None and not closed and revenue:
            out.append(Event("income", cid, {"owner": owner, "amount": revenue}))
    for pid, cash in a.cash.items():
        old = b.cash.get(pid, cash)
        if old < 0 and cash < old:
            out.append(Event("interest", pid, {"amount": old - cash}))
    last_or = game.state.title_state.fixed_last_or()
    if isinstance(last_or, int) and b.round_kind == "stock" and last_or - game.or_number < 3:
        out.append(Event("end_triggered", None, {"reason": "fixed_round", "when": "after_or",
                                                 "or_number": last_or}))
    return out


def story(game: Any) -> list[tuple[Any, list[Event]]]:
    """Every move in effect in `game`'s log with its events, replayed on a fresh game."""
    from engine.game import Game

    fresh = Game(game.title_name, game.players, game.options)
    fresh.imported = game.imported
    out: list[tuple[Any, list[Event]]] = []
    current: list[Recorder] = []

    def before(g: Any, act: Any) -> None:
        if current:
            rec = current.pop()
            out.append((rec.action, rec.finish(g)))
        rec = Recorder(g, act)
        current.append(rec)
        g._recorder = rec

    try:
        fresh.load_log(game.log, before=before, accepted=True)  # the game's own log
    finally:
        fresh._recorder = None
    if current:
        rec = current.pop()
        out.append((rec.action, rec.finish(fresh)))
    return out
