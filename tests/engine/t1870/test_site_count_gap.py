"""While a protection of a sale of the president's certificate has left the players counting other
than they hold (a count gap, Corporation.uncounted), as the site does it (learned with the
referee from sweep seeds 10, 22 and 28):
- sold out means the players' counted holdings plus the company's redeemed treasury shares
  make exactly 100% (seed 10: SP, 100% counted with the players and 10% redeemed, is not sold
  out on the site and its price does not move up);
- with none of its shares in the market, a company redeems nothing from its players while any
  player counts a holding of it but holds none of its certificates (seed 28 at 1237: the site
  refuses TP's redemption of its president's ordinary share; seed 10 at 1605, every player
  counting a holding holding a certificate, it accepts each holder's first ordinary share);
- a player takes the presidency only if he holds at least the president's certificate's
  percent: counting it is not enough (seed 28 at 1240).

The positions are made as in test_site_protect_takes_certificate (SLSF at $100, players 9263,
7438, 4395, 18843 in turn order), the protection being the engine's own."""

from __future__ import annotations

from typing import Any

from engine.core import shares
from engine.flow.share_moves import sell_certs
from engine.game import Game
from engine.legal import legal_moves
from engine.state import MARKET, Corporation
from tests.engine.t1870._util import rejected
from tests.engine.t1870.test_site_protect_takes_certificate import (
    _held,
    _position,
    _sell_and_protect,
)


def _gap() -> tuple[Game, Corporation]:
    """4395 sold SLSF's president's certificate and a share (20% of his 30%) and protected the
    sale: he holds 20% and counts 30%, 18843 counts 20% and holds nothing."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3], MARKET: [4, 5]})
    _sell_and_protect(g, slsf, [1, 0], 20)
    assert shares.counted(slsf, "4395") == 30 and shares.percent(slsf, "4395") == 20
    assert shares.counted(slsf, "18843") == 20 and shares.percent(slsf, "18843") == 0
    return g, slsf


def test_sold_out_counts_the_redeemed_treasury_shares() -> None:
    """The players count 90% (the market holds 30%), SLSF's treasury 10%: sold out."""
    g, slsf = _gap()
    for n, owner in ((6, "9263"), (7, "9263"), (1, "7438"), (2, "7438"), (8, "SLSF")):
        shares.move(slsf, slsf.certs[n], owner)
    assert sum(shares.counted(slsf, p.id) for p in g.state.players) == 90
    assert g.title.sold_out(slsf)


def test_not_sold_out_when_the_counts_and_the_treasury_make_more_than_100_percent() -> None:
    """Seed 10 (1627): the players count 100%, a redeemed share is in the treasury (110%): not
    sold out."""
    g, slsf = _gap()
    for n, owner in ((6, "9263"), (7, "9263"), (8, "9263"), (1, "7438"), (2, "7438"), (3, "SLSF")):
        shares.move(slsf, slsf.certs[n], owner)
    assert sum(shares.counted(slsf, p.id) for p in g.state.players) == 100
    assert not g.title.sold_out(slsf)


def _redeem_position() -> tuple[Game, Corporation]:
    """The gap, nothing in the market, SLSF operated with cash and two treasury shares; 4395
    (president, holding 20% + 10%) to act."""
    g, slsf = _gap()
    for n, owner in ((4, "9263"), (5, "9263"), (1, "7438"), (2, "7438"), (3, "4395"),
                     (6, "SLSF"), (7, "SLSF"), (8, "9263")):
        shares.move(slsf, slsf.certs[n], owner)
    assert not shares.certs_of(slsf, MARKET)
    slsf.operated_turns, slsf.cash = 1, 1000
    return g, slsf


def _redemptions(g: Game) -> list[str]:
    return sorted(c["shares"][0] for c in legal_moves(g).choices
                  if c.get("entity") == "SLSF" and c["type"] == "buy_shares")


def test_no_redemption_from_players_while_a_player_counts_a_holding_and_holds_none() -> None:
    """Seed 28 (1237): 18843 counts 20% and holds no certificate: the site refuses every
    redemption ("A share bundle must contain at least one share")."""
    g, slsf = _redeem_position()
    assert shares.counted(slsf, "18843") == 20 and _held(slsf, "18843") == []
    assert _redemptions(g) == []
    err = rejected(g, {"type": "buy_shares", "entity": "SLSF", "entity_type": "corporation",
                       "shares": ["SLSF_1"], "percent": 10})
    assert err.rule == "redeem.refused" and "no ordinary share" in str(err)


def test_no_redemption_from_players_while_the_certificates_holder_has_no_ordinary_share() -> None:
    """Seed 249 (1503): the president (18843) does not hold the certificate; its holder (4395)
    holds nothing else, counting a holding: nothing in the market, the site refuses every
    redemption ("A share bundle must contain at least one share"), though every player who
    counts a holding holds a certificate."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3, 4]})
    _sell_and_protect(g, slsf, [1, 0], 30)
    assert shares.president(slsf) == "18843" and slsf.president_apart == "18843"
    sell_certs(g, slsf, "4395", [slsf.certs[1]], 10)
    assert _held(slsf, "4395") == ["SLSF_0"] and shares.counted(slsf, "4395") > 0
    for n, owner in ((1, "9263"), (2, "9263"), (3, "7438"), (5, "7438"), (6, "18843"),
                     (7, "SLSF"), (8, "SLSF")):
        shares.move(slsf, slsf.certs[n], owner)
    assert not shares.certs_of(slsf, MARKET)
    assert all(shares.percent(slsf, p.id) for p in g.state.players if shares.counted(slsf, p.id))
    slsf.operated_turns, slsf.cash = 1, 1000
    rnd: Any = g.round
    err = rnd.redeem_error("18843", slsf)
    assert err is not None and "no ordinary share" in err
    shares.move(slsf, slsf.certs[2], "4395")  # an ordinary share beside the certificate
    assert rnd.redeem_error("18843", slsf) is None


def test_redemption_from_players_while_every_counting_player_holds_a_certificate() -> None:
    """Seed 10 (1605): with a gap but every player counting a holding holding a certificate, the
    site redeems the players' first ordinary shares."""
    g, slsf = _redeem_position()
    shares.move(slsf, slsf.certs[8], "18843")  # 18843 holds 10%, counts 30%
    assert _redemptions(g) == ["SLSF_1", "SLSF_3", "SLSF_4", "SLSF_8"]


def test_counting_the_presidents_percent_without_holding_it_does_not_take_the_presidency() -> None:
    """Seed 28 (1240): the president 4395 holds 50% (the certificate and three shares) and
    counts 30%, 18843 holds one share and counts 30%, 9263 holds and counts 20%. 4395 sells two
    shares and counts 10%: 18843 counts the most but holds less than the president's 20%, so
    the presidency does not pass, as on the site: 4395 stays president with the certificate
    (nor does it pass to 9263, who holds 20% but counts less than 18843)."""
    g, slsf = _position({"4395": [0, 1, 2, 8], "18843": [3], "9263": [4, 5]})
    slsf.uncounted.update({"4395": 20, "18843": -20})
    sell_certs(g, slsf, "4395", [slsf.certs[1], slsf.certs[2]], 20)
    assert shares.counted(slsf, "4395") == 10
    assert shares.counted(slsf, "18843") == 30 and shares.percent(slsf, "18843") == 10
    assert shares.president(slsf) == "4395" and slsf.president_apart is None
    assert _held(slsf, "4395") == ["SLSF_0", "SLSF_8"] and _held(slsf, "18843") == ["SLSF_3"]


def test_the_sold_part_of_the_certificate_is_taken_back_as_market_shares_that_end_its_list() -> None:
    """Seed 25 (506, then 992): 4395 (the certificate and SLSF_5) sold 20%; SLSF_1, first of the
    market's list, came back to him and 18843 took the presidency, his two shares going to the
    market. 4395 protects: as on the site, the market's list ends with SLSF_2 (the share the
    site took back for the sold part of the certificate and gave back to the market), and a
    redemption then takes SLSF_3, the first of the list."""
    g, slsf = _position({"4395": [0, 5], "18843": [3, 4], MARKET: [1, 2]})
    _sell_and_protect(g, slsf, [5, 0], 20)
    assert _held(slsf, "4395") == ["SLSF_0"] and _held(slsf, "18843") == []
    assert _held(slsf, MARKET) == ["SLSF_3", "SLSF_4", "SLSF_1", "SLSF_5", "SLSF_2"]
    assert shares.president(slsf) == "4395"
    slsf.operated_turns, slsf.cash = 1, 1000
    for n in (6, 7, 8):
        shares.move(slsf, slsf.certs[n], "9263")
    assert _redemptions(g) == ["SLSF_3"]


def test_the_sold_part_of_the_certificate_keeps_the_markets_order_when_the_presidency_stays() -> None:
    """Seed 19 from a real game's position (1153, 1157, then 1509): the president (the
    certificate and two shares, 40%) sold 20% of it, certificate first-but-one; the other
    holder (40%) took the presidency, his two shares going to the market and its first share
    back to the seller for the part of the certificate not sold. The seller protects: he counts
    40%, a tie, so the presidency stays and, as on the site, no share of the market moves: its
    list keeps its order, and a redemption takes its first share (the site refused TP_6, the
    share behind it, and took TP_8, the first)."""
    g, slsf = _position({"4395": [0, 5, 6], "18843": [3, 4, 7, 8], MARKET: [1, 2]})
    _sell_and_protect(g, slsf, [5, 0], 20)
    assert _held(slsf, "4395") == ["SLSF_6", "SLSF_1", "SLSF_5", "SLSF_0"]
    assert shares.president(slsf) == "18843"
    assert _held(slsf, MARKET) == ["SLSF_2", "SLSF_3", "SLSF_4"]


def test_the_whole_certificate_sold_moves_no_market_share_to_the_end_of_its_list() -> None:
    """Seed 8 (792): the sale held the whole president's certificate; after its protection the
    market's list keeps its order (the site redeems its first share, IC_2 there)."""
    g, slsf = _position({"4395": [0, 1], "18843": [2, 3, 4], MARKET: [5, 6]})
    _sell_and_protect(g, slsf, [1, 0], 30)
    assert _held(slsf, MARKET) == ["SLSF_5", "SLSF_6", "SLSF_2", "SLSF_3"]


def test_the_seller_of_the_certificate_stays_president_when_no_one_counting_more_holds_20() -> None:
    """Seeds 95 (1462) and 33 (1460): the president 4395 holds the certificate and a share (30%)
    and counts 40%; 18843 holds one share and counts 30%. 4395 sells both (30%): he counts 10%,
    18843 counts the most but holds less than the certificate's 20%, so the presidency does
    not pass, as on the site: 4395 stays president without the certificate, which is in the
    market (Corporation.president_apart)."""
    g, slsf = _position({"4395": [0, 1], "18843": [3], "9263": [4, 5], "7438": [2]})
    slsf.uncounted.update({"4395": -10, "18843": -20})
    sell_certs(g, slsf, "4395", [slsf.certs[1], slsf.certs[0]], 30)
    assert shares.counted(slsf, "4395") == 10 and shares.percent(slsf, "4395") == 0
    assert shares.counted(slsf, "18843") == 30 and shares.percent(slsf, "18843") == 10
    assert shares.president_cert(slsf).owner == MARKET
    assert shares.president(slsf) == "4395" and slsf.president_apart == "4395"


def test_no_redemption_from_players_while_a_player_counts_below_zero_and_holds_none() -> None:
    """Seed 19 (1678): 1003 holds no ATSF certificate and counts -10% (a presidency exchange
    handed him less than it took); nothing in the market: the site refuses ATSF's redemption
    of a share of its players ("A share bundle must contain at least one share")."""
    g, slsf = _redeem_position()
    shares.move(slsf, slsf.certs[8], "18843")  # every player counting a holding holds one
    assert _redemptions(g)
    for n in (1, 2):
        shares.move(slsf, slsf.certs[n], "9263")
    slsf.uncounted["7438"] = 10
    assert shares.counted(slsf, "7438") == -10 and _held(slsf, "7438") == []
    assert _redemptions(g) == []
