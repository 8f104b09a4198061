"""Audit against the 18xx.games engine: price protection.

Certificate room (site: g_1870/step/price_protection.rb can_buy? uses
num_certs(entity, price_protecting: true), game.rb num_certs): while a protection's room is
checked, NO share of the protector is left out for a sale waiting in the queue - neither the
protected company's nor another company's that was sold in the same turn."""

from __future__ import annotations

from engine.state import IPO
from engine.titles.t1870 import protection
from tests.engine.t1870._util import FAILS, replay


def test_room_counts_shares_of_another_company_waiting_in_the_queue() -> None:
    g = replay(FAILS, 918)  # 5607 sold SSW and FW; 3268 (SSW's president) holds 10% FW
    t = g.title
    ssw_sale, fw_sale = protection.queue(g)
    assert ssw_sale.corp == "SSW" and fw_sale.corp == "FW"
    assert not t.counts_for_cert_limit(g, g.state.corporations["FW"])  # FW would drop to yellow
    spare = [c for corp in g.state.corporations.values() if corp.id not in ("SSW", "FW")
             and t.counts_for_cert_limit(g, corp) for c in corp.certs if c.owner == IPO and not c.president]
    need = t.cert_limit(g) - 1 - t.cert_count(g, "3268")  # room for exactly the SSW share ...
    assert 0 < need <= len(spare)
    for c in spare[:need]:
        c.owner = "3268"
    # ... if FW were left out; the site counts his FW share, so he has no room
    err = protection.protect_error(g, ssw_sale, set())
    assert err is not None and "certificate limit" in err
    assert not t._count_as_protected  # the check leaves no trace


def test_room_still_fine_when_the_queue_share_fits() -> None:
    g = replay(FAILS, 918)
    ssw_sale = protection.queue(g)[0]
    assert protection.protect_error(g, ssw_sale, set()) is None
