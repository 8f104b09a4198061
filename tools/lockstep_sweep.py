"""Play random games with our engine and compare each with the site, action by action.

    python tools/lockstep_sweep.py TITLE [TITLE...] --seeds 1-100 [--players 3,4,5] [--option O]...
        [--options-cycle] [--jobs 2] [--out DIR] [--strict] [--json] [--style steady]
        [--from-fixtures]

For each title and seed: `python -m engine random TITLE --seed S --players K` (the player count
and option set are a function of the seed alone, see `game_for_seed`), then `../shared/referee/lockstep.py`
on the export. `--from-fixtures`: each seed instead goes on by random moves from a position of one
of the title's real games in ../shared/fixtures (`engine random --from FILE --at ID`; the game
and the cut are a function of the seed alone, see `fixture_cut_for_seed`), so the sweep meets
the positions people reach as well as random ones. Each export is then also loaded whole, as
written, by the referee (`referee.rb replay`, as the site loads a stored game or imports a hotseat
game): it must load and end as the export says (`loads_as_written`). Prints one line per game and
a table per title (games, moves, agree, load as written). Needs Ruby
and ../shared/referee (a development tool: nothing of the project's tests depends on it).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REFEREE = ROOT.parent / "shared" / "referee"
AGREE = ("agree", "both-reject")
PLAYERS = {"18MS": (2, 3, 4), "1870": (2, 3, 4, 5, 6, 7), "18MEX": (3, 4, 5)}
OPTIONS: dict[str, list[list[str]]] = {
    "18MS": [[], ["or_11"], ["allow_buy_rusting"], ["or_11", "allow_buy_rusting"]],
    "1870": [[], ["diesels"], ["original_rules"], ["station_wars"], ["finish_on_400"],
             ["original_tiles"], ["max_reissue_200"], ["can_protect_if_sold"], ["original_market"],
             ["diesels", "finish_on_400"]],
    "18MEX": [[], ["triple_yellow_first_or"], ["delay_minor_close"], ["early_buy_of_kcmo"],
              ["baja_variant"], ["hard_rust_t4"], ["delay_minor_close", "early_buy_of_kcmo"]],
}


def parse_seeds(spec: str) -> list[int]:
    out: list[int] = []
    for part in spec.split(","):
        if "-" in part:
            a, b = part.split("-")
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def game_for_seed(seed: int, counts: list[int], sets: list[list[str]]) -> tuple[int, list[str]]:
    """The player count and option set of a seed: fixed by the seed alone, so `--seeds 45`
    is the same game as seed 45 of `--seeds 1-100`. Over consecutive seeds every count meets
    every option set."""
    return counts[seed % len(counts)], sets[(seed // len(counts)) % len(sets)]


def fixture_cut_for_seed(seed: int, title: str) -> tuple[Path, int]:
    """The real game and the last action id kept that seed `seed` goes on from: the games in
    turn, the cuts spread over each game's log (golden-ratio steps, never the very start)."""
    games = sorted((ROOT.parent / "shared" / "fixtures" / title).glob("*.json"))
    path = games[seed % len(games)]
    ids = [a["id"] for a in json.loads(path.read_text())["actions"]]
    frac = 0.05 + 0.9 * (((seed // len(games)) * 0.6180339887) % 1.0)
    return path, ids[int(frac * (len(ids) - 1))]


def known_options(title: str) -> set[str]:
    sys.path.insert(0, str(ROOT))
    from engine.core.data import load_title_data

    return {o["id"] for o in load_title_data(title).meta.get("optional_rules", [])}


def one(title: str, seed: int, players: int, options: list[str], out: Path, strict: bool,
        max_actions: int, style: str = "default", start: tuple[Path, int] | None = None
        ) -> dict[str, Any]:
    tag = "" if style == "default" else f"-{style}"
    if start is not None:
        path = out / f"{title}-s{seed}-from-{start[0].stem}-{start[1]}{tag}.json"
        cmd = [sys.executable, "-m", "engine", "random", title, "--seed", str(seed), "--from",
               str(start[0]), "--at", str(start[1]), "--max-actions", str(max_actions),
               "--style", style, "--out", str(path)]
    else:
        path = out / f"{title}-s{seed}-p{players}{''.join('-' + o for o in options)}{tag}.json"
        cmd = [sys.executable, "-m", "engine", "random", title, "--seed", str(seed), "--players",
               str(players), "--max-actions", str(max_actions), "--style", style, "--out",
               str(path)]
    for o in options:
        cmd += ["--option", o]
    gen = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    base = {"title": title, "seed": seed, "players": players, "options": options, "file": str(path),
            "from": f"{start[0].stem}@{start[1]}" if start else None}
    if gen.returncode != 0:
        return {**base, "verdict": "generate-failed", "detail": (gen.stderr or gen.stdout)[-600:],
                "moves": 0}
    moves = len(json.loads(path.read_text())["actions"])
    ls = [sys.executable, str(REFEREE / "lockstep.py"), str(path), "--json", "--timeout", "1800"]
    if strict:
        ls.append("--strict")
    res = subprocess.run(ls, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    try:
        rep = json.loads(res.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return {**base, "verdict": "error", "detail": res.stderr[-600:], "moves": moves}
    return {**base, "verdict": rep.get("verdict"), "at": rep.get("at"),
            "detail": str(rep.get("detail"))[:700], "moves": moves,
            "finished": gen.stdout.strip(), "loads": loads_as_written(path, strict)}


def loads_as_written(path: Path, strict: bool) -> str:
    """"yes" when the site loads the export whole, as written (`referee.rb replay`, as a stored
    game is loaded or a hotseat game imported), and ends it as the export says: same status and
    the same result; otherwise what differs."""
    cmd = ["ruby", str(REFEREE / "referee.rb"), "replay", *(["--strict"] if strict else []), str(path)]
    res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=3600)
    try:
        site = json.loads(res.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return f"referee failed: {res.stderr[-300:]}"
    if site.get("error"):
        return f"site refuses {site['error'].get('id')}: {site['error'].get('message')}"
    data = json.loads(path.read_text())
    ours_done = data.get("status") == "finished"
    if bool(site.get("finished")) != ours_done:
        return f"finished: site {site.get('finished')}, export {ours_done}"
    ours = {str(k): v for k, v in (data.get("result") or {}).items()}
    theirs = {str(k): v for k, v in (site.get("result") or {}).items()}
    if ours_done and ours != theirs:
        return f"result: site {theirs}, export {ours}"
    return "yes"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("titles", nargs="+")
    ap.add_argument("--seeds", default="1-10")
    ap.add_argument("--players", default="")
    ap.add_argument("--option", action="append", default=None,
                    help="fixed options (default: cycle through the title's option sets)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="/tmp/lockstep-sweep")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--max-actions", type=int, default=20000)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--style", choices=("default", "steady"), default="default",
                    help="random play's move weights (engine random --style)")
    ap.add_argument("--from-fixtures", action="store_true",
                    help="go on from positions of the title's real games (fixture_cut_for_seed)")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    jobs = []
    for title in args.titles:
        counts = [int(x) for x in args.players.split(",")] if args.players else list(PLAYERS[title])
        known = known_options(title)
        sets = [args.option] if args.option is not None else [
            [o for o in s if o in known] for s in OPTIONS[title]]
        for seed in parse_seeds(args.seeds):
            if args.from_fixtures:
                path, cut = fixture_cut_for_seed(seed, title)
                data = json.loads(path.read_text())
                jobs.append((title, seed, len(data["players"]), [], (path, cut)))
                continue
            players, options = game_for_seed(seed, counts, sets)
            jobs.append((title, seed, players, options, None))
    results: list[dict[str, Any]] = []
    with ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(one, t, s, p, o, out, args.strict, args.max_actions,
                            args.style, start) for t, s, p, o, start in jobs]
        for f in futs:
            r = f.result()
            results.append(r)
            if args.json:
                print(json.dumps(r), flush=True)
            else:
                print(f"{r['title']} seed {r['seed']} p{r['players']} {r['from'] or r['options']}: "
                      f"{r['moves']} moves: "
                      f"{r['verdict']} {r.get('at') or ''} {r['detail'][:300]}"
                      f"{'' if r.get('loads', 'yes') == 'yes' else ' LOAD: ' + r['loads']}", flush=True)
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        t = table[r["title"]]
        t["games"] += 1
        t["moves"] += r["moves"]
        t["agree"] += r["verdict"] in AGREE
        t["loads"] += r.get("loads") == "yes"
    print("\n| title | games | moves | agree | load as written |\n|---|---|---|---|---|")
    for title, t in table.items():
        print(f"| {title} | {t['games']} | {t['moves']} | {t['agree']} | {t['loads']} |")
    return 0 if all(r["verdict"] in AGREE and r.get("loads") == "yes" for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
