"""Certificates: holdings, presidency, moving certificates between owners."""

from __future__ import annotations

from collections.abc import Callable

from engine.state import IPO, MARKET, Cert, Corporation


def percent(corp: Corporation, owner: str) -> int:
    # (sum(c.percent for c in corp.certs if c.owner == owner), as a plain loop: asked for every
    # company at every stock question, and a generator's steps cost more than the loop's)
    held = 0
    for c in corp.certs:
        if c.owner == owner:
            held += c.percent
    return held


def counted(corp: Corporation, player: str) -> int:
    """`player`'s holding as the presidency checks count it, as on the site: what he holds,
    less what presidency exchanges handed him beyond what they took (Corporation.uncounted)."""
    return percent(corp, player) - corp.uncounted.get(player, 0)


def _place(corp: Corporation, owner: str) -> str:
    """The holder as the site keeps lists: a corporation's treasury is its offering (IPO)."""
    return IPO if owner == corp.id else owner


def move(corp: Corporation, cert: Cert, owner: str) -> None:
    """Hand `cert` to `owner`; it goes to the end of the new holder's list (acquisition order).

    A move between the offering and the corporation's own treasury (1870 reissue) is no move on
    the site: both are the corporation's list, and the certificate keeps its place there."""
    if _place(corp, cert.owner) != _place(corp, owner):
        to_list_end(corp, cert)
    cert.owner = owner


def to_list_end(corp: Corporation, cert: Cert) -> None:
    """Put `cert` last in its holder's list (certs_of's acquisition order)."""
    corp.cert_moves += 1
    cert.seq = corp.cert_moves


def certs_of(corp: Corporation, owner: str) -> list[Cert]:
    """`owner`'s certificates of `corp` in the order he acquired them (unmoved ones in
    certificate order)."""
    return sorted((c for c in corp.certs if c.owner == owner), key=lambda c: c.seq)


def share_percent(corp: Corporation) -> int:
    """The size of an ordinary share (the first ordinary certificate's percent)."""
    return next((c.percent for c in corp.certs if not c.president), 10)


def president(corp: Corporation) -> str | None:
    """The president: the holder of the president's certificate (none while it is in the
    offering or the market), unless one is recorded apart from it (Corporation.president_apart)."""
    if corp.president_apart is not None:
        return corp.president_apart
    for c in corp.certs:
        if c.president:
            return None if c.owner in (IPO, MARKET) else c.owner
    return None


def president_cert(corp: Corporation) -> Cert:
    for c in corp.certs:  # (the first one, without a generator)
        if c.president:
            return c
    raise StopIteration  # (as next() of the empty generator raised)


def sold_out(corp: Corporation) -> bool:
    """Every certificate is held by players (none in the offering, the market or treasury), and,
    as the site counts it (the players' counted holdings make 100%), no presidency exchange left
    a gap in the players' counted holdings (Corporation.uncounted)."""
    return (all(c.owner not in (IPO, MARKET, corp.id) for c in corp.certs)
            and sum(corp.uncounted.values()) == 0)


SwapPick = Callable[[Corporation, list[Cert], int], list[Cert]]


def first_acquired(corp: Corporation, held: list[Cert], count: int) -> list[Cert]:
    """The certificates a new president hands over for the president's certificate: as on the
    site, the first `count` of his list (the earliest acquired)."""
    return held[:count]


def update_presidency(corp: Corporation, players: list[str], previous: str | None,
                      pick: SwapPick | None = None, *, seller: str | None = None,
                      kept: int = 0) -> str | None:
    """Settle the presidency after certificates moved, as on the site; returns the president.

    Holdings are compared as `counted` (as on the site). `previous` (the president before the
    move) keeps it while no player counts more. Otherwise the player counting the most and
    holding at least the president's certificate's percent takes it (on a tie the first
    clockwise from `previous`; if none of those counting the most holds that much, the
    presidency stays, as on the site): he hands over as many certificates as the president's
    certificate counts shares (20% = 2), chosen by `pick` (default: the first he acquired), to
    `previous` if `previous` still holds at least the president's certificate's percent, else
    to the market; they go to the end of the receiver's list. What the exchange changes in a
    player's holding is not counted (Corporation.uncounted): an uneven exchange (18MEX: a 10%
    and a 5% certificate for the 20%) leaves the new president counting 5% less than he holds.

    A sale by `seller` of a bundle worth `kept` percent more than the percent sold (the
    president's certificate sold as part of a smaller sale): the seller still owns that part,
    and once the presidency is settled he gets it back as the first certificates of the
    market's list (only if the certificate passed to a new president: as on the site, a
    seller who stays president, or a holder who is not, gets nothing back, and that part stays
    counted as his).

    While the president is recorded apart from the certificate (Corporation.president_apart),
    a change of president moves no certificate (as on the site): the new president is recorded,
    unless he holds the certificate."""
    pres_cert = president_cert(corp)
    unit = share_percent(corp)
    held = {p: counted(corp, p) for p in players}
    if seller in held:
        held[seller] += kept
    best = max(held.values(), default=0)
    current = president(corp)
    result = current
    swapped = False
    if previous in held and held[previous] == best and pres_cert.owner == MARKET:
        # the president sold the certificate yet still counts the most (a protection left him
        # counting more than he holds): he stays president without it, as on the site
        corp.president_apart = result = previous
    elif best > 0 and not (previous in held and held[previous] == best):
        start = players.index(previous) if previous in players else len(players) - 1
        order = players[start + 1 :] + players[: start + 1]
        # eligible: holding at least the certificate's percent (as on the site, counting it
        # where a protection left him counting more is not enough); none eligible among those
        # counting the most: the presidency stays
        new = next((p for p in order if held[p] == best
                    and percent(corp, p) + (kept if p == seller else 0) >= pres_cert.percent), None)
        if new is None and previous in held and pres_cert.owner == MARKET:
            # the president sold the certificate and no one counting more may take it: he stays
            # president without it, as on the site
            corp.president_apart = result = previous
        elif new is not None and new != current and corp.president_apart is not None:
            # a president who does not hold the certificate has none to hand over: as on the
            # site, the presidency passes and no certificate moves
            corp.president_apart = None if new == pres_cert.owner else new
            result = new
        elif new is not None and new != current:
            before = {p: percent(corp, p) for p in players}
            giver = current if current is not None else previous
            if giver in held:
                swap_to = giver if percent(corp, giver) >= pres_cert.percent else MARKET
            else:  # no president yet: the certificates go where the president's certificate was
                swap_to = pres_cert.owner
            mine = [c for c in certs_of(corp, new) if not c.president]
            for c in (pick or first_acquired)(corp, mine, pres_cert.percent // unit):
                move(corp, c, swap_to)
            move(corp, pres_cert, new)
            swapped = True
            for p in players:
                gap = percent(corp, p) - before[p] + corp.uncounted.get(p, 0)
                if gap:
                    corp.uncounted[p] = gap
                else:
                    corp.uncounted.pop(p, None)
            result = new
    if seller is not None and kept > 0:
        # the part not sold comes back only when the certificate passed to a new president; a
        # seller who keeps the presidency or a holder who is not president (1870, as on the
        # site: Corporation.president_apart) loses it, counted as held
        back = certs_of(corp, MARKET)[: kept // unit] if swapped else []
        for c in back:
            move(corp, c, seller)
        # counted as the `kept` percent, whatever comes back (18MEX: a 5% NdM certificate
        # first in the market's list comes back for a 10% share)
        gap = sum(c.percent for c in back) - kept + corp.uncounted.get(seller, 0)
        if gap:
            corp.uncounted[seller] = gap
        else:
            corp.uncounted.pop(seller, None)
    return result


def pick_for_sale(corp: Corporation, owner: str, pct: int) -> list[Cert]:
    """Certificates of `owner` making up `pct` percent, as the site's sale bundles are made up:
    his certificates in acquisition order, the smallest first and the president's last, taken
    from the start until they make `pct`; or all of them, the president's certificate partly
    sold (a partial bundle: what is not sold comes back from the market), when `pct` falls short
    of all he holds by less than the president's certificate is over an ordinary share.
    Shares of the ordinary size are tried first (18MEX: a 5% NdM certificate sells on its own)."""
    unit = share_percent(corp)
    held = certs_of(corp, owner)
    for group in ([c for c in held if c.percent >= unit], held):
        ordered = sorted(group, key=lambda c: (c.president, c.percent))
        total = 0
        for i, c in enumerate(ordered):
            total += c.percent
            if total == pct:
                return ordered[: i + 1]
        if ordered and ordered[-1].president and total - pct in range(
                unit, ordered[-1].percent - unit + 1, unit):
            return ordered
    # no such bundle: the ordinary certificates that fit, then the president's certificate
    picked: list[Cert] = []
    total = 0
    for c in held:
        if not c.president and total + c.percent <= pct:
            picked.append(c)
            total += c.percent
    if total < pct:
        picked += [c for c in held if c.president]
    return picked
