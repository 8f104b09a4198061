"""Build the read-only GameView (engine/view.py) from a game's state."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import shares
from engine.state import IPO, MARKET
from engine.view import (
    CompanyView,
    CorporationView,
    GameView,
    HexState,
    PlayerView,
    TrainStock,
    ViewKey,
)

if TYPE_CHECKING:
    from engine.game import Game


def build_key(game: Game) -> ViewKey:
    """What the images of a state are drawn from in part, cheaply: the hexes, the market, who
    acts and the round, as `build_view` gives them (what changed after a move is told by these;
    the full view is built only for a state whose images are drawn)."""
    acting = () if game.finished else (game.round.current()[0],)
    return ViewKey(hexes=_hexes(game), market=_market(game), acting=acting,
                   round=round_name(game), last_hexes=game.last_hexes)


def round_name(game: Game) -> str:
    """The round's name as the view and its key give it."""
    return "Game over" if game.finished else game.round.name()


def _market(game: Game) -> dict[tuple[int, int], tuple[str, ...]]:
    return {k: tuple(v) for k, v in game.state.market.items() if v}


def _hexes(game: Game) -> dict[str, HexState]:
    st, t = game.state, game.title
    hexes: dict[str, HexState] = {}
    names = set(st.tiles) | {h for h, _ in st.city_tokens}
    reserved_by_hex: dict[str, dict[int, list[str]]] = {}
    for corp in st.corporations.values():
        if corp.home and not corp.closed and not any(tk.hex for tk in corp.tokens):
            reserved_by_hex.setdefault(corp.home[0], {}).setdefault(corp.home[1], []).append(corp.id)
    names |= set(reserved_by_hex)
    hex_markers = st.title_state.hex_markers()
    names |= set(hex_markers)
    for h in sorted(names):
        if h not in t.data.hexes:
            continue
        placed = st.tiles.get(h)
        ncity = t._city_count(game, h)
        tokens = tuple(tuple(t.tokens_in(game, h, c)) for c in range(ncity))
        res = reserved_by_hex.get(h, {})
        reserved = tuple(tuple(res.get(c, ())) for c in range(ncity))
        markers = tuple((str(m[0]), str(m[1])) for m in hex_markers.get(h, ()))
        hexes[h] = HexState(h, placed.tile if placed else None, placed.rotation if placed else 0,
                            tokens, reserved, markers)
    return hexes


def build_view(game: Game) -> GameView:
    st, t = game.state, game.title
    rnd = game.round
    hexes = _hexes(game)
    market = _market(game)
    limit = t.cert_limit(game)
    players = tuple(
        PlayerView(
            id=p.id, name=p.name, cash=p.cash, value=t.player_value(game, p),
            shares={c.id: shares.percent(c, p.id) for c in st.corporations.values()
                    if shares.percent(c, p.id)},
            companies=tuple(c.id for c in st.companies.values() if c.owner == p.id and not c.closed),
            cert_count=t.cert_count(game, p.id), cert_limit=limit,
            priority=(i == st.priority),
        )
        for i, p in enumerate(st.players)
    )
    operated = set(getattr(rnd, "done", ()))
    corps = tuple(
        CorporationView(
            id=c.id, name=c.name, color=c.color, kind=c.kind, president=shares.president(c),
            treasury=c.cash,
            trains=tuple(tr.face for tr in st.trains if tr.owner == c.id and not tr.gone),
            tokens_total=len(c.tokens), tokens_left=sum(1 for tk in c.tokens if tk.hex is None),
            price=t.market.price(c.cell) if c.cell else None, par=c.par, market_cell=c.cell,
            floated=c.floated, closed=c.closed,
            ipo_percent=shares.percent(c, IPO), market_percent=shares.percent(c, MARKET),
            companies=tuple(x.id for x in st.companies.values() if x.owner == c.id and not x.closed),
            operated=c.id in operated,
            destination_reached=c.title_state.destination_reached() and not c.closed,
        )
        for c in st.corporations.values()
    )
    companies = tuple(
        CompanyView(
            id=c.id, name=c.name, value=c.value, revenue=c.revenue, owner=c.owner,
            owner_kind=("corporation" if c.owner in st.corporations else "player") if c.owner else None,
            closed=c.closed,
        )
        for c in st.companies.values()
    )
    depot = {tr.name for tr in t.depot_trains(game)} if not game.finished else set()
    stock: list[TrainStock] = []
    for spec in t.data.trains:
        cards = [tr for tr in st.trains if tr.name == spec["name"]]
        left = sum(1 for tr in cards if tr.owner is None and not tr.gone and tr.sellable)
        stock.append(TrainStock(spec["name"], int(spec["price"]), left, spec["name"] in depot,
                                rusted_or_obsolete=bool(cards) and all(tr.gone for tr in cards)))
    acting = () if game.finished else (rnd.current()[0],)
    return GameView(
        title=game.title_name, data=t.data,
        round=round_name(game),
        round_kind="end" if game.finished else rnd.kind,
        phase=st.phase, acting=acting, acting_players=game.acting_players(),
        bank_cash=st.bank.cash, hexes=hexes, market=market, players=players,
        corporations=corps, companies=companies, trains=tuple(stock),
        open_market_trains=tuple(tr.id for tr in st.trains if tr.discarded and not tr.gone),
        last_hexes=game.last_hexes, finished=game.finished,
        result=game.result() if game.finished else {},
        operating_order=tuple(getattr(rnd, "order", ())),
        may=() if game.finished else tuple(dict.fromkeys(rnd.kinds())),
    )
