"""Our engine beside the site's (../shared/referee), action by action, on a handful of games
our engine plays by random legal moves: every one must agree to its end. Skips without Ruby and
the referee. The long sweep (hundreds of games) is `tools/lockstep_sweep.py`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFEREE = ROOT.parent / "shared" / "referee"
pytestmark = pytest.mark.skipif(
    shutil.which("ruby") is None or not (REFEREE / "referee.rb").is_file(),
    reason="needs ruby and ../shared/referee")

# whole games (each ends: fixed round, bankruptcy, bankruptcy) of tools/lockstep_sweep.py
GAMES = [("18MS", 27, 4, []), ("1870", 14, 3, []), ("18MEX", 30, 5, ["delay_minor_close"])]
# longer ones (1870 seed 2: 1,570 moves ending with the bank, about a minute)
LONG_GAMES = [("1870", 2, 4, [])]


def _lockstep(path: Path) -> dict[str, object]:
    res = subprocess.run([sys.executable, str(REFEREE / "lockstep.py"), str(path), "--json",
                          "--timeout", "600"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    return dict(json.loads(res.stdout.strip().splitlines()[-1]))


def _replay(path: Path) -> dict[str, object]:
    res = subprocess.run(["ruby", str(REFEREE / "referee.rb"), "replay", "--strict", str(path)],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    return dict(json.loads(res.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("title,seed,players,options", [
    *GAMES, *(pytest.param(*g, marks=pytest.mark.slow) for g in LONG_GAMES)])
def test_random_game_agrees_with_the_site(tmp_path: Path, title: str, seed: int, players: int,
                                          options: list[str]) -> None:
    out = tmp_path / f"{title}.json"
    cmd = [sys.executable, "-m", "engine", "random", title, "--seed", str(seed), "--players",
           str(players), "--out", str(out)]
    for o in options:
        cmd += ["--option", o]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)
    assert json.loads(out.read_text())["status"] == "finished"
    rep = _lockstep(out)
    assert rep["verdict"] in ("agree", "both-reject"), rep["detail"]
    # the export as written loads whole on the site (a stored game, a hotseat import), strict,
    # and ends with the export's result
    site = _replay(out)
    assert site.get("error") is None, site["error"]
    assert site["finished"] is True
    assert {str(k): v for k, v in site["result"].items()} == {
        str(k): v for k, v in json.loads(out.read_text())["result"].items()}


# 1870 games where a company's price reaches $0 (it closes when the action is over, and the
# site's connection checks around it follow), one in phase 1 with the bridge no longer for sale
CLOSINGS = [(124, 6, [], "default"), (145, 3, ["finish_on_400"], "default"), (4, 6, [], "steady")]


@pytest.mark.slow
@pytest.mark.parametrize("seed,players,options,style", CLOSINGS)
def test_1870_games_with_closings_agree_with_the_site(tmp_path: Path, seed: int, players: int,
                                                      options: list[str], style: str) -> None:
    out = tmp_path / "1870.json"
    cmd = [sys.executable, "-m", "engine", "random", "1870", "--seed", str(seed), "--players",
           str(players), "--style", style, "--out", str(out)]
    for o in options:
        cmd += ["--option", o]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True)
    rep = _lockstep(out)
    assert rep["verdict"] == "agree", rep["detail"]
