"""python -m bot.store.copy: a store played on SQLite, copied into PostgreSQL, plays on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store
from bot.store.copy import copy_store
from bot.store.longgames import LongGameRepo
from tests.bot.conftest import DRAFT, STOCK_ROUND
from tests.bot.shared_db import SEATS, Proc


async def test_sqlite_store_copied_to_postgres_plays_on(tmp_path: Path, pg_url: str) -> None:
    src = tmp_path / "bot.sqlite3"
    one = await Proc.open(src, "one")
    gid = await one.new_game(20)
    for who, name, options in DRAFT:
        assert not (await one.run(SEATS[who], 20, name, **options)).ephemeral
    await LongGameRepo(one.store).follow(gid, 77, 1.5)
    before = (await one.store.game(gid), await one.store.actions(gid),
              await LongGameRepo(one.store).turn_state(gid))
    await one.close()

    proc = subprocess.run([sys.executable, "-m", "bot.store.copy", "--from", str(src),
                           "--to", pg_url], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "games: 1\n" in proc.stdout and f"actions: {len(DRAFT)}\n" in proc.stdout
    two = await Proc.open(pg_url, "two")
    try:
        after = (await two.store.game(gid), await two.store.actions(gid),
                 await LongGameRepo(two.store).turn_state(gid))
        assert after == before
        assert await LongGameRepo(two.store).followers(gid) == [77]
        for who, name, options in STOCK_ROUND[:2]:  # the game goes on where it was
            assert not (await two.run(SEATS[who], 20, name, **options)).ephemeral
        assert len(await two.store.actions(gid)) == len(DRAFT) + 2
        assert await two.new_game(21) == gid + 1  # ids continue after the copied ones
        again = await Store.open(src)
        with pytest.raises(SystemExit, match="already holds games"):
            await copy_store(again, two.store)
        await again.close()
    finally:
        await two.close()
