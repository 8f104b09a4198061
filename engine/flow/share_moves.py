"""Share moves of the common rules: the certificates a sale sends to the market, a sale settled
(presidency, proceeds, the price's move), a corporation's par placed on the market, and the
certificate a move names."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import market as mk
from engine.core import shares
from engine.errors import EngineError
from engine.state import MARKET, Cert, Corporation

if TYPE_CHECKING:
    from engine.game import Game


def sale_bundle(corp: Corporation, pid: str, certs: list[Cert], pct: int) -> list[Cert]:
    """The certificates that go to the market for a sale of `pct` percent: those named, in the
    order named, when they make up the sale (all of it, or more when the president's
    certificate is among them: a partial sale); else the ones the engine picks."""
    named = [c for c in certs if c.owner == pid]
    total = sum(c.percent for c in named)
    if named and len(named) == len(certs) and (
            total == pct or (total > pct and any(c.president for c in named))):
        return named
    return shares.pick_for_sale(corp, pid, pct)


def sell_certs(game: Game, corp: Corporation, pid: str, certs: list[Cert], pct: int) -> None:
    """Sell `pct` percent of `pid`'s holding in `corp` to the market, as on the site: the
    bundle's certificates go to the market in its order, the presidency is settled
    (shares.update_presidency: a partial bundle's unsold part comes back from the market), the
    seller is paid and the price moves."""
    t, st = game.title, game.state
    price = t.share_price(corp)
    players = [p.id for p in st.players]
    previous = shares.president(corp)
    bundle = sale_bundle(corp, pid, certs, pct)
    total = sum(c.percent for c in bundle)
    if total < pct or (total > pct and not any(c.president for c in bundle)):
        raise EngineError(f"You cannot sell exactly {pct}% of {corp.id}.", rule="stock.sell")
    for c in bundle:
        shares.move(corp, c, MARKET)
    shares.update_presidency(corp, players, previous, t.presidency_swap_pick, seller=pid, kept=total - pct)
    amount = t.sale_proceeds(corp, price, pct)
    st.player(pid).cash += amount
    st.bank.cash -= amount
    t.move_on_sale(game, corp, pct, tuple(c.id for c in bundle))


def par_place(game: Game, corp: Corporation, cell: tuple[int, int]) -> None:
    corp.par = game.title.market.price(cell)
    mk.place(game.state, corp, cell)
    corp.ipoed = True


def find_cert(game: Game, cert_id: str, want_owner: tuple[str, ...] | None = None,
              holder: str | None = None) -> Cert:
    """The certificate a move names; it must be where the move takes it from (the offering or
    the market for a buy, the seller's hands for a sale), as on the site: naming another
    certificate of the same company is refused, not swapped for one that is there."""
    corp_id = cert_id.rsplit("_", 1)[0]
    corp = game.state.corporations.get(corp_id)
    if corp is None:
        raise EngineError(f"There is no certificate {cert_id}.", rule="stock.cert")
    cert = next((c for c in corp.certs if c.id == cert_id), None)
    if cert is None:
        raise EngineError(f"There is no certificate {cert_id}.", rule="stock.cert")
    if (want_owner and cert.owner in want_owner) or (holder and cert.owner == holder):
        return cert
    if holder:
        raise EngineError(f"You do not hold certificate {cert_id}.", rule="stock.cert")
    raise EngineError(f"Certificate {cert_id} is not for sale: it is neither in {corp_id}'s "
                      "offering nor in the market.", rule="stock.cert")
