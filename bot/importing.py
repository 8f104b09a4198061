"""An import's work away from the event loop: the uploaded file's bytes read as JSON, checked
as an 18xx.games export, its players mapped to the server's members and its game replayed.

It runs in the import process (or on the import thread: `ServiceCore.run_import`), so that
none of it takes the event loop from other games' moves: reading a 2 MB export alone took
15-54 ms there, checking it 9-22 ms and sending the parsed file to the process 7-12 ms.
The refusals are BotErrors with the reason the user sees.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import orjson

from bot import ports
from bot.core import ServiceCore, Turn
from bot.replies import BotError
from engine import EngineError, dump_action
from engine.io.export18xx import check_export
from engine.titles import TITLES
from engine.view import GameView

Seat = tuple[int, str, str, int | None]  # (member's user id, name, export's player id, seat)


@dataclass(frozen=True)
class Imported:
    """A replayed import, ready to store: its log as stored (each action's JSON text)."""

    title: str
    options: list[str]
    seed: int
    seats: list[Seat]
    finished: bool
    actions: list[str]
    view: GameView
    turn: Turn


def known_title(title: str) -> str:
    """The title as the bot names it, or a BotError."""
    for t in TITLES:
        if t.lower() == title.strip().lower():
            return t
    raise BotError(f"Unknown title {title!r}: choose one of {', '.join(TITLES)}.")


def read_export(raw: bytes) -> dict[str, Any]:
    """The file read as JSON and checked as an export (its shape, title, players, actions)."""
    try:
        data: Any = orjson.loads(raw)
    except orjson.JSONDecodeError as err:  # (invalid UTF-8, too deep, NaN: refused too)
        raise BotError(f"The file is not JSON: {err}.") from None
    try:
        check_export(data)
    except EngineError as err:
        raise BotError(f"This file cannot be imported: {err}") from None
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise BotError("This file is not an 18xx.games game export.")
    return data


def seats_of(data: dict[str, Any], users: dict[str, tuple[int, str]]) -> list[Seat]:
    """The export's players in their order, each mapped (by id as text, or by name) to a
    different member."""
    try:
        exported = [
            (str(p["id"] if p.get("id") is not None else p["name"]), str(p.get("name", p["id"])))
            for p in data["players"]
        ]
    except (KeyError, TypeError, AttributeError) as err:
        raise BotError("This file is not an 18xx.games game export.") from err
    seats: list[Seat] = []
    for seat, (pid, pname) in enumerate(exported):
        user = users.get(pid) or users.get(pname)
        if user is None:
            raise BotError(f"Map the export's player {pname} (id {pid}) to a server member.")
        seats.append((user[0], user[1] or pname, pid, seat))
    if len({s[0] for s in seats}) != len(seats):
        raise BotError("Each export player must be mapped to a different member.")
    return seats


def replay_import(raw: bytes, users: dict[str, tuple[int, str]],
                  deadline: float) -> Imported:
    """Read, check and map the file, then replay its game, stopped (ImportStopped) once the
    monotonic clock passes `deadline`. The stored log's JSON text is written here too (44 ms
    for the 20,000 actions of an import at the limit)."""
    data = read_export(raw)
    title = known_title(str(data.get("title", "")))
    seats = seats_of(data, users)
    settings = data.get("settings") or {}
    try:
        options = [str(o) for o in settings.get("optional_rules") or []]
        seed = int(settings.get("seed") or 0)
    except (AttributeError, TypeError, ValueError):
        raise BotError("This file is not an 18xx.games game export: its settings are not "
                       "readable.") from None
    try:
        game = ports.import_game(data, lambda: time.monotonic() > deadline)
    except EngineError as err:
        raise BotError(f"The engine cannot replay this game: {err}") from None
    return Imported(
        title=title,
        options=options,
        seed=seed,
        seats=seats,
        finished=game.finished,
        actions=[json.dumps(dump_action(a)) for a in game.log],
        view=game.view(),
        turn=ServiceCore._turn(game),
    )
