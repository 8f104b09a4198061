"""Probe what the engine accepts beside what the site accepts, at real games' positions.

Random play (lockstep_sweep) only makes moves the engine offers, so it never tries a move a
player could type that the legal answer does not offer: another certificate than the one
offered, another price, another rotation. This tool replays an export in our engine and in the
referee (`../shared/referee/referee.rb serve --strict`) side by side; before some of its moves
(a seeded sample) it first tries variants of that move on both sides:
- moves our legal answer offers of the same kind (the site must accept each),
- the move altered (another certificate of the same company, the price one more or one less,
  another rotation), which both must refuse or both accept.
A variant one side accepts is taken back with an undo on that side, then the real move is
played. Every disagreement is printed as one JSON line; exit 1 if any.

    python tools/variant_probe.py ../shared/fixtures/1870/*.json --rate 0.1 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.errors import EngineError  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.io.export18xx import start_from_export  # noqa: E402
from engine.legal import candidate_actions  # noqa: E402

REFEREE = ROOT.parent / "shared" / "referee" / "referee.rb"
KINDS = ("buy_shares", "sell_shares", "buy_train", "buy_company", "lay_tile", "place_token",
         "bid", "par", "dividend")


class Site:
    def __init__(self, data: dict[str, Any], auto: bool) -> None:
        cmd = ["ruby", str(REFEREE), "serve", "--strict"] + (["--auto"] if auto else [])
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        first = self.send({"game": {k: data[k] for k in ("title", "players", "settings", "id")
                                    if k in data}})
        if not first.get("ok"):
            raise SystemExit(f"the referee cannot start this game: {first.get('error')}")

    def send(self, msg: dict[str, Any]) -> dict[str, Any]:
        assert self.p.stdin is not None and self.p.stdout is not None
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        return dict(json.loads(self.p.stdout.readline()))

    def close(self) -> None:
        self.p.terminate()


def _ours(game: Game, action: dict[str, Any]) -> str | None:
    """None if our engine accepts `action` (it is then applied), else the refusal."""
    try:
        game.apply(action)
    except EngineError as err:
        return str(err)
    return None


def mutations(game: Game, a: dict[str, Any], rng: random.Random,
              cands: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The move altered, each with what was altered: another certificate of the same company
    or of another, a sale of one certificate fewer or 10% more than its certificates, the price
    one more or one less, another rotation, tile or hex (taken from other offered lays),
    another token slot or city part, another par cell, another company, another train, another
    dividend kind, and a pass in its place."""
    out: list[tuple[str, dict[str, Any]]] = []
    st = game.state
    if a.get("shares"):
        corp = str(a["shares"][0]).rsplit("_", 1)[0]
        c = st.corporations.get(corp)
        if c is not None:
            others = [x.id for x in c.certs if x.id not in a["shares"]]
            for cid in rng.sample(others, min(3, len(others))):
                out.append(("cert", {**a, "shares": [cid] + list(a["shares"][1:])}))
        other_corps = [k for k in st.corporations if k != corp and st.corporations[k].certs]
        if other_corps:
            oc = st.corporations[rng.choice(other_corps)]
            out.append(("corp", {**a, "shares": [rng.choice(oc.certs).id]}))
        if a["type"] == "sell_shares" and len(a["shares"]) > 1 and isinstance(a.get("percent"), int):
            out.append(("fewer", {**a, "shares": list(a["shares"][:-1])}))
    if isinstance(a.get("price"), int):
        out += [("price", {**a, "price": a["price"] + 1}), ("price", {**a, "price": a["price"] - 1})]
    if a["type"] == "sell_shares" and isinstance(a.get("percent"), int):
        out.append(("percent", {**a, "percent": a["percent"] + 10}))
    if a["type"] == "lay_tile" and isinstance(a.get("rotation"), int):
        rots = [r for r in range(6) if r != a["rotation"]]
        out += [("rotation", {**a, "rotation": r}) for r in rng.sample(rots, 2)]
        lays = [c for c in cands if c["type"] == "lay_tile"]
        tiles = sorted({str(c["tile"]) for c in lays if c["tile"] != a["tile"]})
        hexes = sorted({str(c["hex"]) for c in lays if c["hex"] != a["hex"]})
        if tiles:
            out.append(("tile", {**a, "tile": rng.choice(tiles)}))
        if hexes:
            out.append(("hex", {**a, "hex": rng.choice(hexes)}))
        base, _, n = str(a["tile"]).rpartition("-")
        if base and n.isdigit():
            out.append(("copy", {**a, "tile": f"{base}-{int(n) + 1}"}))
    if a["type"] == "place_token" and isinstance(a.get("slot"), int):
        out.append(("slot", {**a, "slot": a["slot"] + 1}))
        if a["slot"] > 0:
            out.append(("slot", {**a, "slot": a["slot"] - 1}))
        head, _, idx = str(a.get("city", "")).rpartition("-")
        if head and idx.isdigit():
            out.append(("city", {**a, "city": f"{head}-{int(idx) + 1}"}))
    if a["type"] == "par" and isinstance(a.get("share_price"), str):
        cells = sorted({str(c["share_price"]) for c in cands
                        if c["type"] == "par" and c["share_price"] != a["share_price"]})
        if cells:
            out.append(("par", {**a, "share_price": rng.choice(cells)}))
        price, _, rest = a["share_price"].partition(",")
        out.append(("par", {**a, "share_price": f"{int(price) + 10},{rest}"}))
    if a["type"] in ("bid", "buy_company") and a.get("company"):
        names = sorted(k for k in st.companies if k != a["company"])
        if names:
            out.append(("company", {**a, "company": rng.choice(names)}))
    if a["type"] == "buy_train" and a.get("train"):
        ids = sorted({str(c["train"]) for c in cands if c["type"] == "buy_train"
                      and c["train"] != a["train"]})
        if ids:
            out.append(("train", {**a, "train": rng.choice(ids)}))
    if a["type"] == "dividend":
        out += [("kind", {**a, "kind": k}) for k in ("payout", "withhold", "half") if k != a.get("kind")]
    out.append(("pass", {"type": "pass", "entity": a["entity"], "entity_type": a["entity_type"]}))
    return out


# Where the site takes a move its own offers never hold, unchecked, ours refuses it: not counted
# as disagreements. A number it should check (a bank train's price, a bid below the company's
# price or off its face value, a sale of more than the certificates named), a private bought
# from a player who is not the corporation's president (18MS: the site offers only the
# president's; 1870 phase 1: only the bridge company, to the MP or the SSW), a bid on another
# private than the one being auctioned (even one already sold), an 18MS draft of a private
# already drawn, a share of a corporation not
# yet started, its president's certificate bought without a par (the site offers none of these).
def ours_stricter(tag: str, refusal: str) -> bool:
    return ((tag == "price" and ("from the bank costs" in refusal or " now." in refusal
                                 or "face value" in refusal or "open market costs" in refusal))
            or tag == "percent"
            or (tag == "company" and ("face value" in refusal or "from its own president" in refusal
                                      or "In phase 1 only" in refusal
                                      or "is not for sale in the auction" in refusal
                                      or "is not available in the draft" in refusal
                                      or "may never be sold to a company" in refusal))
            or (tag == "corp" and ("has not been started yet" in refusal
                                   or "with a par action" in refusal)))


def candidates(game: Game) -> list[dict[str, Any]]:
    try:
        return candidate_actions(game)
    except Exception:  # noqa: BLE001 - a probe tool: report, go on
        return []


def offered(a: dict[str, Any], rng: random.Random, cands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    cands = [c for c in cands if c["type"] == a["type"]]
    same = {k: v for k, v in a.items() if k not in ("id", "created_at", "user", "auto_actions")}
    cands = [c for c in cands if {k: v for k, v in c.items() if k != "id"} != same]
    return rng.sample(cands, min(2, len(cands)))


def probe(path: Path, rate: float, seed: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
    data = json.loads(path.read_text())
    rng = random.Random(f"{seed}:{path.name}")
    auto = not any(a.get("auto_actions") for a in data["actions"])
    site = Site(data, auto)
    game, ours_actions = start_from_export(data)
    nid = 0
    idmap: dict[int, int] = {}
    findings: list[dict[str, Any]] = []
    tried = checked_prices = 0

    def renumber(a: dict[str, Any]) -> dict[str, Any]:
        nonlocal nid
        nid += 1
        b = dict(a, id=nid)
        if b.get("action_id") is not None:
            b["action_id"] = idmap.get(b["action_id"], b["action_id"])
        return b

    for raw, norm in zip(data["actions"], ours_actions, strict=True):
        if (raw["type"] in KINDS and tried < limit and rng.random() < rate
                and not raw.get("auto_actions")):
            cands = candidates(game)
            variants = [("offered", v) for v in offered(norm, rng, cands)]
            variants += [("altered " + tag, v) for tag, v in mutations(game, norm, rng, cands)]
            for why, v in variants:
                tried += 1
                v = renumber({k: x for k, x in v.items() if k != "id"})
                sv = dict(v)
                if sv.get("entity_type") == "player":
                    sv["entity"] = game.raw_player_ids.get(sv["entity"], sv["entity"])
                s = site.send(sv)
                o = _ours(game, v)
                if s.get("ok"):
                    site.send(renumber({"type": "undo", "entity": sv["entity"],
                                        "entity_type": sv["entity_type"]}))
                if o is None:
                    game.apply(renumber({"type": "undo", "entity": v["entity"],
                                         "entity_type": v["entity_type"]}))
                if s.get("ok") and o is not None and ours_stricter(why.split()[-1], o):
                    checked_prices += 1
                elif bool(s.get("ok")) != (o is None) or (why == "offered" and o is not None):
                    findings.append({"file": path.name, "before": raw["id"], "why": why,
                                     "variant": sv, "site": "accepts" if s.get("ok") else s.get("error"),
                                     "ours": "accepts" if o is None else o})
                    print(json.dumps(findings[-1]), flush=True)
        r = renumber(raw)
        idmap[raw["id"]] = r["id"]
        s = site.send(r)
        o = _ours(game, dict(norm, id=r["id"], **({"action_id": r["action_id"]}
                                                  if r.get("action_id") is not None else {})))
        if not s.get("ok") or o is not None:
            print(json.dumps({"file": path.name, "stopped_at": raw["id"], "site": s.get("error"),
                              "ours": o}), flush=True)
            break
    site.close()
    if checked_prices:
        print(f"# {path.name}: {checked_prices} numbers the site takes unchecked refused by "
              "ours (ours_stricter)", flush=True)
    return tried, findings


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--rate", type=float, default=0.1, help="share of moves probed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=200, help="variants per game at most")
    args = ap.parse_args()
    total, bad = 0, 0
    for f in args.files:
        tried, findings = probe(f, args.rate, args.seed, args.limit)
        total += tried
        bad += len(findings)
        print(f"# {f.name}: {tried} variants, {len(findings)} disagreements", flush=True)
    print(f"# all: {total} variants, {bad} disagreements")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
