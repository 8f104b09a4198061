"""Replay fixtures and compare result and end state with ../shared/reference/end-states.json.

    python tools/compare_end_state.py 18MS/14375.json 1870/34110.json ...
    python tools/compare_end_state.py --all
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.io.export18xx import end_state, import_game  # noqa: E402


def diff_end_state(want: dict, mine: dict) -> list[str]:  # type: ignore[type-arg]
    out = []
    wp = {str(p["id"]): p for p in want["players"]}
    mp = {str(p["id"]): p for p in mine["players"]}
    for k, w in wp.items():
        for f, v in w.items():
            if v != mp.get(k, {}).get(f):
                out.append(f"player {k} {f}: want {v} got {mp.get(k, {}).get(f)}")
    for group in ("corporations", "minors"):
        wc = {c["name"]: c for c in want.get(group, [])}
        mc = {c["name"]: c for c in mine.get(group, [])}
        for k, w in wc.items():
            for f, v in w.items():
                got = mc.get(k, {}).get(f)
                if f == "trains":
                    v, got = sorted(v), sorted(got or [])
                if v != got:
                    out.append(f"{group[:-1]} {k} {f}: want {v} got {got}")
    if want["bank_cash"] != mine["bank_cash"]:
        out.append(f"bank: want {want['bank_cash']} got {mine['bank_cash']}")
    return out


def main(argv: list[str]) -> int:
    ref = json.loads((SHARED / "reference" / "end-states.json").read_text())["games"]
    keys = sorted(ref) if argv[1:] == ["--all"] else argv[1:]
    bad = 0
    for key in keys:
        data = json.loads((SHARED / "fixtures" / key).read_text())
        t0 = time.perf_counter()
        try:
            game = import_game(data)
        except EngineError as err:
            print(f"{key}: REJECTED action {err.action_id}: {err}")
            bad += 1
            continue
        except (KeyError, ModuleNotFoundError, NotImplementedError) as err:
            print(f"{key}: CANNOT REPLAY ({type(err).__name__}: {err})")
            bad += 1
            continue
        ms = (time.perf_counter() - t0) * 1000
        want_result = {str(k): v for k, v in data["result"].items()}
        diffs = diff_end_state(ref[key]["end_state"], end_state(game))
        ok = game.result() == want_result and not diffs
        bad += 0 if ok else 1
        print(f"{key}: {'OK' if ok else 'DIFF'} ({game.applied_count} actions, {ms:.0f} ms, "
              f"{len(game.warnings)} warnings, finished={game.finished})")
        if game.result() != want_result:
            print(f"   result want {want_result} got {game.result()}")
        for d in diffs[:20]:
            print("   " + d)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
