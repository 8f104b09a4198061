"""1870's stock market zones and moves: the ledge, sold-out moves in the top row, closing.

Zones (cell types in market.json): `no_cert_limit` (yellow), `unlimited` (green), `multiple_buy`
(brown), `close` (black $0), `ledge` (red: one share sold never carries the price into it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core import market as mk
from engine.core.market import Cell
from engine.titles.t1870.state import title1870

if TYPE_CHECKING:
    from engine.game import Game
    from engine.state import Corporation

NO_LIMIT = ("no_cert_limit", "unlimited", "multiple_buy")  # shares do not count toward the limit
ABOVE_60 = ("unlimited", "multiple_buy")  # a player may hold more than 60%


def zone(game: Game, cell: Cell | None) -> tuple[str, ...]:
    return game.title.market.types(cell) if cell is not None else ()


def is_ledge(game: Game, cell: Cell) -> bool:
    return "ledge" in zone(game, cell)


def exists(game: Game, cell: Cell) -> bool:
    """A cell of the grid, the black $0 (closing) cells included."""
    grid = game.title.market.grid
    r, c = cell
    return 0 <= r < len(grid) and 0 <= c < len(grid[r])


def down(game: Game, cell: Cell) -> Cell:
    below = (cell[0] + 1, cell[1])
    return below if exists(game, below) else cell


def left(game: Game, cell: Cell) -> Cell:
    r, c = cell
    if exists(game, (r, c - 1)):
        return (r, c - 1)
    return down(game, cell)


def move_right(game: Game, corp: Corporation) -> None:
    """Pay-out move: one right; into the ledge from outside it (or off the row's end): one up."""
    m = game.title.market
    assert corp.cell is not None
    r, c = corp.cell
    nxt = (r, c + 1)
    if m.exists(nxt) and not (is_ledge(game, nxt) and not is_ledge(game, corp.cell)):
        mk.move(game.state, corp, nxt)
    else:
        mk.move(game.state, corp, m.up(corp.cell))
    title1870(game).after_price_move(game, corp)


def move_left(game: Game, corp: Corporation) -> None:
    assert corp.cell is not None
    mk.move(game.state, corp, left(game, corp.cell))
    title1870(game).after_price_move(game, corp)


def drop_for_sale(game: Game, corp: Corporation, shares: int) -> None:
    """One row down per share; a single share never carries the price into the ledge (the move
    is carried to the next share of the same sale, or lost)."""
    carried = False
    for _ in range(shares):
        assert corp.cell is not None
        if carried:
            mk.move(game.state, corp, down(game, corp.cell))
            carried = False
        r, c = corp.cell
        below = (r + 1, c)
        if not is_ledge(game, corp.cell) and exists(game, below) and is_ledge(game, below):
            carried = True
        else:
            mk.move(game.state, corp, down(game, corp.cell))
    title1870(game).after_price_move(game, corp)


def drop_cell(game: Game, corp: Corporation, shares: int) -> Cell | None:
    """Where a sale of `shares` would leave the price (without moving it)."""
    cell = corp.cell
    if cell is None:
        return None
    carried = False
    for _ in range(shares):
        if carried:
            cell = down(game, cell)
            carried = False
        below = (cell[0] + 1, cell[1])
        if not is_ledge(game, cell) and exists(game, below) and is_ledge(game, below):
            carried = True
        else:
            cell = down(game, cell)
    return cell


def sold_out_move(game: Game, corp: Corporation) -> None:
    """End of a stock round: one row up; in the top row one right and one down (same price)."""
    m = game.title.market
    assert corp.cell is not None
    r, c = corp.cell
    if r > 0:
        mk.move(game.state, corp, m.up(corp.cell))
    elif m.exists((r + 1, c + 1)):
        mk.move(game.state, corp, (r + 1, c + 1))
    title1870(game).after_price_move(game, corp)  # e.g. up into the $400 cell
