"""Count gaps in a game, action by action, beside the site (a development tool, not a test).

    python tools/count_gaps.py EXPORT.json [...] [--no-site] [--strict] [--json]

A "count gap" is a player whose holding as the presidency checks count it (`shares.counted`)
differs from the certificates he holds (`Corporation.uncounted`, `president_apart`; 1870 after
protections of a sale of the president's certificate, 18MEX after uneven exchanges). Our model
is a percent per player counted apart from the certificates; this tool shows where that model
is put to use and checks it against what the site's state implies:

- every stretch of actions during which a corporation has a gap in our engine, with each
  player's held / counted percent when it opens and each change;
- the "decisive" actions inside a gap: a share of that corporation changing hands, and what
  the presidency became on both sides;
- what the site's answers imply (`ruby ../shared/referee/referee.rb serve`, fed the export's
  actions as lockstep.py does): the site's state gives each player's `percent_of`, which is
  compared with the percent of the certificates the site says he holds (a difference would be
  the site showing a count of its own); and after each action touching a gap corporation the
  site's president is checked against our counts: a site president counting less than another
  player who holds the president's certificate's percent, or a president change to a player
  who counts no more than the one he replaced, means the site counts otherwise than we do
  (or follows a rule we do not have) even where the compared states agree.

The first action where our counts and the site's disagree in one of these ways is reported,
beside the first action where the states differ (lockstep's verdict). Needs Ruby and
../shared/referee unless --no-site.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REFEREE = ROOT.parent / "shared" / "referee"
sys.path.insert(0, str(ROOT))

from engine.core import shares  # noqa: E402
from engine.errors import EngineError  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.io.export18xx import end_state, start_from_export  # noqa: E402
from engine.state import Corporation  # noqa: E402


def _site(strict: bool, data: dict[str, Any]) -> Any:
    sys.path.insert(0, str(REFEREE))
    import lockstep  # the referee's driver (a development tool of ../shared)

    auto = not any(a.get("auto_actions") for a in data["actions"])
    rb = lockstep.Referee(REFEREE / "referee.rb", strict, auto)
    first = rb.send({"game": {"title": data["title"], "players": data["players"],
                              "settings": data.get("settings") or {}, "id": data.get("id", 1)}})
    if not first.get("ok", True):
        raise RuntimeError(f"the referee refused the game: {first}")
    return rb, lockstep


def _gaps(game: Game) -> dict[str, dict[str, tuple[int, int]]]:
    """corporation -> player -> (held, counted), for corporations with a gap (or a president
    recorded apart from the certificate)."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for corp in game.state.corporations.values():
        if corp.closed or not (corp.uncounted or corp.president_apart is not None):
            continue
        out[corp.id] = {p.id: (shares.percent(corp, p.id), shares.counted(corp, p.id))
                        for p in game.state.players}
    return out


def _touched(action: dict[str, Any]) -> set[str]:
    return {str(s).rsplit("_", 1)[0] for s in action.get("shares") or []}


def _implied(corp: Corporation, players: list[str], site_pres: Any, before: Any,
             counted: dict[str, int]) -> str | None:
    """Why the site's president after an action on `corp` does not fit our counts (None: fits)."""
    if site_pres is None:
        return None
    pres = str(site_pres)
    need = shares.president_cert(corp).percent
    if pres not in counted:
        return None
    for q in players:
        if q != pres and counted[q] > counted[pres] and shares.percent(corp, q) >= need:
            return (f"the site's president {pres} counts {counted[pres]}% in ours, {q} counts "
                    f"{counted[q]}% and holds {shares.percent(corp, q)}%")
    if before is not None and str(before) != pres and str(before) in counted \
            and counted[pres] <= counted[str(before)]:
        return (f"the site's presidency passed from {before} ({counted[str(before)]}% in ours) "
                f"to {pres} ({counted[pres]}%)")
    return None


def check(path: str, use_site: bool, strict: bool) -> dict[str, Any]:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    game, actions = start_from_export(data)
    rb = lockstep = None
    if use_site:
        rb, lockstep = _site(strict, data)
    players = [p.id for p in game.state.players]
    open_gaps: dict[str, dict[str, tuple[int, int]]] = {}
    stretches: list[dict[str, Any]] = []
    decisive: list[dict[str, Any]] = []
    rep: dict[str, Any] = {"file": path, "actions": len(actions), "first_count_disagreement": None,
                           "first_state_difference": None, "site_shows_counts": None,
                           "stretches": stretches, "decisive": decisive}
    site_pres_before: dict[str, Any] = {}
    try:
        for act in actions:
            aid = act.get("id")
            gaps_before = _gaps(game)
            try:
                game.apply(act)
            except EngineError as err:
                rep["stopped"] = f"ours rejects {aid}: {err}"
                break
            gaps = _gaps(game)
            for cid, held in gaps.items():
                if cid not in open_gaps:
                    stretches.append({"corp": cid, "from": aid, "to": None, "at_start": held})
                elif held != open_gaps[cid]:
                    stretches.append({"corp": cid, "change": aid, "now": held})
            for cid in set(open_gaps) - set(gaps):
                for s in reversed(stretches):
                    if s["corp"] == cid and "from" in s and s["to"] is None:
                        s["to"] = aid
                        break
            open_gaps = gaps
            site = None
            if rb is not None:
                site = rb.send(act)
                if not site.get("ok", True):
                    rep["stopped"] = f"the site rejects {aid}: {site.get('error')}"
                    break
                _site_side(rep, game, site, aid, lockstep)
            for cid in _touched(act) & (set(gaps) | set(gaps_before)):
                corp = game.state.corporations[cid]
                counted = {p: shares.counted(corp, p) for p in players}
                row: dict[str, Any] = {"id": aid, "type": act.get("type"), "corp": cid,
                                       "ours": shares.president(corp), "counted": counted}
                if site is not None:
                    sc = next((c for c in site["state"]["corporations"] if c["name"] == cid), {})
                    row["site"] = sc.get("president")
                    why = _implied(corp, players, sc.get("president"), site_pres_before.get(cid), counted)
                    if why:
                        row["implied"] = why
                        if rep["first_count_disagreement"] is None:
                            rep["first_count_disagreement"] = {"id": aid, "corp": cid, "why": why}
                decisive.append(row)
            if site is not None:
                site_pres_before = {c["name"]: c.get("president") for c in site["state"]["corporations"]}
    finally:
        if rb is not None:
            rb.close()
    return rep


def _site_side(rep: dict[str, Any], game: Game, site: dict[str, Any], aid: Any, lockstep: Any) -> None:
    """The site's percent_of beside the certificates it says each player holds; the first
    state difference (as lockstep compares them)."""
    pct = {c.id: c.percent for corp in game.state.corporations.values() for c in corp.certs}
    held: dict[tuple[str, str], int] = {}
    for cid, holder in (site.get("certs") or {}).items():
        corp = cid.rsplit("_", 1)[0]
        held[(str(holder), corp)] = held.get((str(holder), corp), 0) + pct.get(cid, 0)
    closed = {c["name"] for c in site["state"]["corporations"] if c.get("closed")}
    for p in site["state"]["players"]:
        for corp, v in (p.get("shares") or {}).items():
            if corp not in closed and v != held.get((str(p["id"]), corp), 0) and rep["site_shows_counts"] is None:
                rep["site_shows_counts"] = {"id": aid, "player": p["id"], "corp": corp, "percent_of": v,
                                            "certificates": held.get((str(p["id"]), corp), 0)}
    if rep["first_state_difference"] is None:
        diff = lockstep.state_diff(site["state"], end_state(game))
        if diff:
            rep["first_state_difference"] = {"id": aid, "diff": diff[:6]}


def render(rep: dict[str, Any]) -> list[str]:
    out = [f"{rep['file']}: {rep['actions']} actions"
           + (f"; stopped: {rep['stopped']}" if rep.get("stopped") else "")]
    for s in rep["stretches"]:
        if "from" in s:
            gap = {p: v for p, v in s["at_start"].items() if v[0] != v[1]}
            out.append(f"  gap {s['corp']} from {s['from']} to {s['to'] or 'the end'}: held/counted {gap}")
        else:
            gap = {p: v for p, v in s["now"].items() if v[0] != v[1]}
            out.append(f"    {s['change']}: {s['corp']} held/counted {gap}")
    n_site = sum(1 for d in rep["decisive"] if "site" in d)
    out.append(f"  decisive actions inside gaps: {len(rep['decisive'])}"
               + (f" (site's president compared at {n_site})" if n_site else ""))
    for d in rep["decisive"]:
        if d.get("implied") or ("site" in d and str(d["site"]) != str(d["ours"])):
            out.append(f"    {d['id']} {d['type']} {d['corp']}: ours {d['ours']} site {d.get('site')}"
                       f" {d.get('implied', '')}")
    out.append(f"  first count disagreement: {rep['first_count_disagreement']}")
    out.append(f"  site shows counts apart from certificates: {rep['site_shows_counts']}")
    out.append(f"  first state difference: {rep['first_state_difference']}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--no-site", action="store_true", help="our engine only (no Ruby needed)")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    bad = 0
    for f in args.files:
        rep = check(f, not args.no_site, args.strict)
        bad += rep["first_count_disagreement"] is not None
        print(json.dumps(rep) if args.json else "\n".join(render(rep)), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
