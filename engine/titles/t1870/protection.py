"""1870 price protection: a sale waits in a queue; once the seller's turn is over, the player
who was president just before each sale may buy the whole bundle back at the old price (the price
then does not move) or decline (the price drops, see market.drop_for_sale)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import shares
from engine.errors import EngineError
from engine.state import IPO, MARKET, Corporation
from engine.titles.t1870 import market as zones
from engine.titles.t1870.state import Sale, state1870, title1870

if TYPE_CHECKING:
    from engine.game import Game


def queue(game: Game) -> list[Sale]:
    return state1870(game).sell_queue


def protect_error(game: Game, sale: Sale, sold_this_round: set[str]) -> str | None:
    """Why the president before the sale may not protect it (None = he may)."""
    st, t = game.state, title1870(game)
    pid = sale.president
    corp = st.corporations[sale.corp]
    if pid is None:
        return f"{corp.id} had no president to protect the sale."
    if corp.closed:
        return f"{corp.id} has closed: there is no price to protect."
    if t.option("can_protect_if_sold"):  # never one's own sale (an emergency sale included)
        if pid == sale.seller:
            return f"You sold these {corp.id} shares yourself, so you may not price-protect them."
    elif corp.id in sold_this_round:
        return f"You sold {corp.id} this round, so you may not price-protect it."
    price = t.share_price(corp) * sale.pct // 10
    if st.player(pid).cash < price:
        return f"Price protection of {sale.pct}% of {corp.id} costs ${price}; you have ${st.player(pid).cash}."
    if not any(z in zones.NO_LIMIT for z in zones.zone(game, corp.cell)):
        # as the site: no share waiting in the queue is left out (the protected company's own
        # shares stay where they count, and so do those of any other company sold meanwhile)
        t._count_as_protected = True
        try:
            n = t.cert_count(game, pid) + sale.pct // 10
        finally:
            t._count_as_protected = False
        if n > t.cert_limit(game):
            return (f"Price protection would take you over the certificate limit ({t.cert_limit(game)}); "
                    "you may not sell to make room.")
    return None


def protect(game: Game, sale: Sale, pid: str, share_ids: list[str]) -> None:
    st, t = game.state, game.title
    corp = st.corporations[sale.corp]
    price = t.share_price(corp)
    pres = shares.president_cert(corp)
    if pres.id in sale.certs and pres.owner not in (pid, IPO, corp.id):
        take_back(game, corp, sale, pid)
    else:
        _buy_back(game, corp, sale, pid, share_ids)
    cost = price * sale.pct // 10
    st.player(pid).cash -= cost
    st.bank.cash += cost


def _buy_back(game: Game, corp: Corporation, sale: Sale, pid: str, share_ids: list[str]) -> None:
    """The sold shares come back from the market: as on the site, the bundle sold, in its
    order, whatever the action names (a sale recorded without its certificates: those named,
    then the first of the market's list)."""
    pool = [c for c in shares.certs_of(corp, MARKET) if not c.president]
    named = list(sale.certs) or [sid for sid in share_ids if sid != corp.id]
    wanted = [c for sid in named for c in pool if c.id == sid]
    rest = [c for c in pool if c not in wanted]
    need = sale.pct
    previous = shares.president(corp)
    for c in wanted + rest:
        if need <= 0:
            break
        if c.percent <= need:
            shares.move(corp, c, pid)
            need -= c.percent
    if need:
        raise EngineError(f"The {sale.pct}% of {corp.id} sold is no longer in the market.",
                          rule="protection.bundle")
    shares.update_presidency(corp, [p.id for p in game.state.players], previous,
                             game.title.presidency_swap_pick)


def take_back(game: Game, corp: Corporation, sale: Sale, pid: str) -> None:
    """A protected sale included the president's certificate, which has passed to another
    player or sits in the market (sold by a holder who was not president): as on the site, every certificate of the sale comes back to the protector from
    where it is now (the certificate from its new holder, who gets nothing for it), and the
    presidency checks count the bundle as bought from the holder of its first certificate
    (his count drops by the percent sold, the protector's rises by it). Then, if the protector
    counts more than the president, he takes the presidency and hands his first ordinary
    shares (as many as the certificate counts shares) to the president before the protection
    if that player still holds the certificate's percent, else to that first certificate's
    holder; finally the presidency is settled from the president before the protection (who may keep
    it without the certificate: Corporation.president_apart)."""
    players = [p.id for p in game.state.players]
    before = shares.president(corp)
    certs = [c for sid in sale.certs for c in corp.certs if c.id == sid]
    source = certs[0].owner
    counts = {p: shares.counted(corp, p) for p in players}
    counts[pid] += sale.pct
    if source in counts:
        counts[source] -= sale.pct
    passes = before is None or counts[pid] > counts.get(before, 0)
    # when the presidency passes from a president to the protector, a part of the president's
    # certificate sold (not all of it) is taken back as the first ordinary shares of the
    # market's list besides the sale's (as many as that part counts shares), which the
    # protector then gives back to the market: as on the site, they end its list (seed 25; the
    # whole certificate sold moves none, seed 8; the presidency staying moves none, seed 19)
    unit = shares.share_percent(corp)
    part = sale.pct - sum(c.percent for c in certs if not c.president)
    whole = shares.president_cert(corp).percent
    extra = ([c for c in shares.certs_of(corp, MARKET) if not c.president and c not in certs][: part // unit]
             if source == MARKET and 0 < part < whole and passes and before is not None else [])
    for c in certs:
        shares.move(corp, c, pid)
    pres = shares.president_cert(corp)
    if passes:
        # his shares go to the president before the protection if he still holds the
        # certificate's percent, else to the holder of the bundle's first certificate
        swap_to = before if before is not None and shares.percent(corp, before) >= pres.percent else source
        if swap_to != pid:
            mine = [c for c in shares.certs_of(corp, pid) if not c.president]
            for c in game.title.presidency_swap_pick(corp, mine, pres.percent // shares.share_percent(corp)):
                shares.move(corp, c, swap_to)
        corp.president_apart = None
    else:
        corp.president_apart = None if before == pres.owner else before
    _recount(corp, players, counts)
    shares.update_presidency(corp, players, before, game.title.presidency_swap_pick)
    _recount(corp, players, counts)
    for c in extra:
        if c.owner == MARKET:  # to the end of the market's list
            shares.to_list_end(corp, c)


def _recount(corp: Corporation, players: list[str], counts: dict[str, int]) -> None:
    """Record what the presidency checks count (shares.counted) as `counts`, whatever each
    player holds (the moves of a presidency exchange are not counted)."""
    for p in players:
        gap = shares.percent(corp, p) - counts[p]
        if gap:
            corp.uncounted[p] = gap
        else:
            corp.uncounted.pop(p, None)


def decline(game: Game, sale: Sale) -> None:
    corp = game.state.corporations[sale.corp]
    if corp.cell is not None and not corp.closed:
        zones.drop_for_sale(game, corp, sale.pct // 10)


def answer(game: Game, action: Any, sold_this_round: set[str]) -> bool:
    """The president before the first queued sale protects it (True) or passes (False); the
    sale leaves the queue. The rounds (stock, operating) decide what follows."""
    q = queue(game)
    sale = q[0]
    pid = str(action.entity)
    if pid != sale.president:
        raise EngineError(f"{game.player_name(str(sale.president))} must first decide whether "
                          f"to price-protect {sale.corp}.", rule="protection.turn")
    if action.type == "buy_shares":
        # as on the site: the certificates named make one bundle first (one company's, one
        # holder's), though what comes back is the queued sale whatever they are
        named = [c for sid in action.shares for corp in game.state.corporations.values()
                 for c in corp.certs if c.id == sid]
        if (not action.shares or len(named) != len(action.shares)
                or len({(c.corp, c.owner) for c in named}) > 1):
            raise EngineError(f"Name the {sale.corp} certificates being protected: certificates of one "
                              "company held by one holder.", rule="protection.bundle")
        err = protect_error(game, sale, sold_this_round)
        if err:
            raise EngineError(err, rule="protection.refused")
        protect(game, sale, pid, list(action.shares))
        queue(game).pop(0)
        return True
    if action.type == "pass":
        decline(game, queue(game).pop(0))
        return False
    raise EngineError("Price-protect (buy the shares just sold) or pass.", rule="protection.kind")
