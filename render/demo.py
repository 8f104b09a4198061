"""Hand-built GameView objects (no engine replay needed): for tests, the benchmark and samples.

`make_view` builds a view from title data plus a few laid tiles, tokens and market positions;
`busy_view` fills most of a map with legal-looking tiles (from each hex's possible_tiles) so the
renderers can be timed and inspected on a crowded board.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.data import TitleData, load_title_data
from engine.view import (
    CompanyView,
    CorporationView,
    GameView,
    HexState,
    PlayerView,
    TrainStock,
)

Tokens = Sequence[Sequence[str | None]]


def _corp_views(
    data: TitleData,
    market: Mapping[tuple[int, int], Sequence[str]],
    players: Sequence[PlayerView],
    tokens_used: Mapping[str, int],
) -> tuple[CorporationView, ...]:
    cell_of: dict[str, tuple[int, int]] = {}
    for cell, corps in market.items():
        for cid in corps:
            cell_of[cid] = cell
    prices = data.market["grid_prices"]
    out = []
    for i, c in enumerate(list(data.corporations) + list(data.minors)):
        cid = c["id"]
        where = cell_of.get(cid)
        price = prices[where[0]][where[1]] if where else None
        total = (
            int((c.get("tokens") or {}).get("count", 3)) if isinstance(c.get("tokens"), dict) else 3
        )
        pres = players[i % len(players)].id if where and players else None
        out.append(
            CorporationView(
                id=cid,
                name=str(c.get("name", cid)),
                color=str(c.get("color", "gray")),
                kind="minor" if c in data.minors else "corporation",
                president=pres,
                treasury=(120 + 37 * i) if where else 0,
                trains=("2", "3") if where and i % 2 == 0 else (("4",) if where else ()),
                tokens_total=total,
                tokens_left=max(0, total - tokens_used.get(cid, 0)),
                price=price,
                par=data.market["par_values"][i % len(data.market["par_values"])]
                if where
                else None,
                market_cell=where,
                floated=where is not None,
                closed=False,
                ipo_percent=40 if where else 100,
                market_percent=10 if where else 0,
            )
        )
    return tuple(out)


def make_view(
    title: str,
    *,
    tiles: Mapping[str, tuple[str, int]] | None = None,
    tokens: Mapping[str, Tokens] | None = None,
    market: Mapping[tuple[int, int], Sequence[str]] | None = None,
    last_hexes: Sequence[str] = (),
    phase: str | None = None,
    round_name: str = "Operating Round 1",
    round_kind: str = "operating",
    players: Sequence[tuple[str, str]] = (("p1", "Alice"), ("p2", "Bob"), ("p3", "Cy")),
) -> GameView:
    """A GameView of `title` with the given tiles {hex: (tile name, rotation)}, station tokens
    {hex: [[corp or None per slot] per city]} and market stacks {(row, col): corp ids}."""
    data = load_title_data(title)
    tiles = dict(tiles or {})
    tokens = dict(tokens or {})
    stacks: dict[tuple[int, int], tuple[str, ...]] = {
        k: tuple(v) for k, v in (market or {}).items()
    }
    hexes: dict[str, HexState] = {}
    used: dict[str, int] = {}
    for name in set(tiles) | set(tokens):
        tile, rot = tiles.get(name, (None, 0))
        toks = tuple(tuple(city) for city in tokens.get(name, ()))
        for city in toks:
            for cid in city:
                if cid:
                    used[cid] = used.get(cid, 0) + 1
        geom = data.tiles[tile].geometry if tile else data.hexes[name].geometry
        placed = {cid for city in toks for cid in city if cid}
        printed = data.hexes[name].geometry.cities
        reserved = tuple(
            tuple(
                x for x in (printed[i].reserved_for if i < len(printed) else ()) if x not in placed
            )
            for i in range(len(geom.cities))
        )
        hexes[name] = HexState(name, tile, rot, toks, reserved)
    pviews = tuple(
        PlayerView(
            id=pid,
            name=pname,
            cash=400 - 55 * i,
            value=900 + 40 * i,
            shares={},
            companies=(),
            cert_count=3 + i,
            cert_limit=_cert_limit(data, len(players)),
            priority=i == 0,
        )
        for i, (pid, pname) in enumerate(players)
    )
    corps = _corp_views(data, stacks, pviews, used)
    pviews = tuple(
        PlayerView(
            id=p.id,
            name=p.name,
            cash=p.cash,
            value=p.value,
            shares={c.id: (20 if c.president == p.id else 10) for c in corps if c.floated},
            companies=tuple(
                co["id"] for j, co in enumerate(data.companies) if j % len(pviews) == i
            ),
            cert_count=p.cert_count,
            cert_limit=p.cert_limit,
            priority=p.priority,
        )
        for i, p in enumerate(pviews)
    )
    companies = tuple(
        CompanyView(
            id=co["id"],
            name=str(co.get("name", co["id"])),
            value=int(co.get("value", 0)),
            revenue=int(co.get("revenue", 0)),
            owner=pviews[j % len(pviews)].id,
            owner_kind="player",
            closed=False,
        )
        for j, co in enumerate(data.companies)
    )
    ph = phase or str(data.phases[0]["name"])
    trains = []
    for k, t in enumerate(data.trains):
        cnt = t.get("count")
        left = 99 if not isinstance(cnt, int) else max(0, cnt - (2 if k == 0 else 0))
        trains.append(
            TrainStock(
                name=str(t["name"]), price=int(t.get("price", 0)), left=left, available=k <= 1
            )
        )
    acting = tuple(c.id for c in corps if c.floated)[:1] or (pviews[0].id,)
    return GameView(
        title=title,
        data=data,
        round=round_name,
        round_kind=round_kind,
        phase=ph,
        acting=acting,
        acting_players=(pviews[0].id,),
        bank_cash=int(data.meta.get("bank_cash", 10000)) - 2500,
        hexes=hexes,
        market=stacks,
        players=pviews,
        corporations=corps,
        companies=companies,
        trains=tuple(trains),
        last_hexes=tuple(last_hexes),
        operating_order=tuple(c.id for c in corps if c.floated),
    )


def _cert_limit(data: TitleData, n: int) -> int:
    cl = data.meta.get("cert_limit", {}).get(str(n), 12)
    if isinstance(cl, dict):
        return int(max(cl.values()))
    return int(cl)


def busy_view(title: str, seed: int = 1, fill: float = 0.75) -> GameView:
    """A crowded board: most tileable hexes carry a tile of a random allowed colour, cities
    carry tokens, every corporation sits on the market (some stacked)."""
    data = load_title_data(title)
    rnd = random.Random(seed)
    corp_ids = [c["id"] for c in data.corporations]
    tiles: dict[str, tuple[str, int]] = {}
    tokens: dict[str, list[list[str | None]]] = {}
    for name, h in sorted(data.hexes.items()):
        if not h.possible_tiles or rnd.random() > fill:
            continue
        colors = [c for c in ("yellow", "green", "brown", "gray") if c in h.possible_tiles]
        color = rnd.choice(colors)
        tile = rnd.choice(sorted(h.possible_tiles[color]))
        rot = rnd.choice(h.possible_tiles[color][tile])
        if data.tiles[tile].extra.get("double_hex"):
            rot = 0
        tiles[name] = (tile, rot)
        cities = data.tiles[tile].geometry.cities
        if cities:
            toks: list[list[str | None]] = []
            for city in cities:
                k = rnd.randint(0, city.slots)
                toks.append([rnd.choice(corp_ids) for _ in range(k)] + [None] * (city.slots - k))
            tokens[name] = toks
    rows = data.market["grid_prices"]
    market: dict[tuple[int, int], list[str]] = {}
    for i, cid in enumerate(corp_ids):
        row = rnd.randrange(0, min(4, len(rows)))
        col = rnd.randrange(0, len(rows[row]))
        if i % 4 == 3:  # make a few stacks
            row, col = next(iter(market)) if market else (row, col)
        market.setdefault((row, col), []).append(cid)
    last = [next(iter(tiles))] if tiles else []
    phase = str(data.phases[len(data.phases) // 2]["name"])
    return make_view(
        title,
        tiles=tiles,
        tokens=tokens,
        market={k: tuple(v) for k, v in market.items()},
        last_hexes=last,
        phase=phase,
        round_name="Operating Round 4 (of 2)",
    )


def _live(a: Mapping[str, Any] | None) -> bool:
    return a is not None and a.get("type") != "message"


def effective_actions(actions: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The actions left after undo/redo (shared/reference/action-log-format.md, section 3)."""
    kept: list[Mapping[str, Any] | None] = [None] * len(actions)
    stack: list[list[tuple[Mapping[str, Any], int]]] = []
    index = {a.get("id"): i for i, a in enumerate(actions)}
    for i, a in enumerate(actions):
        kind = a.get("type")
        if kind == "undo":
            if "action_id" in a:
                start = 0 if a["action_id"] == 0 else index.get(a["action_id"], -1) + 1
            else:
                live = [j for j in range(i) if _live(kept[j])]
                start = live[-1] if live else 0
            batch = [(x, j) for j in range(start, i) if (x := kept[j]) is not None and _live(x)]
            for _, j in batch:
                kept[j] = None
            stack.append(batch)
        elif kind == "redo":
            if stack:
                for x, j in stack.pop():
                    kept[j] = x
        else:
            if kind != "message":
                stack.clear()
            kept[i] = a
    return [a for a in kept if a]


def view_from_export(export: Mapping[str, Any], at: int | None = None) -> GameView:
    """An APPROXIMATE view of an 18xx.games export without the engine: only the track and the
    station tokens are rebuilt from the log (lay_tile, place_token, home tokens of corporations
    that acted); market, cash and round are not.  For pictures while the replay is not ready."""
    title = str(export["title"])
    data = load_title_data(title)
    actions = [a for a in export.get("actions", []) if at is None or int(a.get("id", 0)) <= at]
    copy_hex = {h.preprinted_tile_id: n for n, h in data.hexes.items() if h.preprinted_tile_id}
    tiles: dict[str, tuple[str, int]] = {}
    tokens: dict[str, list[list[str | None]]] = {}
    acted: list[str] = []
    last: list[str] = []

    def geom(hexname: str) -> Any:
        t = tiles.get(hexname)
        return data.tiles[t[0]].geometry if t else data.hexes[hexname].geometry

    def put(hexname: str, city_index: int, slot: int | None, corp: str) -> None:
        cities = geom(hexname).cities
        toks = tokens.setdefault(hexname, [[] for _ in cities])
        while len(toks) <= city_index:
            toks.append([])
        row = toks[city_index]
        if corp in row:
            return
        slots = cities[city_index].slots if city_index < len(cities) else 1
        while len(row) < slots:
            row.append(None)
        i = slot if slot is not None and slot < len(row) and row[slot] is None else None
        if i is None:
            i = next((k for k, v in enumerate(row) if v is None), len(row))
            if i == len(row):
                row.append(None)
        row[i] = corp

    flat: list[Mapping[str, Any]] = []
    for a in effective_actions(actions):
        flat.append(a)
        flat.extend(a.get("auto_actions") or ())
    phase = str(data.phases[0]["name"])
    triggers = {
        str(ph.get("trigger_train")): str(ph["name"])
        for ph in data.phases
        if ph.get("trigger_train")
    }
    for a in flat:
        ent = str(a.get("entity", ""))
        if a.get("type") == "buy_train":
            tname = str(a.get("train", "")).rsplit("-", 1)[0]
            if tname in triggers and [str(p["name"]) for p in data.phases].index(
                triggers[tname]
            ) > [str(p["name"]) for p in data.phases].index(phase):
                phase = triggers[tname]
        if a.get("entity_type") in ("corporation", "minor") and ent not in acted:
            acted.append(ent)
        if a.get("type") == "lay_tile":
            name = str(a["tile"]).rsplit("-", 1)[0]
            tiles[a["hex"]] = (name, int(a.get("rotation", 0)))
            copy_hex[str(a["tile"])] = a["hex"]
            last = [a["hex"]]
            dh = data.tiles[name].extra.get("double_hex") if name in data.tiles else None
            if isinstance(dh, dict) and dh.get("pair") in data.tiles:
                pair = str(dh["pair"])
                phex = str(data.tiles[pair].extra["double_hex"]["hex"])
                tiles[phex] = (pair, 0)
                last.append(phex)
        elif a.get("type") == "place_token":
            tile_id, part = str(a["city"]).rsplit("-", 1)
            hexname = copy_hex.get(tile_id)
            if hexname is None:
                continue
            cities = geom(hexname).cities
            idx = next((c.index for c in cities if c.part_index == int(part)), 0)
            corp = str(a.get("tokener") or ent)
            put(hexname, idx, a.get("slot"), corp)
            last = [hexname]
    for c in list(data.corporations) + list(data.minors):
        home = c.get("home")
        if c["id"] in acted and isinstance(home, dict) and home.get("hex") in data.hexes:
            put(str(home["hex"]), int(home.get("city_index", 0)), None, c["id"])
    toks = {h: [tuple(r) for r in rows] for h, rows in tokens.items()}
    ids = [str(a["id"]) for a in actions if "id" in a]
    label = f"log up to action {ids[-1] if ids else 0} (track and tokens only)"
    players = [
        (str(p.get("id", p.get("name"))), str(p.get("name"))) for p in export.get("players", [])
    ]
    return make_view(
        title,
        tiles=tiles,
        tokens=toks,
        last_hexes=last,
        round_name=label,
        phase=phase,
        players=players or (("p1", "Alice"),),
    )
