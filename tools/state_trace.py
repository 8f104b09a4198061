"""Traces of every fixture's state after every action, to compare two trees byte for byte.

    PYTHONHASHSEED=0 python tools/state_trace.py OUT [FIXTURE ...]   (FIXTURE: e.g. 1870/34110.json)

For each fixture (default: all of ../shared/fixtures) two files in OUT:

- `NAME.states`: `python -m engine replay PATH --states` (the live path, action by action);
- `NAME.import`: the fixture loaded as a stored game is (`import_game`); before each action and
  at the end one line: the action's id, the round's class, entity and kinds, the whole state
  (`State`, every corporation's and the title's own state), the round's and the title object's
  attributes, the turn, OR number and last hexes; at the end the result and the warnings.
- `NAME.stored`: the same lines for the fixture loaded as the bot reloads a stored game
  (`Game.load_log(..., accepted=True)`: the checks that only refuse a move not made again);
  it must equal `NAME.import` byte for byte (the script says so when it does not).

Run it in two trees (e.g. main's and a branch's, `PYTHONPATH` set to the tree) and compare the
folders with `diff -r`: a speed-up changes no line.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import sys
import weakref
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from engine.core.data import TitleData  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.io.export18xx import import_game, start_from_export  # noqa: E402
from engine.io.states_cli import print_states  # noqa: E402
from engine.title import Title  # noqa: E402


def show(x: Any, depth: int = 0) -> Any:
    """A plain, ordered picture of a value (sets sorted; the game and title facts named only)."""
    if depth > 40:
        return "<deep>"
    if isinstance(x, (Game, Title, TitleData)):
        return f"<{type(x).__name__}>"
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, (list, tuple)):
        return [show(v, depth + 1) for v in x]
    if isinstance(x, (set, frozenset)):
        return sorted((show(v, depth + 1) for v in x), key=repr)
    if isinstance(x, dict):
        return [[show(k, depth + 1), show(v, depth + 1)] for k, v in x.items()]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return [type(x).__name__, {f.name: show(getattr(x, f.name), depth + 1)
                                   for f in dataclasses.fields(x)}]
    if hasattr(x, "__dict__") and not callable(x):
        attrs = dict(_attr(k, v) for k, v in vars(x).items())
        return [type(x).__name__, {k: show(v, depth + 1) for k, v in sorted(attrs.items())}]
    if callable(x):
        return f"<callable {getattr(x, '__qualname__', type(x).__name__)}>"
    return repr(x)


def _attr(name: str, value: Any) -> tuple[str, Any]:
    """An attribute as shown: a weak reference (a round's `_game`, read as its `game`) as the
    object it names, under the name it is read by."""
    if isinstance(value, weakref.ref):
        return name.lstrip("_"), value()
    return name, value


def line(game: Game, aid: Any) -> str:
    rnd = game.round
    kinds = [] if game.finished else rnd.kinds()
    entity = None if game.finished else list(game.current_entity())
    title_state = {k: v for k, v in vars(game.title).items()
                   if k not in ("data", "market", "options", "phase_names", "train_specs")}
    return json.dumps([aid, type(rnd).__name__, entity, kinds, show(game.state), show(rnd),
                       show(title_state), game.turn, game.or_number, list(game.last_hexes)],
                      default=repr)


def trace(path: Path, out: Path) -> None:
    data = json.loads(path.read_text())
    name = f"{path.parent.name}_{path.stem}"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print_states(data)
    (out / f"{name}.states").write_text(buf.getvalue())
    lines: list[str] = []
    game = import_game(data, before=lambda g, act: lines.append(line(g, act.id)))
    lines.append(line(game, "end"))
    lines.append(json.dumps([game.result(), game.warnings]))
    (out / f"{name}.import").write_text("\n".join(lines) + "\n")
    stored: list[str] = []
    game, actions = start_from_export(data)
    game.load_log(actions, before=lambda g, act: stored.append(line(g, act.id)), accepted=True)
    stored.append(line(game, "end"))
    stored.append(json.dumps([game.result(), game.warnings]))
    (out / f"{name}.stored").write_text("\n".join(stored) + "\n")
    if stored != lines:
        print(f"{name}: the stored game's load differs from the import's", flush=True)


def main() -> int:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    paths = ([SHARED / "fixtures" / f for f in sys.argv[2:]] if len(sys.argv) > 2
             else sorted((SHARED / "fixtures").glob("*/*.json")))
    for path in paths:
        trace(path, out)
        print(path.parent.name, path.name, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
