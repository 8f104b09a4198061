"""Render the final and a mid-game position of every fixture into docs/images/.

    python tools/make_images.py [TITLE ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.game import effective_actions  # noqa: E402
from engine.io.export18xx import import_game  # noqa: E402
from render import render_map, render_market, render_status  # noqa: E402


def main(argv: list[str]) -> int:
    out = ROOT / "docs" / "images"
    out.mkdir(parents=True, exist_ok=True)
    titles = argv[1:] or ["18MS", "1870", "18MEX"]
    for title in titles:
        for path in sorted((SHARED / "fixtures" / title).glob("*.json")):
            data = json.loads(path.read_text())
            try:
                full = import_game(data)
            except (EngineError, KeyError, ModuleNotFoundError) as err:
                print(f"{title}/{path.name}: cannot replay ({err})")
                continue
            live = [a for a in effective_actions(full.log) if a.type != "message"]
            mid_id = live[len(live) // 2].id
            for label, game in (("final", full), ("mid", import_game(data, upto=mid_id))):
                view = game.view()
                stem = f"{title}-{path.stem}-{label}"
                (out / f"{stem}-map.png").write_bytes(render_map(view))
                (out / f"{stem}-market.png").write_bytes(render_market(view))
                (out / f"{stem}-status.png").write_bytes(render_status(view))
                print(f"wrote {stem}-*.png ({view.round})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
