"""The command-line contracts used to compare with the site: `python -m engine random` and
`python -m engine replay --states`, and the live-path undo/redo they exercise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import EngineError, Game
from engine.io.export18xx import export_game
from engine.legal import candidate_actions
from engine.randomplay import random_game

ROOT = Path(__file__).resolve().parents[2]


def test_random_game_is_deterministic_for_a_seed() -> None:
    a = random_game("18MS", seed=3, players=3, max_actions=120)
    b = random_game("18MS", seed=3, players=3, max_actions=120)
    c = random_game("18MS", seed=4, players=3, max_actions=120)
    assert a.export_actions() == b.export_actions()
    assert a.export_actions() != c.export_actions()
    assert len(a.log) == 120


def test_steady_style_is_its_own_deterministic_game() -> None:
    """The steady style (fewer voluntary trains, cash kept in hand) is deterministic for a seed
    and plays another game than the default weights."""
    a = random_game("1870", seed=2, players=4, max_actions=150, style="steady")
    b = random_game("1870", seed=2, players=4, max_actions=150, style="steady")
    d = random_game("1870", seed=2, players=4, max_actions=150)
    assert a.export_actions() == b.export_actions()
    assert a.export_actions() != d.export_actions()


@pytest.mark.parametrize("title,players,options", [
    ("18MS", 4, []), ("1870", 3, ["diesels"]), ("18MEX", 3, ["baja_variant"]),
])
def test_random_cli_writes_an_export_that_replays(tmp_path: Path, title: str, players: int,
                                                   options: list[str]) -> None:
    out = tmp_path / "g.json"
    cmd = [sys.executable, "-m", "engine", "random", title, "--seed", "5", "--players", str(players),
           "--max-actions", "150", "--out", str(out)]
    for o in options:
        cmd += ["--option", o]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)
    data = json.loads(out.read_text())
    assert data["title"] == title and len(data["players"]) == players
    assert data["settings"]["optional_rules"] == options
    assert len(data["actions"]) == 150
    assert [a["id"] for a in data["actions"]] == list(range(1, 151))
    states = subprocess.run([sys.executable, "-m", "engine", "replay", str(out), "--states"],
                            cwd=ROOT, check=True, capture_output=True, text=True).stdout
    lines = [json.loads(x) for x in states.splitlines()]
    assert [x["id"] for x in lines] == list(range(1, 151))
    last = lines[-1]
    assert set(last["state"]) == {"players", "corporations", "minors", "bank_cash"}
    assert all(isinstance(v, (int, str)) for v in last["certs"].values())
    assert last["acting"] is not None


def test_states_stops_at_a_refused_action(tmp_path: Path) -> None:
    g = random_game("18MS", seed=1, players=3, max_actions=30)
    data = export_game(g)
    bad = {"type": "lay_tile", "entity": "GMO", "entity_type": "corporation", "id": 31,
           "hex": "Z99", "tile": "57-0", "rotation": 0}
    data["actions"].append(bad)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    res = subprocess.run([sys.executable, "-m", "engine", "replay", str(path), "--states"],
                         cwd=ROOT, capture_output=True, text=True)
    lines = [json.loads(x) for x in res.stdout.splitlines()]
    assert len(lines) == 31 and lines[-1]["id"] == 31 and "rejected" in lines[-1]
    assert res.returncode != 0


def test_two_redos_in_a_row_after_two_undos() -> None:
    g = Game("18MS", ["a", "b", "c"])
    for _ in range(3):
        g.apply(candidate_actions(g)[0])
    before = g.export_actions()
    g.apply({"type": "undo", "entity": "a", "entity_type": "player"})
    g.apply({"type": "undo", "entity": "a", "entity_type": "player"})
    g.apply({"type": "redo", "entity": "a", "entity_type": "player"})
    g.apply({"type": "redo", "entity": "a", "entity_type": "player"})  # was refused
    assert [a for a in g.export_actions() if a["type"] not in ("undo", "redo")] == before
    with pytest.raises(EngineError, match="nothing to redo"):
        g.apply({"type": "redo", "entity": "a", "entity_type": "player"})
    # a move after an undo closes the redo
    g.apply({"type": "undo", "entity": "a", "entity_type": "player"})
    g.apply(candidate_actions(g)[-1])
    with pytest.raises(EngineError, match="nothing to redo"):
        g.apply({"type": "redo", "entity": "a", "entity_type": "player"})


def test_random_cli_goes_on_from_a_real_games_position(tmp_path: Path) -> None:
    """`engine random --from EXPORT --at ID`: the export's players, options and log up to ID
    are kept as they were, then random legal moves follow; the same seed gives the same game,
    and the written export replays to the end."""
    from tests.engine._helpers import need_shared

    src = need_shared() / "fixtures" / "18MS" / "14375.json"
    data = json.loads(src.read_text())
    kept = [a for a in data["actions"] if a["id"] <= 120]

    def run(seed: int) -> dict[str, object]:
        out = tmp_path / f"g{seed}.json"
        subprocess.run([sys.executable, "-m", "engine", "random", "18MS", "--from", str(src),
                        "--at", "120", "--seed", str(seed), "--max-actions", "220",
                        "--out", str(out)], cwd=ROOT, check=True, capture_output=True, text=True)
        loaded: dict[str, object] = json.loads(out.read_text())
        return loaded

    a, b, c = run(1), run(1), run(2)
    assert a == b and a["actions"] != c["actions"]
    assert [p["id"] for p in a["players"]] == [p["id"] for p in data["players"]]  # type: ignore[index, union-attr]
    acts = a["actions"]
    assert isinstance(acts, list) and len(acts) == 220
    for mine, real in zip(acts, kept, strict=False):
        assert (mine["type"], mine.get("entity")) == (real["type"], real.get("entity"))
    states = subprocess.run([sys.executable, "-m", "engine", "replay", str(tmp_path / "g1.json"),
                             "--states"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout
    assert len([x for x in states.splitlines() if '"rejected"' in x]) == 0
    # a title other than the file's is refused
    bad = subprocess.run([sys.executable, "-m", "engine", "random", "1870", "--from", str(src),
                          "--seed", "1", "--out", str(tmp_path / "x.json")], cwd=ROOT,
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "18MS game" in bad.stderr
