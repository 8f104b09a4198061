"""1870 private companies and the river: route bonuses (cattle, ports, the doubled
destination), buying privates, the bridge company's lays, cattle and port assignments, and the
Mississippi river-side rules for track."""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING, Any

from engine.core import tiles
from engine.errors import EngineError
from engine.routes.types import Board, NodeRef, RouteRules
from engine.state import Corporation
from engine.titles.t1870.ids import (
    BLUE_REVENUE_PHASE,
    CATTLE,
    NO_BUY_COMPANIES,
    PORT,
    RIVER_COMPANY,
    RIVER_CORPS,
)
from engine.titles.t1870.state import Assignment, corp1870, state1870

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.game import Game
    from engine.title import Title
else:
    Title = object  # the mixin's host is Title1870 (engine/titles/t1870/title.py)


OLD_MANIFEST_FIVE = ("5", "6")  # tiles of which logs before 2021-04-23 had five copies
OLD_MANIFEST_UNTIL = 1619136000  # 2021-04-23 00:00 UTC: a lay made before it may name them


class PrivateRules(Title):
    def revenue_phase(self, game: Game) -> str:
        """The phase whose off-board values apply: phase D pays the third (blue) value."""
        phase = game.state.phase
        return BLUE_REVENUE_PHASE if phase == "D" else phase

    def route_rules(self, game: Game, corp: Corporation) -> RouteRules:
        st = game.state
        # (a copy of the markers as they are now: their fields are plain values)
        assigned = {k: dataclasses.replace(v) for k, v in state1870(game).assignments.items()}
        dest = corp1870(corp).destination_hex_reached
        data = self.data
        phase = self.revenue_phase(game)

        def node_value(board: Board, ref: NodeRef) -> int:
            hex_name, kind, idx = ref
            placed = board.tiles.get(hex_name)
            geo = data.tiles[placed[0]].geometry if placed else data.hexes[hex_name].geometry
            return int(geo.node(kind, idx).value(phase))

        def bonus(board: Board, corp_id: str, stops: list[NodeRef]) -> int:
            total = 0
            hexes = {s[0] for s in stops}
            cattle = assigned.get(CATTLE)
            if cattle and cattle.corp == corp_id and cattle.hex in hexes:
                total += 10
            port = assigned.get(PORT)
            if port and port.hex in hexes:
                if port.corp == corp_id:
                    total += 20
                elif not port.closed:
                    total += 10
            if dest and len(stops) >= 2:
                ends = [s for s in (stops[0], stops[-1]) if s[0] == dest]
                if ends:
                    total += node_value(board, ends[0])
            return total

        # an upper bound on one route's bonus lets the solver prune by revenue
        cattle_a, port_a = assigned.get(CATTLE), assigned.get(PORT)
        bound = 10 if cattle_a and cattle_a.corp == corp.id else 0
        if port_a:
            bound += 20 if port_a.corp == corp.id else (0 if port_a.closed else 10)
        if isinstance(dest, str):
            placed = st.tiles.get(dest)
            geo = data.tiles[placed.tile].geometry if placed else data.hexes[dest].geometry
            bound += max((int(n.value(phase)) for n in geo.nodes()), default=0)
        return RouteRules(phase=phase, route_bonus=bonus, route_bonus_max=bound)

    def purchasable_companies(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[Any]:
        st = game.state
        owned = [c for c in st.companies.values()
                 if not c.closed and c.owner in {p.id for p in st.players} and c.id not in NO_BUY_COMPANIES]
        if "can_buy_companies" not in (self.phase_data(game).get("engine_status_flags") or []):
            owned = []
        if st.phase == "1":
            # the site offers the bridge to MP and SSW even once one of them holds it or it has
            # closed (then only a pass is possible: buy_company refuses what no player holds)
            return [st.companies[RIVER_COMPANY]] if corp.id in RIVER_CORPS else []
        return owned

    def company_price_range(self, game: Game, company: Any) -> tuple[int, int]:
        if company.id == RIVER_COMPANY:
            return (math.ceil(company.value / 2), int(state1870(game).river_max))
        return (math.ceil(company.value / 2), company.value * 2)

    def company_purchase_refusal(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any) -> str:
        if company.id in NO_BUY_COMPANIES:
            return f"No corporation may buy {company.id}."
        if game.state.phase == "1":
            return "In phase 1 only the MP or the SSW may buy a private company: the Mississippi River Bridge."
        return f"{company.id} is not held by a player, so {corp.id} cannot buy it."

    def buy_company(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        company = game.state.companies.get(action.company)
        if company is not None and company.owner not in {p.id for p in game.state.players}:
            raise EngineError(f"{company.id} is not held by a player, so {corp.id} cannot buy it.",
                              rule="company.buy")
        super().buy_company(game, rnd, corp, action)

    def process_company_action(self, game: Game, rnd: OperatingRound, corp: Corporation, company: Any, action: Any) -> None:
        if action.type == "assign" and company.id in (CATTLE, PORT):
            self.assign(game, corp, company, action.target)
            return
        if action.type == "lay_tile" and company.id == RIVER_COMPANY:
            if company.uses >= 1:
                raise EngineError("The Mississippi River Bridge Company's tile lay is used up.", rule="company.used")
            spec = next(c for c in self.data.companies if c["id"] == RIVER_COMPANY)
            ability = next(a for a in spec["ability"] if a["type"] == "discounted_tile_lay")
            if action.hex not in ability["hexes"]:
                raise EngineError(f"The bridge company's lay must be in a river hex, not {action.hex}.",
                                  rule="company.hex")
            if rnd.step_name() != "track":  # the site's ability is usable in the track step only
                raise EngineError("The bridge company's tile is laid in the track step only.",
                                  rule="company.when")
            if action.tile.rpartition("-")[0] not in ability["tiles"]:
                raise EngineError("The bridge company lays only a yellow tile: it cannot upgrade.",
                                  rule="company.tile")
            home_extra = (corp.id in RIVER_CORPS and corp.operated_turns == 0
                          and corp.home is not None and action.hex == corp.home[0])
            cost = max(0, self.terrain_cost(game, corp, action.hex) - 40)
            if home_extra:
                cost = 0
            self._lay_with_cost(game, rnd, corp, action, cost, count_lay=not home_extra)
            company.uses += 1
            return
        raise EngineError(f"{company.id} has no ability that does that.", rule="company.ability")

    def _lay_with_cost(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any,
                       cost: int, count_lay: bool) -> None:
        st = game.state
        before = corp.cash
        # a private's lay: the site checks no track restriction
        self.lay_tile(game, rnd, corp, action, free=True, count_lay=count_lay, restrict=False)
        if cost > before:
            raise EngineError(f"{corp.id} cannot pay ${cost} for {action.hex}.", rule="track.cost")
        corp.cash -= cost
        st.bank.cash += cost

    def assign(self, game: Game, corp: Corporation, company: Any, target: str) -> None:
        assigned: dict[str, Assignment] = state1870(game).assignments
        spec = next(c for c in self.data.companies if c["id"] == company.id)
        if target not in spec["ability"]["hexes"]:
            raise EngineError(f"{company.id}'s token may not go on {target}.", rule="company.assign_hex")
        if company.id == CATTLE:
            if CATTLE in assigned:
                raise EngineError("The cattle token is already placed.", rule="company.used")
            assigned[CATTLE] = Assignment(hex=target, corp=corp.id)
            return
        port = assigned.get(PORT)
        if port is None:
            assigned[PORT] = Assignment(hex=target, corp=corp.id)
            return
        if port.closed or port.hex != target:
            raise EngineError("The closed port may only replace the open port on its own city.",
                              rule="company.port")
        port.closed = True
        company.closed = True

    def tile_lays(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[dict[str, Any]]:
        return [{"lay": True, "upgrade": True}, {"lay": "not_if_upgraded", "upgrade": False}]

    def track_abilities_block(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """The owner of an unused bridge company's lay passes its track step explicitly."""
        bridge = game.state.companies.get(RIVER_COMPANY)
        if bridge is not None and bridge.owner == corp.id and not bridge.closed and bridge.uses < 1:
            return True
        return self.can_buy_track_company(game, rnd, corp)

    def can_buy_track_company(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """As on the site, the track step also waits (for a pass) while the corporation could buy
        a player's company that lays track (the bridge) at its lowest price, once companies may
        be bought: it may buy it and lay with it before ending the step."""
        if "can_buy_companies" not in (self.phase_data(game).get("engine_status_flags") or []):
            return False
        return any(c.id == RIVER_COMPANY and self.company_price_range(game, c)[0] <= corp.cash
                   for c in self.purchasable_companies(game, rnd, corp))

    def lay_tile(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any, **kw: Any) -> None:
        if action.hex in rnd.turn.laid_hexes:
            raise EngineError(f"{corp.id} has already laid a tile on {action.hex} this turn.",
                              rule="track.same_hex")
        self.allow_old_copy(game, action.tile, action.created_at)
        found = tiles.take_tile(game.state, self.data, action.tile)
        if found is not None:
            err = self.river_error(game, action.hex, found[0], action.rotation)
            if err:
                raise EngineError(err, rule="track.river")
        super().lay_tile(game, rnd, corp, action, **kw)

    def allow_old_copy(self, game: Game, copy_id: str, created_at: int | None) -> None:
        """Logs from before 2021-04-23 had five copies of #5 and #6: in a recorded log, a lay
        made before that day naming a copy the current manifest does not know (5-2..5-4,
        6-2..6-4), and that is nowhere on the map, takes it as an extra copy (follow the log).
        A later lay, and a live move, names a copy the manifest has."""
        name, _, num = copy_id.rpartition("-")
        if (not game.trusting_log or created_at is None or created_at >= OLD_MANIFEST_UNTIL
                or name not in OLD_MANIFEST_FIVE or not num.isdigit() or int(num) >= 5):
            return
        tile = self.data.tiles.get(name)
        if tile is None or copy_id in tile.copy_ids:
            return
        if any(p.copy_id == copy_id for p in game.state.tiles.values()):
            return
        supply = game.state.tile_supply.setdefault(name, [])
        if copy_id not in supply:
            supply.append(copy_id)

    def river_error(self, game: Game, hex_name: str, tile: Any, rotation: int) -> str | None:
        """While a player holds the Mississippi River Bridge Company no track may cross the river."""
        bridge = game.state.companies.get(RIVER_COMPANY)
        if bridge is None or bridge.closed or bridge.owner is None or bridge.owner in game.state.corporations:
            return None
        parts = self.data.hexes[hex_name].extra.get("partitions") or []
        if not parts:
            return None
        groups = _edge_groups(tile.geometry, rotation)
        for part in parts:
            a, b = set(part["side_a_edges"]), set(part["side_b_edges"])
            stay = part.get("track_must_stay_on")
            for edges, has_node in groups:
                if not (edges <= a or edges <= b):
                    return (f"The Mississippi River Bridge Company is held by a player: track on {hex_name} "
                            "may not cross the river.")
                if has_node and stay == "side_a" and not edges <= a:
                    return f"The city on {hex_name} lies on the other bank: its track may not cross the river."
                if has_node and stay == "side_b" and not edges <= b:
                    return f"The city on {hex_name} lies on the other bank: its track may not cross the river."
        return None


def _edge_groups(geo: Any, rotation: int) -> list[tuple[set[int], bool]]:
    """Track of a tile as groups of edges joined directly or through a city/town."""
    groups: list[tuple[set[int], bool]] = []
    by_node: dict[tuple[str, int], set[int]] = {}
    for p in geo.paths:
        ends = [(p.a[0], p.a[1]), (p.b[0], p.b[1])]
        edges = {(e[1] + rotation) % 6 for e in ends if e[0] == "edge"}
        nodes = [e for e in ends if e[0] != "edge"]
        if nodes:
            for n in nodes:
                by_node.setdefault(n, set()).update(edges)
        else:
            groups.append((edges, False))
    groups.extend((edges, True) for edges in by_node.values())
    return groups
