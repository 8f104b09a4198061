"""Convert the published reference facts of a title into the engine's own data files.

    python tools/convert_reference.py ../shared/reference

writes engine/titles/<slug>/{map,tiles,market,trains,companies,meta}.json. The engine reads
only these files; tests/engine/test_title_data.py regenerates them from the reference (when
it is present) and checks they are identical, so the data cannot drift from the facts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

TITLES = {"18MS": "t18ms", "1870": "t1870", "18MEX": "t18mex"}

HEX_KEYS = (
    "name", "grid_xy", "kind", "color", "location", "cities", "towns", "offboards", "paths",
    "labels", "future_label", "future_labels_after_brown", "terrain", "borders", "partitions",
    "neighbors", "passable_edges", "tileable", "tile_colors_allowed", "preprinted_tile_id",
    "icons", "special_tiles", "possible_tiles",
)
TILE_KEYS = (
    "name", "color", "count", "copy_ids", "cities", "towns", "paths", "labels", "exits",
    "future_label", "terrain", "borders", "upgrades_to", "hex_specific_upgrades",
    "hex_specific_upgrades_from", "double_hex", "original_tiles_variant",
)


def _strip(obj: Any) -> Any:
    """Drop prose (notes, descriptions) recursively; keep every fact."""
    if isinstance(obj, dict):
        return {
            k: _strip(v)
            for k, v in obj.items()
            if k not in ("notes", "note", "possible_tiles_note", "grid_note")
        }
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def _pick(d: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: _strip(d[k]) for k in keys if k in d}


def convert(ref: dict[str, Any]) -> dict[str, Any]:
    """Return {file name: JSON content} for one title."""
    hexes = {name: _pick(h, HEX_KEYS) for name, h in ref["map"]["hexes"].items()}
    out: dict[str, Any] = {
        "map.json": {
            "layout": ref["meta"]["layout"]["engine_layout"],
            "hexes": hexes,
            "variant_hexes": _strip(ref["map"].get("variant_hexes", {}).get("hexes", {})),
        },
        "tiles.json": {name: _pick(t, TILE_KEYS) for name, t in ref["tiles"].items()},
        "market.json": _strip(
            {k: v for k, v in ref["market"].items() if k not in ("cells",)}
            | {"cells": {c["id"]: c["types"] for c in ref["market"]["cells"]}}
        ),
        "trains.json": _strip(
            {"trains": ref["trains"], "rules": ref["train_rules"], "phases": ref["phases"]}
        ),
        "companies.json": _strip(
            {
                "corporations": ref["corporations"],
                "minors": ref["minors"],
                "companies": ref["companies"],
                "variant_companies": ref.get("variant_companies", []),
            }
        ),
        "meta.json": _strip(
            {
                "title": ref["title"],
                "meta": ref["meta"],
                "rules": ref["rules"],
                "deviations": ref["deviations"],
                "log_ids": ref["log_ids"],
            }
        ),
    }
    return out


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    ref_dir = Path(argv[1] if len(argv) > 1 else "../shared/reference")
    root = Path(__file__).resolve().parent.parent / "engine" / "titles"
    for title, slug in TITLES.items():
        ref = json.loads((ref_dir / f"{title}.json").read_text())
        target = root / slug
        target.mkdir(parents=True, exist_ok=True)
        for name, content in convert(ref).items():
            (target / name).write_text(dump(content))
        print(f"{title}: wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
