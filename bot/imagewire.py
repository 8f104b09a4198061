"""What goes to a render worker process: the view without its title data, which each worker
keeps.

A view carries the title's static facts (`GameView.data`: map, tiles, market grid, about
95 % of its pickled bytes: 50 kB for 18MS, 125 kB for 1870). Pickling all of it for every
image cost the bot's process more than its engine did under load. The bot sends instead the
view with `data` left out and the data's key (a digest of its pickled bytes, worked out once
per data object); a worker that does not hold that key yet answers `MISSING`, and the bot
sends the job again with the data's bytes, which the worker keeps (a title's variants are
distinct data, each with its own key).
"""

from __future__ import annotations

import dataclasses
import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from bot.ports import Renderer
from engine.core.data import TitleData
from engine.view import GameView

MISSING = b"missing-title-data"  # a worker's answer: send the job again with the data
_KEPT = 64  # title data objects (titles x variants) kept, on each side

# in a worker process: key -> the title data
_held: OrderedDict[str, TitleData] = OrderedDict()


@dataclasses.dataclass(frozen=True, slots=True)
class Packed:
    """The data's key and pickled bytes (worked out once per data object)."""

    data: TitleData  # kept: the cache is by identity, which must not be reused
    key: str
    blob: bytes


class Packer:
    """The bot's side: the key (and bytes) of each title data object it has sent."""

    def __init__(self) -> None:
        self._packed: OrderedDict[int, Packed] = OrderedDict()

    def pack(self, data: TitleData) -> Packed:
        found = self._packed.get(id(data))
        if found is not None and found.data is data:
            self._packed.move_to_end(id(data))
            return found
        blob = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
        packed = Packed(data, hashlib.blake2b(blob, digest_size=16).hexdigest(), blob)
        self._packed[id(data)] = packed
        while len(self._packed) > _KEPT:
            self._packed.popitem(last=False)
        return packed


def strip(view: GameView) -> GameView:
    """The view without its title data (put back by the worker)."""
    return dataclasses.replace(view, data=_NO_DATA)


_NO_DATA: Any = None


def draw_remote(renderer: Renderer, kind: str, view: GameView, key: str, blob: bytes | None,
                clocks: Mapping[str, float] | None, game: object = None) -> bytes | None:
    """In a worker process: one image of a stripped view (`MISSING` when this worker does not
    hold the title data and `blob` was not sent) of `game`."""
    data = _held.get(key)
    if data is None:
        if blob is None:
            return MISSING
        data = _held[key] = pickle.loads(blob)
        while len(_held) > _KEPT:
            _held.popitem(last=False)
    else:
        _held.move_to_end(key)
    full = dataclasses.replace(view, data=data)
    with keeping(renderer, game):
        if kind == "card" and clocks:
            return renderer.render(kind, full, clocks=clocks)
        return renderer.render(kind, full)


def keeping(renderer: Renderer, game: object) -> AbstractContextManager[object]:
    """The renderer's `keeping(game)` (what it keeps between images is the game's: the real
    renderer's full maps), or nothing for a renderer without it."""
    keep = getattr(renderer, "keeping", None)
    return keep(game) if callable(keep) and game is not None else nullcontext()
