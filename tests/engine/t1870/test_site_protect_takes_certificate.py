"""Protecting a sale that included the president's certificate after the presidency passed on, as
the site does it (learned with the referee from sweep seeds 32, 94, 96, 182, 211, 249, 259 and the
older sweeps' seeds 24 and 63): every certificate of the sale comes back to the protector from
where it is now (the president's certificate from the new president, who gets nothing for it);
the presidency checks count the bundle as bought from the holder of its first certificate; a
protector who then counts more than the president takes the presidency and hands his first
ordinary shares to that holder; the presidency is then settled from the president before the
protection, who may keep it without holding the certificate (Corporation.president_apart).

The positions are made on a shared game (SLSF at $100, players 9263, 7438, 4395, 18843 in
turn order): the certificates are placed by hand, the sale is the engine's own sale."""

from __future__ import annotations

from typing import Any

from engine.core import shares
from engine.flow.share_moves import sell_certs
from engine.game import Game
from engine.state import IPO, MARKET, Corporation
from engine.titles.t1870 import protection
from engine.titles.t1870.legal import redeemable
from engine.titles.t1870.state import Sale
from tests.engine.t1870._util import BANK, replay


def _position(holders: dict[str, list[int]]) -> tuple[Game, Corporation]:
    """SLSF certificates placed as `holders` (owner -> certificate numbers, in that order)."""
    g = replay(BANK, 286)
    slsf = g.state.corporations["SLSF"]
    for owner, nums in holders.items():
        for n in nums:
            shares.move(slsf, slsf.certs[n], owner)
    return g, slsf


def _sell_and_protect(g: Game, slsf: Corporation, nums: list[int], pct: int) -> None:
    """4395, president, sells these certificates (`pct` percent), then protects his sale."""
    president = shares.president(slsf)
    sold = [slsf.certs[n] for n in nums]
    sell_certs(g, slsf, "4395", sold, pct)
    sale = Sale(corp="SLSF", pct=pct, president=president, seller="4395", certs=[c.id for c in sold])
    protection.protect(g, sale, "4395", [])


def _held(slsf: Corporation, owner: str) -> list[str]:
    return [c.id for c in shares.certs_of(slsf, owner)]


def test_the_new_president_keeps_the_presidency_without_the_certificate_on_a_tie() -> None:
    """Seed 96: the protector sold all his 30% (20% + 10%); the new president (30%) handed two
    shares to the market for the certificate. Both certificates come back to the protector;
    the new president, counted at 30% still (he gave nothing for them), ties him and stays
    president with one 10% share, the certificate with the protector."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3, 4]})
    _sell_and_protect(g, slsf, [1, 0], 30)
    assert _held(slsf, "18843") == ["SLSF_4"]
    assert _held(slsf, MARKET) == ["SLSF_2", "SLSF_3"]
    assert sorted(_held(slsf, "4395")) == ["SLSF_0", "SLSF_1"]
    assert shares.president(slsf) == "18843"
    assert shares.counted(slsf, "18843") == 30 and shares.counted(slsf, "4395") == 30


def test_the_protector_who_counts_more_takes_it_and_hands_two_shares_to_the_market() -> None:
    """Seed 182: the protector sold 20% of his 30% (the certificate and a 10% share; 10% came
    back). Both come back; counting 30% against the new president's 20% he takes the
    presidency and hands his first two ordinary shares to the market, where the bundle's first
    certificate was; the new president is left with nothing."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3], MARKET: [4, 5]})
    _sell_and_protect(g, slsf, [1, 0], 20)
    assert shares.president(slsf) == "4395" and slsf.president_apart is None
    assert _held(slsf, "4395") == ["SLSF_0"]
    assert _held(slsf, "18843") == []
    assert sorted(_held(slsf, MARKET)) == ["SLSF_1", "SLSF_2", "SLSF_3", "SLSF_4", "SLSF_5"]


def test_a_player_tied_first_from_the_new_president_takes_it_from_the_protector() -> None:
    """Seed 32: the protector sold his lone 20% certificate; the new president handed his two
    shares to the market. The certificate comes back; the new president now counts nothing,
    and of the two tied at 20% the first clockwise from him (9263) takes the presidency from
    the protector, handing the protector his two shares."""
    g, slsf = _position({"7438": [1], "18843": [2, 3], "9263": [4, 5]})
    _sell_and_protect(g, slsf, [0], 20)
    assert shares.president(slsf) == "9263"
    assert _held(slsf, "9263") == ["SLSF_0"]
    assert _held(slsf, "4395") == ["SLSF_4", "SLSF_5"]
    assert _held(slsf, MARKET) == ["SLSF_2", "SLSF_3"]
    assert _held(slsf, "18843") == []



def test_a_holder_who_is_not_president_loses_the_part_of_the_certificate_not_sold() -> None:
    """Seeds 96 and 182: the certificate's holder, not president, sells 20% of his 30% (the
    certificate and a 10% share): both go to the market and, as he is not the president,
    nothing comes back; the president stays. His president before the sale protects it and
    gets the sale's certificates back from the market, the president's certificate with them."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3, 4]})
    _sell_and_protect(g, slsf, [1, 0], 30)
    assert shares.president(slsf) == "18843"
    sell_certs(g, slsf, "4395", [slsf.certs[1], slsf.certs[0]], 20)
    assert _held(slsf, "4395") == []
    assert sorted(_held(slsf, MARKET)) == ["SLSF_0", "SLSF_1", "SLSF_2", "SLSF_3"]
    assert shares.president(slsf) == "18843"
    sale = Sale(corp="SLSF", pct=20, president="18843", seller="4395", certs=["SLSF_1", "SLSF_0"])
    protection.protect(g, sale, "18843", [])
    assert sorted(_held(slsf, "18843")) == ["SLSF_0", "SLSF_1", "SLSF_4"]
    assert shares.president(slsf) == "18843" and slsf.president_apart is None


def test_a_president_without_the_certificate_hands_over_nothing() -> None:
    """Seed 249 (1129): while the president does not hold the certificate, a player who comes
    to count the most becomes president and no certificate moves: the certificate stays with
    its holder, the new president keeps his shares."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3, 4]})
    _sell_and_protect(g, slsf, [1, 0], 30)
    assert shares.president(slsf) == "18843"
    for n in (5, 6, 7, 8):
        shares.move(slsf, slsf.certs[n], "9263")
    shares.update_presidency(slsf, [p.id for p in g.state.players], "18843")
    assert shares.president(slsf) == "9263" and slsf.president_apart == "9263"
    assert sorted(_held(slsf, "4395")) == ["SLSF_0", "SLSF_1"]
    assert _held(slsf, "9263") == ["SLSF_5", "SLSF_6", "SLSF_7", "SLSF_8"]
    assert _held(slsf, "18843") == ["SLSF_4"]


def test_not_sold_out_while_the_counts_differ_from_the_holdings() -> None:
    """Seed 3 (1358): every certificate is with the players, but the protection above left the
    protector counting 30% for the 20% he holds; the site counts the players' holdings as its
    presidency checks do, finds 110%, and the price does not move up at the stock round's end."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3], MARKET: [4, 5]})
    _sell_and_protect(g, slsf, [1, 0], 20)
    for n, owner in ((1, "9263"), (2, "9263"), (3, "7438"), (4, "7438"), (5, "18843"), (6, "18843"),
                     (7, "18843"), (8, "9263")):
        shares.move(slsf, slsf.certs[n], owner)
    assert all(c.owner not in (IPO, MARKET) for c in slsf.certs)
    assert shares.counted(slsf, "4395") == 30
    assert not g.title.sold_out(slsf)


def test_no_redemption_while_the_market_holds_the_presidents_certificate() -> None:
    """Seed 5 (1156, 1187): the certificate's holder, not president, sold it to the market;
    while it is there the site redeems no share at all (not a player's, not another share of
    the market)."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3, 4]})
    _sell_and_protect(g, slsf, [1, 0], 30)
    sell_certs(g, slsf, "4395", [slsf.certs[0]], 20)
    assert _held(slsf, MARKET) == ["SLSF_2", "SLSF_3", "SLSF_0"]
    for n, owner in ((2, "9263"), (3, "9263"), (5, "7438"), (6, "7438"), (7, "4395"), (8, "9263")):
        shares.move(slsf, slsf.certs[n], owner)
    assert [c.id for c in shares.certs_of(slsf, MARKET)] == ["SLSF_0"]
    rnd: Any = g.round
    slsf.operated_turns, slsf.cash = 1, 1000
    err = rnd.redeem_error("18843", slsf)
    assert err is not None and "president's certificate" in err
    assert redeemable(g, slsf, "18843") == []
    shares.move(slsf, slsf.certs[2], MARKET)  # 1187: an ordinary share beside it in the market
    assert rnd.redeem_error("18843", slsf) is not None


def test_sold_out_when_the_counts_make_100_percent_with_shares_in_the_market() -> None:
    """Seed 6 (1259): after such a protection the market holds 30%, but the players' counted
    holdings make 100%: the site finds the company sold out and its price moves up at the
    stock round's end."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3], MARKET: [4, 5]})
    _sell_and_protect(g, slsf, [1, 0], 20)
    assert shares.counted(slsf, "4395") == 30 and shares.counted(slsf, "18843") == 20
    for n, owner in ((6, "9263"), (7, "9263"), (8, "9263"), (1, "7438"), (2, "7438")):
        shares.move(slsf, slsf.certs[n], owner)
    assert sorted(_held(slsf, MARKET)) == ["SLSF_3", "SLSF_4", "SLSF_5"]
    assert g.title.sold_out(slsf)



def test_a_president_counting_the_most_stays_president_after_selling_the_certificate() -> None:
    """Seed 8 (847): the president holds only the certificate but counts 40% (a protection
    left him counting more than he holds); he sells 10% of it, still counts the most, and as
    on the site stays president without it: the certificate goes to the market and, the
    presidency not passing, nothing comes back."""
    g, slsf = _position({"4395": [0], "18843": [2, 3, 4], "7438": [1]})
    slsf.uncounted["4395"] = -20
    sell_certs(g, slsf, "4395", [slsf.certs[0]], 10)
    assert shares.president(slsf) == "4395" and slsf.president_apart == "4395"
    assert "SLSF_0" in _held(slsf, MARKET) and _held(slsf, "4395") == []
    assert shares.counted(slsf, "4395") == 30


def test_the_protector_taking_it_hands_two_shares_to_a_president_still_holding_20_percent() -> None:
    """Seed 19 (1288): the protector sold all his 50% (three shares and the certificate); the
    new president (40%) handed two shares to the market for the certificate. The protection
    takes the four back (the certificate from the new president); counting 50% against 40%
    the protector takes the presidency and, as on the site, hands his first two ordinary
    shares to the president before the protection, who still holds 20% (not to the market,
    where the bundle's first certificate was)."""
    g, slsf = _position({"4395": [0, 1, 2, 3], "18843": [4, 5, 6, 7]})
    _sell_and_protect(g, slsf, [1, 2, 3, 0], 50)
    assert shares.president(slsf) == "4395" and slsf.president_apart is None
    assert _held(slsf, "4395") == ["SLSF_3", "SLSF_0"]
    assert _held(slsf, "18843") == ["SLSF_6", "SLSF_7", "SLSF_1", "SLSF_2"]
    assert _held(slsf, MARKET) == ["SLSF_4", "SLSF_5"]
