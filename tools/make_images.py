"""Render the final and a mid-game position of every fixture into docs/images/.

    python tools/make_images.py [TITLE ...]

For each position: the map (with its legend), a close-up around the busiest city (what the
bot posts around the last move), the market and the status sheet; for the final position
also `{stem}-phone.png`: the map, the close-up and the first
region scaled to the 400 px a phone previews them at, side by side; and, for the games the
README shows (REGION_GAMES), each region of the map (render_region, legible in a phone
preview) as `{stem}-region-{name}.png`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from engine.errors import EngineError  # noqa: E402
from engine.game import effective_actions  # noqa: E402
from engine.io.export18xx import import_game  # noqa: E402
from engine.view import GameView  # noqa: E402
from render import map_regions, render_map, render_market, render_region, render_status  # noqa: E402
from render.map import PHONE_PREVIEW_WIDTH  # noqa: E402

REGION_GAMES = {"18MS/14375", "1870/1870_game_end_bank", "18MEX/13315"}


def _busiest(view: GameView) -> str:
    return max(view.hexes, key=lambda n: sum(1 for t in view.hexes[n].tokens for c in t if c))


def _phone(pngs: list[bytes]) -> Image.Image:
    """The images scaled to the phone preview's width, side by side with a gap."""
    import io

    w = PHONE_PREVIEW_WIDTH
    ims = []
    for png in pngs:
        im = Image.open(io.BytesIO(png)).convert("RGB")
        ims.append(im.resize((w, round(im.height * w / im.width)), Image.Resampling.LANCZOS))
    gap = 16
    out = Image.new("RGB", (len(ims) * (w + gap) - gap, max(i.height for i in ims)), (255, 255, 255))
    for i, im in enumerate(ims):
        out.paste(im, (i * (w + gap), 0))
    return out


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
                full_map = render_map(view)
                close = render_map(view, focus=(_busiest(view),))
                (out / f"{stem}-map.png").write_bytes(full_map)
                (out / f"{stem}-closeup.png").write_bytes(close)
                if label == "final":
                    regions = list(map_regions(view.data))
                    first = b""
                    for name in regions:
                        png = render_region(view, name)
                        first = first or png
                        if f"{title}/{path.stem}" in REGION_GAMES:
                            (out / f"{stem}-region-{name}.png").write_bytes(png)
                        else:
                            break
                    _phone([full_map, close, first]).save(out / f"{stem}-phone.png")
                (out / f"{stem}-market.png").write_bytes(render_market(view))
                (out / f"{stem}-status.png").write_bytes(render_status(view))
                print(f"wrote {stem}-*.png ({view.round})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
