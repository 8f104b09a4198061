"""A digest of a game's state: the facts events are derived from (engine/events.py compares
the digests before and after an action). Read-only; nothing here changes the game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from engine.core import shares
from engine.state import IPO, MARKET

if TYPE_CHECKING:
    from engine.game import Game


# named tuples rather than frozen dataclasses: as read-only, and made several times a move
# (a frozen dataclass sets each field through object.__setattr__: a third of a digest's time)
class Corp(NamedTuple):
    floated: bool
    closed: bool
    president: str | None
    price: int | None
    cash: int
    trains: int
    kind: str
    sold_out: bool


class Digest(NamedTuple):
    round_key: tuple[Any, ...]
    round_kind: str
    round_name: str
    phase: str
    acting: tuple[str, str]
    order: tuple[str, ...]
    trains: dict[str, tuple[str | None, bool, str]]  # id -> (owner, gone, name)
    companies: dict[str, tuple[str | None, bool, int]]  # id -> (owner, closed, revenue)
    corps: dict[str, Corp]
    cash: dict[str, int]  # player id -> cash
    bankrupt: frozenset[str]
    bank: int
    finished: bool
    end_reason: str | None
    trigger: str | None
    revenue: int | None
    certs: dict[str, tuple[str, str, int, bool]]  # id -> (corp, owner, percent, president)
    pool: frozenset[str]  # trains discarded to the open market (1870)
    turn_corp: str | None  # whose operating turn it is (the acting entity may be another)
    skipped: tuple[str, ...] = ()  # stock round: players passed over since the action began


def _trigger(game: Game) -> str | None:
    """The game's end, once triggered and not yet reached (1870: the bank broken; 18MEX: the
    bank or a price at the end-game row)."""
    return game.state.title_state.end_triggered_by()


def digest(game: Any) -> Digest:
    st = game.state
    rnd = game.round
    title = game.title
    # one pass over the trains (each one, each corporation's count of trains held, the ones
    # discarded to the market) and one over each corporation's certificates (the
    # certificates, whether it is sold out)
    trains: dict[str, tuple[str | None, bool, str]] = {}
    held: dict[Any, int] = {}
    pool = []
    for t in st.trains:
        owner, gone = t.owner, t.gone
        trains[t.id] = (owner, gone, t.name)
        if not gone:
            held[owner] = held.get(owner, 0) + 1
        if t.discarded:
            pool.append(t.id)
    corps = {}
    certs: dict[str, tuple[str, str, int, bool]] = {}
    for c in st.corporations.values():
        out = False  # a certificate in the offering, the market or its treasury
        unsold = (IPO, MARKET, c.id)
        for x in c.certs:
            owner = x.owner
            certs[x.id] = (x.corp, owner, x.percent, x.president)
            if owner in unsold:
                out = True
        pres = title.controller(game, c.id, c.kind) if c.kind == "minor" else shares.president(c)
        sold_out = c.ipoed and not out and sum(c.uncounted.values()) == 0
        corps[c.id] = Corp(c.floated, c.closed, pres,
                           title.share_price(c) if c.cell is not None else None,
                           c.cash, held.get(c.id, 0), c.kind, sold_out)
    turn = getattr(rnd, "turn", None)
    revenue = getattr(turn, "revenue", None) if rnd.kind == "operating" else None
    if getattr(rnd, "conn_stage", None) == "dividend":  # 1870: a connection run's income
        revenue = getattr(rnd, "conn_revenue", revenue)
    current = ("", "") if st.finished or rnd.finished else rnd.current()
    return Digest(
        round_key=(rnd.kind, rnd.name(), game.turn, game.or_number),
        round_kind=rnd.kind,
        round_name=rnd.name(),
        phase=st.phase,
        acting=(str(current[0]), str(current[1])),
        order=tuple(getattr(rnd, "order", ()) or ()),
        trains=trains,
        companies={c.id: (c.owner, c.closed, c.revenue) for c in st.companies.values()},
        corps=corps,
        cash={p.id: p.cash for p in st.players},
        bankrupt=frozenset(p.id for p in st.players if p.bankrupt),
        bank=st.bank.cash,
        finished=st.finished,
        end_reason=st.end_reason,
        trigger=_trigger(game),
        revenue=revenue,
        certs=certs,
        pool=frozenset(pool),
        turn_corp=_turn_corp(rnd),
        skipped=tuple(getattr(rnd, "skipped", ()) if rnd.kind == "stock" else ()),
    )


def _turn_corp(rnd: Any) -> str | None:
    order, index = getattr(rnd, "order", None), getattr(rnd, "index", None)
    if rnd.kind != "operating" or rnd.finished or not order or not isinstance(index, int):
        return None
    return str(order[index]) if 0 <= index < len(order) else None
