"""python -m render PATH --out DIR [--at ACTION_ID] [--demo TITLE]

Writes map.png, market.png, status.png and card.png (the phone card) for the 18xx.games export
at PATH, after its last action or after action ACTION_ID (the export's action list is cut after
that id and replayed).
`--demo TITLE` renders a hand-built crowded board instead (no engine replay needed);
`--approximate` rebuilds only the track and tokens from the log without the engine.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from engine.view import GameView
from render.card import render_card
from render.demo import busy_view, view_from_export
from render.map import render_map
from render.market import render_market
from render.status import render_status


def truncate_export(export: dict[str, Any], at: int | None) -> dict[str, Any]:
    """A copy of the export whose action list stops after action id `at`."""
    if at is None:
        return export
    out = dict(export)
    out["actions"] = [a for a in export.get("actions", []) if int(a.get("id", 0)) <= at]
    return out


def load_view(path: Path, at: int | None = None, approximate: bool = False) -> GameView:
    """Replay the export with the engine; with `approximate`, rebuild only track and tokens
    from the log (render.demo.view_from_export) - for pictures while the replay is not ready."""
    export = json.loads(path.read_text(encoding="utf-8"))
    if approximate:
        return view_from_export(export, at)
    try:
        from engine.io.export18xx import import_game
    except ImportError as exc:  # the engine's importer is not there yet
        raise SystemExit(f"engine.io.export18xx.import_game is not available: {exc}") from exc
    game = import_game(truncate_export(export, at))
    view: GameView = game.view()
    return view


def write_images(view: GameView, out: Path, size: int | None = None) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "map.png": render_map(view, size=size) if size else render_map(view),
        "market.png": render_market(view),
        "status.png": render_status(view),
        "card.png": render_card(view),
    }
    written = []
    for name, data in files.items():
        p = out / name
        p.write_bytes(data)
        written.append(p)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m render", description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", type=Path, help="18xx.games export JSON")
    ap.add_argument("--out", type=Path, required=True, help="directory for the PNG files")
    ap.add_argument("--at", type=int, default=None, help="stop after this action id")
    ap.add_argument("--size", type=int, default=None, help="map width in pixels")
    ap.add_argument("--demo", choices=["18MS", "1870", "18MEX"], help="render a demo board")
    ap.add_argument(
        "--approximate",
        action="store_true",
        help="no engine replay: track and tokens rebuilt from the log (map only is meaningful)",
    )
    args = ap.parse_args(argv)
    if args.demo:
        view = busy_view(args.demo)
    elif args.path is None:
        ap.error("PATH is required unless --demo is given")
    else:
        view = load_view(args.path, args.at, args.approximate)
    for p in write_images(view, args.out, args.size):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
