"""1870 destinations: where destination tokens sit (an extra slot, or a city space under
station wars), the board each corporation sees, and the connection run (the check, the walk
from the destination home, the required route, the Map/Charter choice)."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from engine.core import market as mk
from engine.errors import EngineError
from engine.flow.or_tokens import CityLook, tiles_memo
from engine.routes.types import Board
from engine.state import Corporation, Token
from engine.titles.t1870.ids import DESTINATION_TOKEN_COST, WALK_BUDGET
from engine.titles.t1870.state import corp1870

if TYPE_CHECKING:
    from engine.flow.operating import OperatingRound
    from engine.game import Game
    from engine.title import Title
else:
    Title = object  # the mixin's host is Title1870 (engine/titles/t1870/title.py)


class DestinationRules(Title):
    _board_for: str | None  # the corporation whose board board() draws (None: the operating one)
    _logged_checks: list[tuple[str, list[str]]] | None  # the checks logged with an action
    _checks_made: list[dict[str, Any]]  # the checks computed while processing the action
    close_at_zero: Callable[[Game], list[Corporation]]  # Title1870's closing of companies at $0

    def destination_uses_city_space(self, dest: str) -> bool:
        """Station wars: a destination token on a map city takes a city space (squeezing in as an
        extra space when the city is full); on an off-board it always sits in an extra slot."""
        return self.option("station_wars") and self.data.hexes[dest].kind != "offboard"

    def extra_slot_hex(self, corp: Corporation) -> str | None:
        """Where the corporation's destination token sits in an extra slot taking no city space."""
        cs = corp1870(corp)
        hex_name = cs.destination_hex_reached
        if not isinstance(hex_name, str) or cs.destination_in_city:
            return None
        return hex_name

    def dest_tokens(self, game: Game, hex_name: str, city: int) -> list[str]:
        """Destination tokens in a city that sit in extra slots taking no city space."""
        if city != 0:
            return []
        # (asked for every city a token question looks at: extra_slot_hex(c) == hex_name, inline)
        return [c.id for c in game.state.corporations.values()
                if not c.closed and (cs := corp1870(c)).destination_hex_reached == hex_name
                and not cs.destination_in_city]

    def tokens_in(self, game: Game, hex_name: str, city: int) -> list[str | None]:
        """The city's spaces (a space squeezed in by station wars, or left open by a closed
        corporation in it, counts until the next upgrade), then its extra-slot tokens."""
        slots = self.city_slots(game, hex_name, city)
        extras = self.dest_tokens(game, hex_name, city)
        cur = [s for s in game.state.city_tokens.get((hex_name, city), []) if s not in extras]
        return [*cur, *[None] * max(0, slots - len(cur)), *extras]

    def look_tokens_in(self, look: CityLook, hex_name: str, city: int) -> list[str | None]:
        """tokens_in, with the extra-slot destination tokens of every hex found in one pass over
        the corporations per look (dest_tokens, for all hexes at once)."""
        extras_by_hex: dict[Any, list[str]] | None = look.memo.get("dest_tokens")
        if extras_by_hex is None:
            extras_by_hex = look.memo["dest_tokens"] = {}
            for c in look.game.state.corporations.values():
                if not c.closed and not (cs := corp1870(c)).destination_in_city:
                    extras_by_hex.setdefault(cs.destination_hex_reached, []).append(c.id)
        game = look.game
        slots = look.slots(hex_name, city)
        extras = extras_by_hex.get(hex_name, []) if city == 0 else []
        cur = [s for s in game.state.city_tokens.get((hex_name, city), []) if s not in extras]
        return [*cur, *[None] * max(0, slots - len(cur)), *extras]

    def move_tokens_on_upgrade(self, game: Game, hex_name: str) -> None:
        """Tokens keep their spaces on the new tile; when squeezed-in spaces are over the new
        city's size the tokens fill its spaces in order and only what is still left over stays
        squeezed in."""
        st = game.state
        for (h, c) in list(st.city_tokens):
            if h != hex_name:
                continue
            extras = self.dest_tokens(game, h, c)
            cur = [s for s in st.city_tokens[(h, c)] if s not in extras]
            n = self.city_slots(game, h, c)
            if len(cur) > n:
                cur = [s for s in cur if s is not None]
            st.city_tokens[(h, c)] = [*cur, *[None] * max(0, n - len(cur)), *extras]

    def board(self, game: Game) -> Board:
        """Others' destination tokens are left out: they take no city space, so they never
        block a city (a corporation's own destination token is a station for it)."""
        board = super().board(game)
        # (asked for every board a question looks at: extra_slot_hex(c) inline, and corp1870(c)
        # too: a corporation of 1870 carries its Corp1870)
        placed = []
        for c in game.state.corporations.values():
            cs: Any = c.title_state
            h = cs.destination_hex_reached
            if isinstance(h, str) and h and not cs.destination_in_city:
                placed.append((h, c.id))
        if not placed:
            return board
        me = self._board_for  # (the operating corporation asked only when there are extras)
        if me is None and game.round.kind == "operating" and not game.round.finished:
            me = game.round.current()[0]
        extras = {h: cid for h, cid in placed if cid != me}
        if not extras:
            return board
        # made once per board of the state and (me, extras): the base board is never changed
        key = ("without", me, tuple(extras.items()))
        got: Board | None = board.memo.get(key)
        if got is not None:
            return got
        toks = dict(board.tokens)  # (in place of the extras' own tokens in their cities 0)
        for h, drop in extras.items():
            v = toks.get((h, 0))
            if v is not None:
                toks[(h, 0)] = tuple(s for s in v if s is None or s != drop or s == me)
        got = board.memo[key] = Board(board.data, board.tiles, toks, memo=tiles_memo(board))
        return got

    def reach_board(self, game: Game, corp: Corporation) -> Board:
        self._board_for = corp.id
        try:
            return super().reach_board(game, corp)
        finally:
            self._board_for = None

    def run_routes(self, game: Game, rnd: OperatingRound, corp: Corporation, action: Any) -> None:
        self._board_for = corp.id
        try:
            super().run_routes(game, rnd, corp, action)
        finally:
            self._board_for = None

    def in_connection_run(self, game: Game, corp: Corporation) -> bool:
        """The corporation is at the route step of its connection run."""
        rnd: Any = game.round
        runs: list[str] = getattr(rnd, "conn_runs", None) or []
        return bool(runs) and runs[0] == corp.id and rnd.conn_stage == "route"

    def best_run(self, game: Game, corp: Corporation, *, time_limit_ms: int | None = None) -> Any:
        """In a connection run the best run with one train from home to the destination (the
        run the legal answer offers), else the solver's best."""
        if self.in_connection_run(game, corp):
            from engine.titles.t1870.connection import CONNECTION_TIME_LIMIT_MS
            from engine.titles.t1870.connection_offer import connection_run_solution

            limit = CONNECTION_TIME_LIMIT_MS if time_limit_ms is None else time_limit_ms
            return connection_run_solution(game, corp, time_limit_ms=limit)
        return super().best_run(game, corp, time_limit_ms=time_limit_ms)

    def run_error(self, game: Game, corp: Corporation, routes: list[Any]) -> str | None:
        if self.in_connection_run(game, corp):
            return self.connection_route_error(game, corp, SimpleNamespace(routes=routes))
        return super().run_error(game, corp, routes)

    def destination_hex(self, corp: Corporation) -> str | None:
        d = corp1870(corp).destination
        return d if isinstance(d, str) else None

    def connected_to_destination(self, game: Game, corp: Corporation) -> bool:
        """The site's check: a walk along the track from the destination city reaches the home
        hex. Like a route it never uses a piece of track twice nor visits a node twice, it cannot
        run through a city full of other corporations' tokens or through an off-board, and it
        counts nodes (the destination city included) up to the distance of the longest train;
        it succeeds as soon as the track it walks enters the home hex."""
        return self.connection_walk(game, corp) is not None

    def connection_walk(self, game: Game, corp: Corporation) -> tuple[list[tuple[int, Any]], Any] | None:
        """The walk of connected_to_destination and the track graph it walked: [(node, link to
        the next node)...] from the destination city, the last link entering the home hex; None
        when not connected. (The graph is returned, never kept: the title's attributes are game
        state, copied into every snapshot.)"""
        dest = self.destination_hex(corp)
        if dest is None or corp.closed or not self.active_trains(game, corp):
            return None
        if corp.home is None or not any(t.hex == corp.home[0] for t in corp.tokens):
            return None
        from engine.routes.graph import track_graph
        from engine.routes.reach import can_pass

        self._board_for = corp.id
        try:
            board = self.board(game)
        finally:
            self._board_for = None
        g = track_graph(board)
        home_hex = corp.home[0]
        longest = max(self.train_spec(game, t).max_stops or 10**6 for t in self.active_trains(game, corp))
        starts = [i for i, n in enumerate(g.nodes) if n.ref[0] == dest]
        if not starts:
            return None
        start = min(starts, key=lambda i: (g.nodes[i].ref[1] != "city", g.nodes[i].ref[2]))
        passable = [can_pass(board, n, corp.id, self.pass_through_offboards) for n in g.nodes]
        on_path = {start}
        steps: list[tuple[int, Any]] = []
        budget = [WALK_BUDGET]

        def walk(node: int, depth: int, used: int) -> bool:
            if depth >= longest:
                return False
            for link in g.links_from[node]:
                budget[0] -= 1
                if budget[0] < 0:  # a huge network: give up (counts as not connected yet)
                    return False
                if link.mask & used:
                    continue
                steps.append((node, link))
                if home_hex in link.chain:
                    return True
                nxt = link.b if link.a == node else link.a
                if nxt not in on_path and passable[nxt]:
                    on_path.add(nxt)
                    found = walk(nxt, depth + 1, used | link.mask)
                    on_path.discard(nxt)
                    if found:
                        return True
                steps.pop()
            return False

        if not walk(start, 1, 0):
            return None
        return steps, g

    def connection_route(self, game: Game, corp: Corporation) -> dict[str, Any] | None:
        """A run_routes route for the connection run: the longest train along the walk from the
        destination to the home city (None when the walk does not end at a stop in the home hex)."""
        home_hex = corp.home[0] if corp.home else None
        dest = corp1870(corp).destination_run_hex
        marker = corp1870(corp).destination
        corp1870(corp).destination = dest  # walk as before the marker was taken
        try:
            walked = self.connection_walk(game, corp)
        finally:
            corp1870(corp).destination = marker
        if not walked or not walked[0]:
            return None
        steps, g = walked
        chains, stops = [], [g.nodes[steps[0][0]].ref[0]]
        for node, link in steps:
            chain = list(link.chain) if link.a == node else list(reversed(link.chain))
            chains.append(chain)
            nxt = link.b if link.a == node else link.a
            stops.append(g.nodes[nxt].ref[0])
        if stops[-1] != home_hex:
            return None
        train = max(self.active_trains(game, corp), key=lambda t: self.train_spec(game, t).max_stops)
        return {"train": train.id, "connections": chains, "hexes": stops}

    def connection_route_error(self, game: Game, corp: Corporation, action: Any) -> str | None:
        """A connection run needs one train running from the home hex to the destination hex
        (both ends of its route in those two hexes)."""
        home = corp.home[0] if corp.home else None
        dest = corp1870(corp).destination_run_hex
        ends_ok = {home, dest}
        for r in action.routes:
            stops = list(r.hexes or []) or _route_ends(r.connections)
            if len(stops) >= 2 and {stops[0], stops[-1]} <= ends_ok:
                return None
        return f"At least one of {corp.id}'s trains must run from its home ({home}) to its destination ({dest})."

    def destination_choices(self, game: Game, corp: Corporation) -> list[str]:
        dest = self.destination_hex(corp)
        if dest is not None and any(t.hex == dest for t in corp.tokens):
            return ["Charter"]
        return ["Map", "Charter"]

    def choose_destination(self, game: Game, corp: Corporation, choice: str) -> None:
        dest = self.destination_hex(corp)
        if dest is None:
            raise EngineError(f"{corp.id} has no destination marker left.", rule="connection.none")
        if choice not in self.destination_choices(game, corp):
            raise EngineError(f"{corp.id} must choose {' or '.join(self.destination_choices(game, corp))}.",
                              rule="connection.choice")
        token = Token(DESTINATION_TOKEN_COST)
        corp.tokens.append(token)
        corp1870(corp).destination = None
        corp1870(corp).destination_run_hex = dest
        if choice == "Map":
            key = (dest, 0)
            cur = self.tokens_in(game, dest, 0)
            corp1870(corp).destination_hex_reached = dest
            if self.destination_uses_city_space(dest):
                corp1870(corp).destination_in_city = True
                free = [i for i, s in enumerate(cur) if s is None]
                if len(free) > self.reserved_for_others(game, corp, dest, 0):
                    slot = free[0]  # an open space (spaces kept for home tokens stay open)
                    cur[slot] = corp.id
                else:  # a full city: it squeezes in as one more space
                    slot = len(cur)
                    cur.append(corp.id)
            else:
                slot = len(cur)
                cur.append(corp.id)  # an extra slot: it takes no city space
            game.state.city_tokens[key] = cur
            token.hex, token.city, token.slot = dest, 0, slot
        for t in self.active_trains(game, corp):
            t.operated = False

    def connection_check(self, game: Game, rnd: Any, entity: str | None = None) -> list[str]:
        """Corporations that make a connection run now: as logged with the action when it
        carries the site's checks, else computed (in the round's operating order, the company
        whose turn just ended first) and recorded for the log. `entity`: the company the check
        is made for (the first of a new round, or the one whose turn just ended; None: the
        logged checks left over after the action)."""
        self.close_at_zero(game)  # a check is an action of its own on the site: the last one is over
        if self._logged_checks is not None:
            found = self._take_logged(entity)
            return [c for c in dict.fromkeys(found) if self.destination_hex(game.state.corporations[c])]
        if entity is None:
            return []
        st = game.state
        corps = [c for c in st.corporations.values() if c.floated and not c.closed]
        corps.sort(key=lambda c: mk.order_key(st, self.market, c) if c.cell else (0, 0, 0, 0))
        order: list[str] = list(getattr(rnd, "order", None) or [])
        if order:  # in the round's operating order (those not in it after, by price)
            corps.sort(key=lambda c: order.index(c.id) if c.id in order else len(order))
        found = [c.id for c in corps if self.connected_to_destination(game, c)]
        index = getattr(rnd, "index", -1)
        current = order[index] if 0 <= index < len(order) else None
        if current in found:  # the company whose turn just ended runs first (as the site)
            found.remove(current)
            found.insert(0, current)
        self._record_check(entity, found)
        return found

    def turn_check(self, game: Game, rnd: Any, corp: Corporation) -> None:
        """A company's turn begins (not the first of the round): the site checks again, for
        nobody (its check at a turn's start lists companies only for the round's first)."""
        if self._logged_checks is None and rnd.index > 0:
            self.close_at_zero(game)
            self._record_check(corp.id, [])

    def _record_check(self, entity: str, corps: list[str]) -> None:
        self._checks_made.append({"type": "destination_connection", "entity": entity,
                                  "entity_type": "corporation", "corporations": list(corps)})

    def take_auto_actions(self, game: Game) -> list[dict[str, Any]]:
        """The connection checks made while processing the last action, in the site's shape
        (`destination_connection`, as the site records them with the action)."""
        out, self._checks_made = self._checks_made, []
        return out

    def _take_logged(self, entity: str | None) -> list[str]:
        """The corporations of the logged checks up to the first one made for `entity` (all of
        them when None or none is for it); those checks are used up."""
        batches = self._logged_checks or []
        n = len(batches)
        if entity is not None:
            n = next((i + 1 for i, (e, _) in enumerate(batches) if e == entity), n)
        taken, self._logged_checks = batches[:n], batches[n:]
        return [c for _, corps in taken for c in corps]

    def note_logged_checks(self, action: Any) -> None:
        """An action carrying the site's connection checks: they are used instead of computed
        ones (without any, the checks are computed)."""
        self._checks_made = []
        subs = [a for a in (action.auto_actions or []) if _atype(a) == "destination_connection"]
        if subs:
            self._logged_checks = [(str(_aget(a, "entity")), list(_aget(a, "corporations") or []))
                                   for a in subs]
        else:
            self._logged_checks = None


def _route_ends(connections: list[list[str]]) -> list[str]:
    """The two end hexes of a route given only as hex chains between its stops."""
    if len(connections) == 1:
        return [connections[0][0], connections[0][-1]] if connections[0] else []
    count: dict[str, int] = {}
    for chain in connections:
        for h in (chain[0], chain[-1]) if chain else ():
            count[h] = count.get(h, 0) + 1
    return [h for h, n in count.items() if n % 2 == 1]


def _atype(a: Any) -> str:
    return str(a.get("type") if isinstance(a, dict) else getattr(a, "type", ""))


def _aget(a: Any, key: str) -> Any:
    return a.get(key) if isinstance(a, dict) else getattr(a, key, None)
