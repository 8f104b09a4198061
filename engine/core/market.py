"""The stock market grid: prices, token moves, stacks and operating order.

Moves follow the title's market data; `State.market` holds each cell's stack (first = top,
operates first among equals). A token that moves goes to the bottom of the new cell's stack;
a token that does not move keeps its place.
"""

from __future__ import annotations

from typing import Any

from engine.state import Corporation, State

Cell = tuple[int, int]


class Market:
    def __init__(self, market: dict[str, Any]) -> None:
        self.grid: list[list[int]] = market["grid_prices"]
        self.cell_types: dict[Cell, tuple[str, ...]] = {}
        for cid, types in market["cells"].items():
            _, r, c = cid.split(",")
            self.cell_types[(int(r), int(c))] = tuple(types)
        self.par_cells: dict[str, Cell] = {
            p["id"]: (p["row"], p["col"]) for p in market.get("par_cells", [])
        }
        self._parsed: dict[str, Cell] = {}  # cell id -> cell, of the ids parsed so far
        self._of_type: dict[str, frozenset[Cell]] = {}  # type -> its cells (see `cells_of`)

    # ----- geometry
    def exists(self, cell: Cell) -> bool:
        r, c = cell
        return 0 <= r < len(self.grid) and 0 <= c < len(self.grid[r]) and self.grid[r][c] > 0

    def price(self, cell: Cell) -> int:
        return self.grid[cell[0]][cell[1]]

    def types(self, cell: Cell) -> tuple[str, ...]:
        return self.cell_types.get(cell, ())

    def cells_of(self, kind: str) -> frozenset[Cell]:
        """The cells whose types include `kind` (`cell in cells_of(kind)` is `kind in
        types(cell)`). Kept once found: the cell types are set when the title is made (a
        title's options change them in its __init__), before any question is asked."""
        got = self._of_type.get(kind)
        if got is None:
            got = self._of_type[kind] = frozenset(
                cell for cell, types in self.cell_types.items() if kind in types)
        return got

    def cell_id(self, cell: Cell) -> str:
        return f"{self.price(cell)},{cell[0]},{cell[1]}"

    def parse_cell_id(self, cid: str) -> Cell:
        cell = self._parsed.get(cid)
        if cell is not None:
            return cell
        cell = self._parse_cell_id(cid)
        if len(self._parsed) > 1024:  # (a grid's ids are few; only valid ones are kept)
            self._parsed.clear()
        self._parsed[cid] = cell
        return cell

    def _parse_cell_id(self, cid: str) -> Cell:
        try:
            price_s, r, c = cid.split(",")
            cell = (int(r), int(c))
        except ValueError as exc:
            raise KeyError(cid) from exc
        if not self.exists(cell) or self.price(cell) != int(price_s):
            raise KeyError(cid)
        return cell

    # ----- moves (each returns the new cell, possibly unchanged)
    def right(self, cell: Cell) -> Cell:
        r, c = cell
        if self.exists((r, c + 1)):
            return (r, c + 1)
        if self.exists((r - 1, c)):
            return (r - 1, c)
        return cell

    def left(self, cell: Cell) -> Cell:
        r, c = cell
        if self.exists((r, c - 1)):
            return (r, c - 1)
        if self.exists((r + 1, c)):
            return (r + 1, c)
        return cell

    def down(self, cell: Cell, steps: int = 1) -> Cell:
        for _ in range(steps):
            nxt = (cell[0] + 1, cell[1])
            if not self.exists(nxt):
                break
            cell = nxt
        return cell

    def up(self, cell: Cell, steps: int = 1) -> Cell:
        for _ in range(steps):
            nxt = (cell[0] - 1, cell[1])
            if not self.exists(nxt):
                break
            cell = nxt
        return cell


def place(state: State, corp: Corporation, cell: Cell) -> None:
    """Put a corporation's token on a cell (bottom of the stack)."""
    state.market.setdefault(cell, []).append(corp.id)
    corp.cell = cell


def move(state: State, corp: Corporation, cell: Cell) -> None:
    """Move a token; a token that does not change cell keeps its place in the stack."""
    if corp.cell == cell:
        return
    if corp.cell is not None:
        stack = state.market.get(corp.cell, [])
        if corp.id in stack:
            stack.remove(corp.id)
        if not stack:
            state.market.pop(corp.cell, None)
    place(state, corp, cell)


def remove(state: State, corp: Corporation) -> None:
    if corp.cell is not None:
        stack = state.market.get(corp.cell, [])
        if corp.id in stack:
            stack.remove(corp.id)
        if not stack:
            state.market.pop(corp.cell, None)
    corp.cell = None


def order_key(state: State, market: Market, corp: Corporation) -> tuple[int, int, int, int]:
    """Operating order: higher price first, then further right, then higher row, then stack."""
    assert corp.cell is not None
    r, c = corp.cell
    stack = state.market.get(corp.cell, [])
    pos = stack.index(corp.id) if corp.id in stack else len(stack)
    return (-market.price(corp.cell), -c, r, pos)
