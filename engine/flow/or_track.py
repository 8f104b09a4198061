"""Operating rules: tile lays (how many, terrain cost, connection) and tokens kept on upgrade."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import tiles
from engine.errors import EngineError
from engine.routes.types import Board
from engine.state import Corporation

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.flow.or_host import OperatingHost
    from engine.game import Game
else:
    OperatingHost = object  # the typing-only view of the rest of OperatingRules


class TrackRules(OperatingHost):
    def tile_lays(self, game: Game, rnd: OperatingRound, corp: Corporation) -> list[dict[str, Any]]:
        return [{"lay": True, "upgrade": True}]

    def next_lay(self, game: Game, rnd: OperatingRound, corp: Corporation) -> dict[str, Any] | None:
        lays = self.tile_lays(game, rnd, corp)
        if rnd.turn.laid >= len(lays):
            return None
        lay = dict(lays[rnd.turn.laid])
        for k in ("lay", "upgrade"):
            if lay.get(k) == "not_if_upgraded":
                lay[k] = not rnd.turn.upgraded
        if not (lay.get("lay") or lay.get("upgrade")):
            return None
        return lay

    def track_abilities_block(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        """A private's unused tile lay keeps the track step open (its lays count as track)."""
        return False

    def can_buy_tile_layer(self, game: Game, rnd: OperatingRound, corp: Corporation,
                           tile_layers: set[str] | frozenset[str]) -> bool:
        """As on the site: while privates may be bought in operating rounds, the track step also
        stays open (for an explicit pass) when the corporation could buy one of `tile_layers`
        (privates with a tile lay for use in the track step) for its minimum price."""
        return any(c.id in tile_layers and self.company_price_range(game, c)[0] <= corp.cash
                   for c in self.purchasable_companies(game, rnd, corp))

    def is_upgrade(self, game: Game, hex_name: str) -> bool:
        """A lay on a hex that already holds track (a laid or printed tile) is an upgrade."""
        return hex_name in game.state.tiles or self.data.hexes[hex_name].kind == "preprinted"

    def terrain_cost(self, game: Game, corp: Corporation, hex_name: str) -> int:
        if hex_name in game.state.tiles:
            return 0
        return int(self.data.hexes[hex_name].terrain_cost)

    def lay_tile(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any, *,
                 free: bool = False, count_lay: bool = True, colors: tuple[str, ...] | None = None,
                 check_connection: bool = True, restrict: bool = True) -> None:
        """Lay `action`'s tile for `corp`. `restrict`: apply the track restriction (the
        corporation's own lays; the site checks none for a private company's lay)."""
        st = game.state
        hex_name = action.hex
        found = tiles.take_tile(st, self.data, action.tile)
        if found is None:
            raise EngineError(f"There is no tile {action.tile}.", rule="track.tile")
        tile, copy_id = found
        if not copy_id:
            raise EngineError(f"All tiles #{tile.name} are in use.", rule="track.supply")
        # (the copy's, the tile's and, below, the connection's and the restriction's checks only
        # refuse a lay: not asked again of a log accepted once, see Game.checking)
        named = tiles.copy_error(st, self.data, action.tile) if game.checking else None
        if named:
            raise EngineError(named, rule="track.tile_copy")
        is_upgrade = self.is_upgrade(game, hex_name)
        if count_lay:
            lay = self.next_lay(game, rnd, corp)
            if lay is None:
                raise EngineError(f"{corp.id} has no tile lays left this turn.", rule="track.lays")
            if is_upgrade and not lay.get("upgrade"):
                raise EngineError(f"{corp.id}'s extra tile this turn must be a yellow tile, not an upgrade.",
                                  rule="track.extra_yellow")
            if not is_upgrade and not lay.get("lay"):
                raise EngineError(f"{corp.id} may only upgrade now.", rule="track.lays")
        if game.checking:
            err = tiles.lay_error(self.data, st, hex_name, tile, action.rotation,
                                  colors or self.tile_colors(game))
            if err:
                raise EngineError(err, rule="track.tile")
        if check_connection and game.checking:
            err = self.connection_error(game, corp, hex_name, tile, action.rotation)
            if err:
                raise EngineError(err, rule="track.connection")
        if restrict and game.checking:
            err = self.track_restriction_error(game, corp, hex_name, tile, action.rotation)
            if err:
                raise EngineError(err, rule="track.restriction")
        cost = 0 if free else self.terrain_cost(game, corp, hex_name)
        if cost > corp.cash:
            raise EngineError(f"{corp.id} cannot pay the ${cost} terrain cost of {hex_name}.",
                              rule="track.cost")
        corp.cash -= cost
        st.bank.cash += cost
        tiles.place_tile(st, self.data, hex_name, tile, copy_id, action.rotation)
        self.move_tokens_on_upgrade(game, hex_name)
        if count_lay:
            rnd.turn.laid += 1
            if is_upgrade:
                rnd.turn.upgraded = True
        rnd.turn.laid_hexes.append(hex_name)
        game.last_hexes = (*game.last_hexes, hex_name)
        self.after_lay_tile(game, rnd, corp, hex_name)

    def move_tokens_on_upgrade(self, game: Game, hex_name: str) -> None:
        st = game.state
        for (h, c), slots in list(st.city_tokens.items()):
            if h != hex_name:
                continue
            n = self.city_slots(game, h, c)
            placed = [s for s in slots if s is not None]
            new = list(slots[:n]) + [None] * max(0, n - len(slots))
            if [s for s in new if s is not None] != placed:
                new = placed + [None] * (n - len(placed))
            st.city_tokens[(h, c)] = new

    def connection_error(self, game: Game, corp: Corporation, hex_name: str, tile: Any, rotation: int) -> str | None:
        """Semi-restrictive laying: the tile must add track the corporation can reach."""
        from engine.routes.reach import reaches_hex

        if self.home_lay_allowed(game, corp, hex_name):
            return None
        # one of the tile's exits on an edge the network reaches, or the hex already connected
        if reaches_hex(self.reach_board(game, corp), corp.id, self.pass_through_offboards, hex_name,
                       tile.geometry.exits(rotation)):
            return None
        return f"{corp.id} cannot reach {hex_name}: the tile must extend track from its network."

    # the site's track restriction for a corporation's own lay on a hex that holds track:
    # "semi_restrictive" (new track it reaches, or a changed value of a city or town it
    # reaches) or "city_permissive" (new track it reaches, or a tile with a city)
    track_restriction = "semi_restrictive"

    def track_restriction_error(self, game: Game, corp: Corporation, hex_name: str, tile: Any,
                                rotation: int) -> str | None:
        """As on the site, judged on the board after the lay: the new tile's paths that the
        corporation reaches are compared with the old tile's (same ends); one without an old
        counterpart is new track, one whose city or town revenue differs changes a value."""
        from engine.routes.graph import track_graph
        from engine.routes.reach import reaches_any

        old_board = self.board(game)
        old_graph = track_graph(old_board)
        old_paths = old_graph.hex_paths(hex_name)
        if not old_paths:
            return None  # a first tile on an empty hex is all new track
        new_board = Board(old_board.data, {**old_board.tiles, hex_name: (tile.name, rotation)}, old_board.tokens)
        new_graph = track_graph(new_board)

        def shape(ep: Any) -> Any:
            return ep[:2] if ep[0] == "edge" else (ep[0],)

        def revenue(graph: Any, ep: Any) -> int | None:
            if ep[0] == "edge":
                return None
            rev = graph.node((hex_name, ep[0], ep[1])).node.revenue
            return rev if isinstance(rev, int) else max(rev.values())

        # the new tile's paths that would satisfy the rule if the corporation reaches them
        new_track: list[int] = []
        changed: list[int] = []
        for new in new_graph.hex_paths(hex_name):
            old = next((o for o in old_paths
                        if (shape(new.a), shape(new.b)) in ((shape(o.a), shape(o.b)), (shape(o.b), shape(o.a)))), None)
            if old is None:
                new_track.append(new.id)
                continue
            before = sorted(r for r in (revenue(old_graph, old.a), revenue(old_graph, old.b)) if r is not None)
            after = sorted(r for r in (revenue(new_graph, new.a), revenue(new_graph, new.b)) if r is not None)
            if before != after:
                changed.append(new.id)
        if new_track and reaches_any(new_board, corp.id, self.pass_through_offboards, new_track):
            return None
        if self.track_restriction == "city_permissive":
            if tile.geometry.cities:
                return None
            return f"{corp.id} may not lay that tile on {hex_name}: it must add track it can reach or hold a city."
        if changed and reaches_any(new_board, corp.id, self.pass_through_offboards, changed):
            return None
        return (f"{corp.id} may not lay that tile on {hex_name}: an upgrade must add track it can reach "
                "or change a city's value.")

    def home_lay_allowed(self, game: Game, corp: Corporation, hex_name: str) -> bool:
        return corp.home is not None and corp.home[0] == hex_name and corp.operated_turns == 0

    def after_lay_tile(self, game: Game, rnd: OperatingRound, corp: Corporation, hex_name: str) -> None:
        pass
