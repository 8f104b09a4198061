"""1870's self-computed connection check (live games have no logged `destination_connection`).

The site walks the track from the destination city (each piece of track and each node at most
once, never through a city full of other corporations' tokens or an off-board), counting nodes up
to the longest train's distance, and the check succeeds once the walk enters the home hex."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.io.export18xx import end_state, import_game
from engine.titles.t1870.title import Title1870
from tests.engine.t1870._util import FIXTURES, SHARED
from tools.compare_end_state import diff_end_state

# 34110 was played in March 2021, when the site's walk allowed one more node (see RULES.md)
CURRENT_ENGINE = ["1870_game_end_bank.json", "1870_game_end_bankrupt.json",
                  "40469_price_protect_allowed.json", "40469_price_protect_over_cert_limit_fails.json"]


def _names() -> list[str]:
    if not FIXTURES.is_dir():
        return ["absent"]
    return sorted(p.name for p in FIXTURES.glob("*.json"))


def _load(name: str) -> dict[str, Any]:
    if not FIXTURES.is_dir():
        pytest.skip("needs ../shared/fixtures")
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", _names())
def test_replay_without_logged_checks(name: str) -> None:
    data = _load(name)
    stripped = 0
    for a in data["actions"]:
        if a.get("auto_actions"):
            keep = [x for x in a["auto_actions"] if x.get("type") != "destination_connection"]
            stripped += len(a["auto_actions"]) - len(keep)
            a["auto_actions"] = keep
    assert stripped > 0
    game = import_game(data)
    assert game.finished
    assert game.result() == {str(k): v for k, v in data["result"].items()}
    refs = json.loads((SHARED / "reference" / "end-states.json").read_text())["games"]
    assert diff_end_state(refs[f"1870/{name}"]["end_state"], end_state(game)) == []


@pytest.mark.parametrize("name", CURRENT_ENGINE)
def test_computed_check_agrees_with_every_logged_check(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data = _load(name)
    seen: list[tuple[list[str], list[str]]] = []
    original = Title1870.connection_check

    def spy(self: Title1870, game: Any, rnd: Any, entity: str | None = None) -> list[str]:
        if self._logged_checks is not None and entity is not None:
            st = game.state
            batches = list(self._logged_checks)  # those up to the first one for `entity`
            n = next((i + 1 for i, (e, _) in enumerate(batches) if e == entity), len(batches))
            logged = {c for _, cs in batches[:n] for c in cs if self.destination_hex(st.corporations[c])}
            mine = {c.id for c in st.corporations.values()
                    if c.floated and not c.closed and self.connected_to_destination(game, c)}
            seen.append((sorted(mine), sorted(logged)))
        return original(self, game, rnd, entity)

    monkeypatch.setattr(Title1870, "connection_check", spy)
    import_game(data)
    assert len(seen) > 50
    assert any(logged for _, logged in seen)
    assert [s for s in seen if s[0] != s[1]] == []


def test_walk_never_reuses_track() -> None:
    """Bankrupt game after action 785: MP (home C18, destination J5, an 8-train) is linked
    J5-M2-M10-M14-M20-C18 only by running J5->M2 and M2->M10 over the same track in L3/L5,
    which the site's walk does not allow: no connection yet."""
    from tests.engine.t1870._util import BANKRUPT, replay

    game = replay(BANKRUPT, upto=785)
    assert not game.title.connected_to_destination(game, game.state.corporations["MP"])


def test_recorded_checks_are_the_sites() -> None:
    """Played live without the logged checks, every action is stored with the connection checks
    the engine made while processing it, in the site's shape and at the site's moments (start of
    an OR for its first company, end of each turn for the company that operated with the
    companies that connect, start of each later turn for nobody): exactly as the site recorded
    them in the bank game, so an exported game loads on the site."""
    from engine.io.export18xx import import_game as load

    data = _load("1870_game_end_bank.json")
    site = {a["id"]: [(x["entity"], x.get("corporations")) for x in a.get("auto_actions", [])
                      if x.get("type") == "destination_connection"] for a in data["actions"]}
    game = load({**data, "actions": []})
    differ, checks = [], 0
    for a in data["actions"]:
        raw = {k: v for k, v in a.items() if k not in ("created_at", "user")}
        raw["auto_actions"] = [x for x in a.get("auto_actions", []) if x.get("type") != "destination_connection"]
        if raw.get("entity_type") == "player":
            raw["entity"] = str(raw["entity"])
        stored = game.apply(raw)
        ours = [(x["entity"], x.get("corporations")) for x in stored.auto_actions
                if x.get("type") == "destination_connection"]
        checks += len(ours)
        if a["type"] not in ("undo", "redo") and not a.get("skip") and ours != site[a["id"]]:
            differ.append((a["id"], site[a["id"]], ours))
    assert checks > 100
    assert differ == []
