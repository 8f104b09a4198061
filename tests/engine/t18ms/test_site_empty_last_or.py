"""The end after OR 10 (11) as on the site: the end is noticed when a move is made while the
last operating round is under way or over. When no company has floated, the operating rounds
pass with no move at all, so OR 10 goes by unnoticed: the next stock round is played, and the
game ends with the operating round after it."""

from __future__ import annotations

from engine.game import Game
from tests.engine._helpers import draft, new_game, pass_


def no_float_game(options: tuple[str, ...] = ()) -> Game:
    g = new_game(3, options)
    draft(g, "M&O", "BS", "M&M")
    return g


def pass_stock_rounds(g: Game, count: int) -> None:
    """Everyone passes through `count` stock rounds (the operating rounds between are empty)."""
    for _ in range(count):
        assert g.round.kind == "stock" and not g.finished
        rnd = g.round
        while not g.finished and g.round is rnd:
            pass_(g)


def test_empty_or_10_goes_on_to_another_stock_round() -> None:
    g = no_float_game()
    pass_stock_rounds(g, 5)  # SR 1-5, each followed by two empty operating rounds (OR 1-10)
    assert g.or_number == 10
    assert not g.finished
    assert g.round.kind == "stock"
    pass_stock_rounds(g, 1)  # SR 6; the empty OR 11 after it ends the game
    assert g.finished and g.state.end_reason == "fixed_round"
    assert g.or_number == 11


def test_or_11_option_empty_rounds() -> None:
    g = no_float_game(("or_11",))
    pass_stock_rounds(g, 5)  # the fifth set has three operating rounds: OR 9-11
    assert g.or_number == 11 and not g.finished and g.round.kind == "stock"
    pass_stock_rounds(g, 1)
    assert g.finished and g.or_number == 12


def test_a_company_floated_after_the_empty_last_or_operates_once() -> None:
    from tests.engine._helpers import buy, current, do, par, pct, president

    g = no_float_game()
    pass_stock_rounds(g, 5)
    assert g.round.kind == "stock"
    while g.round.kind == "stock":  # P1 floats GMO (60%) in SR 6, the others pass
        acted = not {"buy_shares", "par"} & set(g.legal().kinds)
        if current(g) != "P1" or pct(g, "GMO", "P1") >= 60 or acted:
            pass_(g)
        elif president(g, "GMO") is None:
            par(g, "P1", "GMO", 80)
        else:
            buy(g, "P1", "GMO")
    assert g.round.kind == "operating" and g.or_number == 11
    assert g.legal().entity == "GMO"
    while not g.finished:  # GMO's one turn ends the game at the end of OR 11
        lg = g.legal()
        assert g.round.kind == "operating" and g.or_number == 11
        if "run_routes" in lg.kinds:
            do(g, lg.entity, "run_routes", routes=[])
        elif "buy_train" in lg.kinds and "pass" not in lg.kinds:
            tid, face, price, _hi, _seller = lg.trains[0]
            do(g, lg.entity, "buy_train", train=tid, price=price, variant=face)
        else:
            pass_(g, lg.entity)
    assert g.state.end_reason == "fixed_round"
