"""Redemption when the market holds none of the company's shares: from a player, each holder's
first ordinary share (the president's only when his holding is not the largest other). As on the
site, no share can be redeemed from players at all while the president holds only his president's
certificate and more than every other holder (the site finds no ordinary share of his to offer and
refuses every redemption). Found by the lockstep sweep (1870 seed 28, max_reissue_200: SSW's
redemption of SSW_2 from a player, refused by the site)."""

from __future__ import annotations

from typing import Any

from engine.core import shares
from engine.legal import legal_moves
from engine.state import MARKET
from tests.engine.t1870._util import BANK, rejected, replay


def _slsf(moves: dict[str, str]) -> Any:
    """Stock round, 4395 (SLSF's president: 20% + 10%) to act. Three of SLSF's six treasury
    shares are put with another holder (MKT), so that it may redeem (below 4 in its treasury)."""
    g = replay(BANK, 286)
    slsf = g.state.corporations["SLSF"]
    moves = {"SLSF_3": "MKT", "SLSF_4": "MKT", "SLSF_5": "MKT", **moves}
    for cert in slsf.certs:
        if cert.id in moves:
            shares.move(slsf, cert, moves[cert.id])
    assert not shares.certs_of(slsf, MARKET)
    return g


def _redemptions(g: Any) -> list[str]:
    return sorted(c["shares"][0] for c in legal_moves(g).choices
                  if c.get("entity") == "SLSF" and c["type"] == "buy_shares")


def test_president_with_only_his_certificate_and_the_largest_holding_blocks_redemption() -> None:
    g = _slsf({"SLSF_1": "9263"})  # 4395 20% (president's certificate only), others 10% each
    assert _redemptions(g) == []
    err = rejected(g, {"type": "buy_shares", "entity": "SLSF", "entity_type": "corporation",
                       "shares": ["SLSF_1"], "percent": 10})
    assert err.rule == "redeem.refused"


def test_president_with_only_his_certificate_equal_to_another_holder() -> None:
    g = _slsf({"SLSF_1": "18843"})  # 4395 20%, 18843 20%: only 18843's first share (held first)
    assert _redemptions(g) == ["SLSF_2"]


def test_president_with_an_ordinary_share_can_sell_it() -> None:
    g = _slsf({})  # 4395 30%, 18843 10%
    assert _redemptions(g) == ["SLSF_1", "SLSF_2"]


def _redeem(shares_named: list[str]) -> dict[str, Any]:
    return {"type": "buy_shares", "entity": "SLSF", "entity_type": "corporation",
            "shares": shares_named, "percent": 10}


def test_only_the_first_share_of_the_markets_list_may_be_redeemed() -> None:
    """As on the site (sweep from a real game's position, seed 19: TP_6, behind TP_8 in the
    market's list, refused with "Cannot buy a share of TP"): naming another share of the market
    is refused, the first is taken."""
    def position() -> Any:  # (a refusal rolls back to the log's state: a fresh one each time)
        g = _slsf({})
        slsf = g.state.corporations["SLSF"]
        for cid in ("SLSF_7", "SLSF_6"):
            shares.move(slsf, next(c for c in slsf.certs if c.id == cid), MARKET)
        return g

    g = position()
    assert _redemptions(g) == ["SLSF_7"]
    assert rejected(g, _redeem(["SLSF_6"])).rule == "redeem.share"
    g = position()
    g.apply(_redeem(["SLSF_7"]))
    assert [c.id for c in shares.certs_of(g.state.corporations["SLSF"], MARKET)] == ["SLSF_6"]


def test_only_each_holders_first_ordinary_share_may_be_redeemed() -> None:
    """From the players, the site offers each holder's first ordinary share only: 18843 holds
    SLSF_2 then SLSF_6; naming SLSF_6 is refused."""
    g = _slsf({"SLSF_6": "18843"})
    assert _redemptions(g) == ["SLSF_1", "SLSF_2"]
    assert rejected(g, _redeem(["SLSF_6"])).rule == "redeem.share"
    g = _slsf({"SLSF_6": "18843"})
    g.apply(_redeem(["SLSF_2"]))
    assert shares.certs_of(g.state.corporations["SLSF"], "18843")[0].id == "SLSF_6"
