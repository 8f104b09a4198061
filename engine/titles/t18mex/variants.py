"""The 18MEX optional map and companies: the Baja variant (`baja_variant`) adds gray Santa
Rosalia (H3) beside Los Mochis, turns Los Mochis (I4) into a red off-board, and adds the
private Compagnie du Boleo (CdB), whose owning company may place an extra, free token in Santa
Rosalia. The facts are `variant_hexes` in map.json and `variant_companies` in companies.json;
this module only completes them into hexes (grid position, neighbours, phase revenues)."""

from __future__ import annotations

import dataclasses
from functools import cache
from typing import Any

from engine.core.data import TitleData, _hex, load_title_data

BAJA = "baja_variant"
CDB, SANTA_ROSALIA, LOS_MOCHIS = "CdB", "H3", "I4"
CDB_PRICE = (15, 30)  # bought by a company from phase 2


def _by_phase(revenue: Any, phases: list[dict[str, Any]]) -> dict[str, int] | None:
    """{'yellow': 30, 'brown': 40} -> the value in each phase (its off-board revenue column)."""
    if not isinstance(revenue, dict):
        return None
    return {p["name"]: int(revenue.get(p.get("offboard_revenue_column", ""), 0)) for p in phases}


@cache
def baja_data(title: str = "18MEX") -> TitleData:
    data = load_title_data(title)
    var = data.variant_hexes
    hexes = dict(data.hexes)
    phases = data.phases
    base_i4 = data.hexes[LOS_MOCHIS]

    def complete(name: str, d: dict[str, Any], **kw: Any) -> dict[str, Any]:
        out = {**d, "name": name, "tileable": False, "tile_colors_allowed": [],
               "preprinted_tile_id": f"{name}-0", **kw}
        out["cities"] = [{"home_of": [], "reserved_for": [], **c,
                          **({"revenue_by_phase": _by_phase(c["revenue"], phases)}
                             if isinstance(c.get("revenue"), dict) else {})}
                         for c in d.get("cities", [])]
        return out

    i4 = complete(LOS_MOCHIS, var[LOS_MOCHIS], kind="offboard", grid_xy=[base_i4.x, base_i4.y],
                  neighbors={"2": SANTA_ROSALIA, **{str(k): v for k, v in base_i4.neighbors.items()}},
                  passable_edges=[2, 3, 4, 5])
    h3 = complete(SANTA_ROSALIA, var[SANTA_ROSALIA], kind="gray", grid_xy=[base_i4.x - 1, base_i4.y - 1],
                  neighbors={"5": LOS_MOCHIS}, passable_edges=[5])
    hexes[LOS_MOCHIS], hexes[SANTA_ROSALIA] = _hex(i4), _hex(h3)
    # (the start auction offers the certificates cheapest first: CdB comes in at its $30)
    companies = list(data.companies) + [c for c in data.variant_companies if c.get("variant") == BAJA]
    return dataclasses.replace(data, hexes=hexes, companies=companies)
