"""Audit against the 18xx.games engine: a redemption needs the price in the company's cash when
it redeems. The site keeps `redeem_cash` (g_1870/step/buy_sell_par_shares.rb) as a hash filled
on first look-up, which in a replayed game is the redemption itself; so cash the company gained
earlier in the round (an incremental company's treasury sales) may pay for it."""

from __future__ import annotations

from engine.legal import legal_moves
from tests.engine.t1870._util import BANK, logged, replay


def test_cash_gained_during_the_round_may_pay_for_a_redemption() -> None:
    g = replay(BANK, 178)  # MKT ends the OR at 179; it redeems (184) in the stock round after
    mkt = g.state.corporations["MKT"]
    cash = mkt.cash
    mkt.cash = 1  # poor at the start of the round ...
    for aid in (179, 180, 181, 182):
        g.apply(logged(BANK, aid))
    mkt.cash = cash  # ... and able to pay when it redeems
    g.apply(logged(BANK, 184))
    assert next(c for c in mkt.certs if c.id == "MKT_3").owner == "MKT"
    assert "already redeemed" in (g.round.redeem_error("7438", mkt) or "")


def test_redemption_still_needs_the_cash() -> None:
    g = replay(BANK, 183)
    mkt = g.state.corporations["MKT"]
    mkt.cash = g.title.share_price(mkt) - 1
    assert "cannot pay" in (g.round.redeem_error("7438", mkt) or "")


def test_redemption_offered_in_the_sites_shape() -> None:
    """The site compares the redeemed bundle with its own, whose price is unset: a redemption
    names the certificate and percent only (an action carrying `share_price` is refused)."""
    g = replay(BANK, 183)
    offers = [o for o in legal_moves(g).choices if o["type"] == "buy_shares"]
    assert logged(BANK, 184) in offers
    assert all("share_price" not in o for o in offers)
