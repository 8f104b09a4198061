"""With `can_protect_if_sold`, a player may never price-protect a sale he made himself, also in an
operating round (a president's emergency sale of his own company's shares to buy a train), as on
the site; without the option the rule stays "not a company he sold this round" (in a stock round).
Found by the lockstep sweep (1870 seed 29: after IC's forced train purchase its president was
offered to protect the IC and MP shares he had just sold; the site skipped him)."""

from __future__ import annotations

from typing import Any

from engine.io.export18xx import import_game
from engine.titles.t1870 import protection
from engine.titles.t1870.state import Sale
from tests.engine.t1870._util import BANK, fixture


def _game(options: list[str]) -> Any:
    data = fixture(BANK)
    data["settings"] = {**(data.get("settings") or {}), "optional_rules": options}
    return import_game(data, upto=281)


def _own_sale(g: Any) -> Sale:
    pid = next(p.id for p in g.state.players if p.cash >= 200)
    return Sale(corp="MP", pct=10, president=pid, seller=pid, certs=[])


def test_seller_may_not_protect_his_own_sale_with_the_option() -> None:
    g = _game(["can_protect_if_sold"])
    err = protection.protect_error(g, _own_sale(g), set())  # nothing sold in a stock round
    assert err is not None and "sold" in err


def test_another_players_sale_may_be_protected_with_the_option() -> None:
    g = _game(["can_protect_if_sold"])
    sale = _own_sale(g)
    sale.seller = next(p.id for p in g.state.players if p.id != sale.president)
    assert protection.protect_error(g, sale, {"MP"}) is None


def test_without_the_option_an_operating_round_sale_may_be_protected() -> None:
    g = _game([])
    assert protection.protect_error(g, _own_sale(g), set()) is None
