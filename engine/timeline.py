"""The game over time, for the end-of-game chart: each player's worth and each corporation's
share price at the end of every operating round (and at the game's end), replayed from the
log on a fresh game. Derived like the events (engine/events.py), never stored."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Point:
    label: str  # "OR 3", "end"
    worth: dict[str, int]  # player id -> value (cash, shares at price, privates)
    prices: dict[str, int]  # corporation id -> share price (corporations with a price)


@dataclass(frozen=True, slots=True)
class Timeline:
    players: tuple[tuple[str, str], ...]  # (id, name) in seat order
    corporations: tuple[tuple[str, str], ...]  # (id, colour) of those that had a price
    points: tuple[Point, ...] = field(default_factory=tuple)


def _point(game: Any, label: str) -> Point:
    st, t = game.state, game.title
    worth = {p.id: int(t.player_value(game, p)) for p in st.players}
    prices = {c.id: int(t.share_price(c)) for c in st.corporations.values()
              if c.cell is not None and not c.closed}
    return Point(label, worth, prices)


def timeline(game: Any) -> Timeline:
    """Worth and prices after each operating round of `game`'s moves in effect."""
    from engine.game import Game

    fresh = Game(game.title_name, game.players, game.options)
    fresh.imported = game.imported
    points: list[Point] = [_point(fresh, "start")]
    seen: list[tuple[str, int]] = []  # (round kind, OR number) as the replay goes

    def before(g: Any, _act: Any) -> None:
        key = (g.round.kind, g.or_number)
        if seen and seen[-1] != key and seen[-1][0] == "operating":
            points.append(_point(g, f"OR {seen[-1][1]}"))
        if not seen or seen[-1] != key:
            seen.append(key)

    fresh.load_log(game.log, before=before, accepted=True)  # the game's own log
    last = seen[-1] if seen else ("", 0)
    points.append(_point(fresh, f"OR {last[1]}" if last[0] == "operating" else "end"))
    corps: dict[str, str] = {}
    for p in points:
        for cid in p.prices:
            corps.setdefault(cid, fresh.state.corporations[cid].color)
    return Timeline(tuple((p.id, p.name) for p in fresh.state.players), tuple(corps.items()),
                    tuple(points))
