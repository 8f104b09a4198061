"""Fuzz (issue 12): random command lines and slash-option values are all answered, none with a
fault. CI runs 200; RAIL_FUZZ_FULL=1 (or `python tools/fuzz.py`) runs 2,000."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.bot._fuzz_commands import fuzz_commands

FULL = os.environ.get("RAIL_FUZZ_FULL") == "1"


async def test_fuzz_commands_small(tmp_path: Path) -> None:
    tally = await fuzz_commands(tmp_path, 200, seed=3)
    assert tally.lines + tally.options == 200
    assert tally.faults == [] and tally.torn == [], tally.faults[:5]


@pytest.mark.skipif(not FULL, reason="the full fuzz count runs with RAIL_FUZZ_FULL=1")
async def test_fuzz_commands_full(tmp_path: Path) -> None:
    tally = await fuzz_commands(tmp_path, 2000, seed=11)
    assert tally.faults == [] and tally.torn == [], tally.faults[:5]
