"""Certificates: holdings, presidency, moving certificates between owners."""

from __future__ import annotations

from engine.state import IPO, MARKET, Cert, Corporation


def percent(corp: Corporation, owner: str) -> int:
    return sum(c.percent for c in corp.certs if c.owner == owner)


def certs_of(corp: Corporation, owner: str) -> list[Cert]:
    return [c for c in corp.certs if c.owner == owner]


def president(corp: Corporation) -> str | None:
    for c in corp.certs:
        if c.president:
            return None if c.owner in (IPO, MARKET) else c.owner
    return None


def president_cert(corp: Corporation) -> Cert:
    return next(c for c in corp.certs if c.president)


def sold_out(corp: Corporation) -> bool:
    """Every certificate is held by players (none in the offering, the market or treasury)."""
    return all(c.owner not in (IPO, MARKET, corp.id) for c in corp.certs)


def update_presidency(corp: Corporation, players: list[str], previous: str | None) -> str | None:
    """Hand the president's certificate to the player with the most shares.

    A tie keeps the current president; if the president lost the lead, the first tied player
    clockwise from the outgoing president takes it. The new president gives the outgoing one
    ordinary certificates of the same total percent in exchange. Returns the new president.
    """
    pres_cert = president_cert(corp)
    current = pres_cert.owner if pres_cert.owner in players else None
    held = {p: percent(corp, p) for p in players}
    best = max(held.values(), default=0)
    if best == 0:
        return current
    if current is not None and held[current] >= best:
        return current
    start = players.index(previous) if previous in players else 0
    order = players[start + 1 :] + players[: start + 1]
    new = next(p for p in order if held[p] == best)
    if new == current:
        return current
    # exchange: new president hands over ordinary certs worth the president's certificate
    need = pres_cert.percent
    give: list[Cert] = []
    # larger certificates first, so that half shares (18MEX NdM 5%) go only when needed
    for c in sorted(certs_of(corp, new), key=lambda c: (c.president, -c.percent, _cert_index(c))):
        if c.president or need <= 0:
            continue
        if c.percent <= need:
            give.append(c)
            need -= c.percent
    if need != 0:  # cannot exchange exactly; the presidency stays put
        return current
    old_owner = pres_cert.owner
    for c in give:
        c.owner = old_owner
    pres_cert.owner = new
    return new


def _cert_index(c: Cert) -> int:
    try:
        return int(c.id.rsplit("_", 1)[1])
    except (IndexError, ValueError):
        return 0


def pick_for_sale(corp: Corporation, owner: str, pct: int) -> list[Cert]:
    """Certificates of `owner` making up `pct` percent: ordinary ones first (latest first),
    then the president's certificate if the ordinary ones are not enough."""
    ordinary = sorted((c for c in certs_of(corp, owner) if not c.president),
                      key=_cert_index, reverse=True)
    picked: list[Cert] = []
    total = 0
    for c in ordinary:
        if total + c.percent <= pct:
            picked.append(c)
            total += c.percent
    if total < pct:
        picked += [c for c in certs_of(corp, owner) if c.president]
    return picked
