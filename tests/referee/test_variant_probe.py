"""Moves a player could type that the legal answer does not offer (another certificate, another
price, a larger sale, another rotation) and the moves it offers, tried beside the site at real
games' positions (tools/variant_probe.py): both engines accept or refuse each alike, except
where the site takes a number unchecked that ours refuses (ours_stricter). Slow (the site
reloads the game after every refusal): -m slow. Skips without Ruby and the referee."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared"
REFEREE = SHARED / "referee"
pytestmark = [
    pytest.mark.skipif(shutil.which("ruby") is None or not (REFEREE / "referee.rb").is_file(),
                       reason="needs ruby and ../shared/referee"),
    pytest.mark.slow,
]


@pytest.mark.parametrize("fixture", ["18MS/14375.json", "18MEX/hotseat01.json", "1870/34110.json"])
def test_variants_of_real_moves_are_accepted_alike(fixture: str) -> None:
    path = SHARED / "fixtures" / fixture
    if not path.is_file():
        pytest.skip(f"needs ../shared/fixtures/{fixture}")
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "variant_probe.py"), str(path),
                          "--rate", "0.1", "--limit", "40", "--seed", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "0 disagreements" in run.stdout
