"""Render the README's other pictures into docs/images/ from real replayed positions.

    python tools/make_pictures.py

- `{title}-card.png`: the phone card (render_card) of 18MS 14375 and 1870 game_end_bank
  mid-game, and of 18MEX 13315 a fifth into the game (its minors still operating);
- `18MS-14375-standings.png`: the end-of-game chart the bot posts with the final standings
  (render.chart over engine.timeline), the players named as in the export;
- `18MS-14375-run.png`: Fr's first run with three trains, drawn as the bot draws a run
  (render.routes, each train labelled with its revenue);
- `18MS-14375-rotations.png`: the picture /lay sends when a tile fits in several rotations
  (render.rotations), for the first tile of the game laid where several rotations fit.

The maps, close-ups, markets and status sheets are tools/make_images.py's.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from engine import dump_action  # noqa: E402
from engine.core import tiles as tile_rules  # noqa: E402
from engine.game import Game, effective_actions  # noqa: E402
from engine.io.export18xx import import_game  # noqa: E402
from engine.names import train_name  # noqa: E402
from engine.timeline import timeline  # noqa: E402
from render import render_card  # noqa: E402
from render.chart import render_chart  # noqa: E402
from render.rotations import render_rotations  # noqa: E402
from render.routes import render_routes  # noqa: E402

OUT = ROOT / "docs" / "images"
CARDS = (("18MS", "14375", 0.5), ("1870", "1870_game_end_bank", 0.5), ("18MEX", "13315", 0.2))


def _export(title: str, stem: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SHARED / "fixtures" / title / f"{stem}.json").read_text())
    return data


def _at(data: dict[str, Any], frac: float) -> Game:
    full = import_game(data)
    live = [a for a in effective_actions(full.log) if a.type != "message"]
    return import_game(data, upto=live[int(len(live) * frac)].id)


def _live(data: dict[str, Any]) -> list[Any]:
    return [a for a in effective_actions(import_game(data).log) if a.type != "message"]


def cards() -> None:
    for title, stem, frac in CARDS:
        (OUT / f"{title}-card.png").write_bytes(render_card(_at(_export(title, stem), frac).view()))
        print(f"wrote {title}-card.png ({stem} at {frac:.0%})")


def standings() -> None:
    data = _export("18MS", "14375")
    names = {str(p["id"]): str(p["name"]) for p in data["players"]}
    chart = render_chart(timeline(import_game(data)), lambda pid: names.get(str(pid), str(pid)))
    (OUT / "18MS-14375-standings.png").write_bytes(chart)
    print("wrote 18MS-14375-standings.png")


def run() -> None:
    data = _export("18MS", "14375")
    for a in _live(data):
        raw = a.model_dump(exclude_none=True)
        routes = raw.get("routes") or []
        if a.type == "run_routes" and raw.get("entity") == "Fr" and len(routes) == 3:
            game = import_game(data, upto=a.id)
            routes = list(dump_action(game.log[-1])["routes"])  # as stored: with revenues
            # as the bot labels a run (bot/play.py _draw_run)
            labels = [train_name(game, str(r.get("train")))
                      + (f" ${r['revenue']}" if r.get("revenue") is not None else "")
                      for r in routes]
            (OUT / "18MS-14375-run.png").write_bytes(render_routes(game.view(), routes, labels))
            print(f"wrote 18MS-14375-run.png (action {a.id}, {game.view().round})")
            return
    raise SystemExit("no run of Fr with three trains in 18MS 14375")


def rotations() -> None:
    data = _export("18MS", "14375")
    for a in _live(data):
        if a.type != "lay_tile":
            continue
        game = import_game(data, upto=a.id - 1)
        raw = a.model_dump(exclude_none=True)
        hex_name, copy = str(raw["hex"]), str(raw["tile"])
        rots = [r for t, rs in game.legal().tiles.get(hex_name, ()) if t == copy for r in rs]
        tile = game.view().data.tiles.get(copy.rsplit("-", 1)[0])
        if tile is None:
            continue
        shown = tile_rules.distinct_rotations(tile.geometry, rots)
        if len(shown) >= 2:
            png = render_rotations(game.view(), hex_name, tile.name, shown)
            (OUT / "18MS-14375-rotations.png").write_bytes(png)
            print(f"wrote 18MS-14375-rotations.png (tile {tile.name} on {hex_name}, "
                  f"rotations {shown})")
            return
    raise SystemExit("no lay with several rotations in 18MS 14375")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    cards()
    standings()
    run()
    rotations()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
