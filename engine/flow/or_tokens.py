"""Operating rules: the board and what a corporation reaches, and station tokens."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core import tiles
from engine.errors import EngineError
from engine.routes.graph import board_key, track_graph
from engine.routes.reach import known_reach, reachable, reaches_any, reaches_city, token_nodes
from engine.routes.types import Board
from engine.state import Corporation

if TYPE_CHECKING:
    from collections.abc import Iterator

    from engine.flow.operating import OperatingRound
    from engine.flow.or_host import OperatingHost
    from engine.game import Game
else:
    OperatingHost = object  # the typing-only view of the rest of OperatingRules


def tiles_memo(board: Board) -> dict[str, Any]:
    """A memo for a new board with `board`'s tiles: the same tile layout key (one key object per
    layout, so that the graph cache finds it without comparing layouts)."""
    return {"tiles": board_key(board)}


class CityLook:
    """One question's look at the cities for a corporation's token (the state does not change
    while it is asked): each city's tokens (`tokens_in`) asked once, and the home slots held
    open for others (`reserved_for_others`) counted in one pass over the corporations."""

    def __init__(self, rules: TokenRules, game: Game, corp: Corporation) -> None:
        self.rules, self.game, self.corp = rules, game, corp
        self._tokens: dict[tuple[str, int], list[str | None]] = {}
        self._waiting: dict[tuple[str, int], int] | None = None
        self._counts: dict[str, int] = {}
        self._cities: dict[str, tuple[Any, ...]] = {}
        # what a title reckons once for all the cities of one look (see TokenRules.look_tokens_in)
        self.memo: dict[str, Any] = {}

    def tokens(self, hex_name: str, city: int) -> list[str | None]:
        got = self._tokens.get((hex_name, city))
        if got is None:
            got = self._tokens[(hex_name, city)] = self.rules.look_tokens_in(self, hex_name, city)
        return got

    def city_count(self, hex_name: str) -> int:
        got = self._counts.get(hex_name)
        if got is None:
            got = self._counts[hex_name] = len(self.cities(hex_name))
        return got

    def cities(self, hex_name: str) -> tuple[Any, ...]:
        """The cities of what is on the hex now (its tile's or its printed geometry's)."""
        got = self._cities.get(hex_name)
        if got is None:
            got = self._cities[hex_name] = tuple(
                tiles.current_geometry(self.rules.data, self.game.state, hex_name)[0].cities)
        return got

    def slots(self, hex_name: str, city: int) -> int:
        """rules.city_slots(game, hex_name, city), from the hex's cities as looked at once."""
        if type(self.rules).city_slots is not TokenRules.city_slots:
            return self.rules.city_slots(self.game, hex_name, city)
        cities = self.cities(hex_name)
        return cities[city].slots if city < len(cities) else 0

    def reserved(self, hex_name: str, city: int) -> int:
        if type(self.rules).reserved_for_others is not TokenRules.reserved_for_others:
            return self.rules.reserved_for_others(self.game, self.corp, hex_name, city)
        if self._waiting is None:
            self._waiting = waiting_homes(self.game, self.corp)
        return self._waiting.get((hex_name, city), 0)


def waiting_homes(game: Game, corp: Corporation) -> dict[tuple[str, int], int]:
    """Per home city, the other corporations (open) whose home token is not placed yet."""
    out: dict[tuple[str, int], int] = {}
    for other in game.state.corporations.values():
        home = other.home
        if other.id == corp.id or other.closed or home is None:
            continue
        for t in other.tokens:  # (any(t.hex == home[0] ...), without a generator)
            if t.hex == home[0]:
                break
        else:
            out[home] = out.get(home, 0) + 1
    return out


class TokenRules(OperatingHost):
    # ------------------------------------------------------------ board / graph
    def board(self, game: Game) -> Board:
        """The board of the state's tiles and tokens. The same Board (and so its cache keys
        and what was walked on it) is given again while both are equal to what it was made
        from: the game keeps copies of them (a cache, not state; compared in full each time)."""
        st = game.state
        memo = game.board_memo
        same_tiles = memo is not None and memo[0] == st.tiles
        same_tokens = memo is not None and memo[1] == st.city_tokens
        if same_tiles and same_tokens:
            kept: Board = memo[2]
            return kept
        old: Board | None = memo[2] if memo is not None else None
        # what is the same as on the last board is taken from it (a board is never changed)
        if same_tokens and old is not None:
            tokens = old.tokens
        else:
            tokens = {k: tuple(v) for k, v in st.city_tokens.items()}
        if same_tiles and old is not None:  # the same tiles: the same tile mapping and key
            board = Board(self.data, old.tiles, tokens, memo=tiles_memo(old))
        else:
            board = Board(self.data, {h: (p.tile, p.rotation) for h, p in st.tiles.items()}, tokens)
        game.board_memo = (memo[0] if same_tiles and memo is not None else dict(st.tiles),
                           memo[1] if same_tokens and memo is not None
                           else {k: list(v) for k, v in st.city_tokens.items()}, board)
        return board

    def reach_board(self, game: Game, corp: Corporation) -> Board:
        """The board as the corporation's network sees it (a title may leave tokens out)."""
        return self.board(game)

    def reach(self, game: Game, corp: Corporation) -> Any:
        return reachable(self.reach_board(game, corp), corp.id, self.pass_through_offboards)

    def reaches_city(self, game: Game, corp: Corporation, hex_name: str, city: int) -> bool:
        """(hex_name, "city", city) in self.reach(game, corp).cities, walking only as far as needed."""
        return reaches_city(self.reach_board(game, corp), corp.id, self.pass_through_offboards,
                            hex_name, city)

    # ------------------------------------------------------------ tokens
    def city_slots(self, game: Game, hex_name: str, city: int) -> int:
        geo, _, _ = tiles.current_geometry(self.data, game.state, hex_name)
        return geo.cities[city].slots if city < len(geo.cities) else 0

    def tokens_in(self, game: Game, hex_name: str, city: int) -> list[str | None]:
        slots = self.city_slots(game, hex_name, city)
        cur = game.state.city_tokens.get((hex_name, city), [])
        return list(cur) + [None] * (slots - len(cur))

    def look_tokens_in(self, look: CityLook, hex_name: str, city: int) -> list[str | None]:
        """tokens_in(look.game, hex_name, city), asked by a look at the cities (a title may
        keep in `look.memo` what it reckons for every city alike)."""
        return self.tokens_in(look.game, hex_name, city)

    def reserved_for_others(self, game: Game, corp: Corporation, hex_name: str, city: int) -> int:
        """Home slots in this city held open for corporations that have not placed them."""
        return waiting_homes(game, corp).get((hex_name, city), 0)

    def place_home_token(self, game: Game, corp: Corporation) -> None:
        if corp.home is None or any(t.hex is not None for t in corp.tokens):
            return
        hex_name, city = corp.home
        slots = self.tokens_in(game, hex_name, city)
        if corp.id in slots or None not in slots:
            return
        token = corp.tokens[0]
        self._put_token(game, corp, token, hex_name, city, slots.index(None))

    def _put_token(self, game: Game, corp: Corporation, token: Any, hex_name: str, city: int, slot: int) -> None:
        slots = self.tokens_in(game, hex_name, city)
        slots[slot] = corp.id
        game.state.city_tokens[(hex_name, city)] = slots
        token.hex, token.city, token.slot = hex_name, city, slot

    def unplaced_tokens(self, corp: Corporation) -> list[Any]:
        return [t for t in corp.tokens if t.hex is None]

    def token_city_error(self, game: Game, corp: Corporation, hex_name: str, city: int, slot: int | None,
                         reach: Any | None, cities: CityLook | None = None) -> str | None:
        """Why `corp` may not place a token in the city (None: it may). `cities`: the look at the
        cities of a question asking this of many (each city's tokens asked once)."""
        look = cities or CityLook(self, game, corp)
        slots = look.tokens(hex_name, city)
        if not slots:
            return f"There is no city to hold a token on {hex_name}."
        if any(corp.id in look.tokens(hex_name, c) for c in range(look.city_count(hex_name))):
            return f"{corp.id} already has a token on {hex_name}."
        free = [i for i, s in enumerate(slots) if s is None]
        if len(free) - look.reserved(hex_name, city) <= 0:
            return f"The city on {hex_name} has no free station (open slots are kept for home tokens)."
        if reach is not None and (hex_name, "city", city) not in reach.cities:
            return self.no_route_to_city(corp, hex_name)
        return None

    def token_city_ok(self, look: CityLook, hex_name: str, city: int) -> bool:
        """token_city_error(look.game, look.corp, hex_name, city, None, None, look) is None,
        without putting the reason in words (asked of every city a token might go to)."""
        if type(self).token_city_error is not TokenRules.token_city_error:
            return self.token_city_error(look.game, look.corp, hex_name, city, None, None, look) is None
        slots = look.tokens(hex_name, city)
        if not slots:
            return False
        me = look.corp.id
        for c in range(look.city_count(hex_name)):
            if me in look.tokens(hex_name, c):
                return False
        free = slots.count(None)
        if not free and type(self).reserved_for_others is TokenRules.reserved_for_others:
            return False  # (the common count of held-open slots is never below 0)
        return free - look.reserved(hex_name, city) > 0

    @staticmethod
    def no_route_to_city(corp: Corporation, hex_name: str) -> str:
        return f"{corp.id} has no route to the city on {hex_name}."

    def _city_count(self, game: Game, hex_name: str) -> int:
        geo, _, _ = tiles.current_geometry(self.data, game.state, hex_name)
        return len(geo.cities)

    def token_targets(self, game: Game, corp: Corporation) -> list[tuple[str, int]]:
        return list(self._token_targets(game, corp))

    def _token_targets(self, game: Game, corp: Corporation) -> Iterator[tuple[str, int]]:
        reach = self.reach(game, corp)
        look = CityLook(self, game, corp)
        for h, _kind, idx in sorted(reach.cities):
            if self.token_city_error(game, corp, h, idx, None, reach, look) is None:
                yield (h, idx)

    def next_token_cost(self, game: Game, corp: Corporation) -> int | None:
        left = self.unplaced_tokens(corp)
        return min(t.cost for t in left) if left else None

    def can_place_token(self, game: Game, rnd: OperatingRound, corp: Corporation) -> bool:
        if rnd.turn.tokened:
            return False
        cost = self.next_token_cost(game, corp)
        if cost is None or cost > corp.cash:
            return False
        return self.has_token_target(game, corp)

    def has_token_target(self, game: Game, corp: Corporation) -> bool:
        """bool(self.token_targets(game, corp)), walking only until a target is reached: the
        cities that pass the other checks are the walk's targets (a city is among the reached
        cities when a path ending at it is reached, or it holds one of the corporation's tokens)."""
        board = self.reach_board(game, corp)
        if known_reach(board, corp.id, self.pass_through_offboards) is not None:
            return next(self._token_targets(game, corp), None) is not None  # (the first one will do)
        g = track_graph(board)
        own = set(token_nodes(board, g, corp.id))
        look = CityLook(self, game, corp)
        targets: list[int] = []
        for ref, nid in g.node_ids.items():
            if ref[1] != "city":
                continue
            h, _, idx = ref
            ends = g.ends.get(h, {}).get(("city", idx, None), ())
            if not (ends or nid in own):
                continue  # (no walk can reach it)
            if self.token_city_ok(look, h, idx):
                if nid in own:
                    return True
                targets.extend(ends)
        return reaches_any(board, corp.id, self.pass_through_offboards, targets)

    def parse_city(self, game: Game, city_id: str) -> tuple[str, int]:
        """City id "<tile copy id>-<part index>" or "<hex>-<k>-<part>" -> (hex, city index)."""
        st = game.state
        head, _, part = city_id.rpartition("-")
        for h, placed in st.tiles.items():
            if placed.copy_id == head:
                return h, self._city_index(self.data.tiles[placed.tile].geometry, int(part))
        for h, hx in self.data.hexes.items():
            if hx.preprinted_tile_id == head and h not in st.tiles:
                return h, self._city_index(hx.geometry, int(part))
        raise EngineError(f"There is no city {city_id} on the map now.", rule="token.city")

    @staticmethod
    def _city_index(geo: Any, part: int) -> int:
        for c in geo.cities:
            if c.part_index == part:
                return int(c.index)
        raise EngineError("That part of the tile is not a city.", rule="token.city")

    def city_id(self, game: Game, hex_name: str, city: int) -> str:
        placed = game.state.tiles.get(hex_name)
        if placed is not None:
            geo = self.data.tiles[placed.tile].geometry
            return f"{placed.copy_id}-{geo.cities[city].part_index}"
        hx = self.data.hexes[hex_name]
        return f"{hx.preprinted_tile_id}-{hx.geometry.cities[city].part_index}"

    def place_token(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any,
                    price_factor: float = 1.0, check_step: bool = True) -> None:
        hex_name, city = self.parse_city(game, action.city)
        left = self.unplaced_tokens(corp)
        if not left:
            raise EngineError(f"{corp.id} has no station tokens left.", rule="token.none")
        if rnd.turn.tokened and check_step:
            raise EngineError(f"{corp.id} has already placed a token this turn.", rule="token.one_per_turn")
        token = min(left, key=lambda t: t.cost)
        cost = int(math.ceil(token.cost * price_factor)) if price_factor != 1.0 else token.cost
        if cost > corp.cash:
            raise EngineError(f"{corp.id} cannot afford the ${cost} token (treasury ${corp.cash}).",
                              rule="token.cash")
        # (the city's checks only refuse a token: not asked again of a log accepted once, see
        # Game.checking)
        err = self.token_city_error(game, corp, hex_name, city, action.slot, None) if game.checking else None
        if err is None and game.checking and not self.reaches_city(game, corp, hex_name, city):
            err = self.no_route_to_city(corp, hex_name)
        if err:
            raise EngineError(err, rule="token.city")
        slots = self.tokens_in(game, hex_name, city)
        slot = slots.index(None)  # tokens fill the first free station
        corp.cash -= cost
        game.state.bank.cash += cost
        self._put_token(game, corp, token, hex_name, city, slot)
        rnd.turn.tokened = True
        game.last_hexes = (hex_name,)
        self.after_place_token(game, rnd, corp, hex_name, city)

    def after_place_token(self, game: Game, rnd: OperatingRound, corp: Corporation, hex_name: str, city: int) -> None:
        pass
