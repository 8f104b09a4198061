"""The requests waiting for a button (migration 006): a train sale the seller's president must
agree to, a run proposed to the president. bot/consent.py owns what they mean; this module
only stores them, so that a restart or another bot process does not lose them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.store.repo import Store


@dataclass(frozen=True, slots=True)
class AskedRecord:
    id: int
    game_id: int
    kind: str  # "sale" | "run"
    log_length: int
    action: dict[str, Any]
    asker_id: int
    asker_name: str
    asker_admin: bool
    answerer_id: int
    what: str


class AskedRepo:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(self, kind: str, game_id: int, log_length: int, action: dict[str, Any],
                     asker_id: int, asker_name: str, asker_admin: bool, answerer_id: int,
                     what: str = "") -> int:
        async with self.store._transaction() as tx:
            row = await tx.fetchone(
                "INSERT INTO asked (game_id, kind, log_length, action, asker_id, asker_name,"
                " asker_admin, answerer_id, what, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (game_id, kind, log_length, json.dumps(action), asker_id, asker_name,
                 int(asker_admin), answerer_id, what,
                 datetime.now(UTC).isoformat(timespec="seconds")))
        return int(row[0])

    async def get(self, kind: str, asked_id: int) -> AskedRecord | None:
        r = await self.store.db.fetchone(
            "SELECT id, game_id, kind, log_length, action, asker_id, asker_name, asker_admin,"
            " answerer_id, what FROM asked WHERE id = ? AND kind = ?", (asked_id, kind))
        if r is None:
            return None
        return AskedRecord(int(r[0]), int(r[1]), str(r[2]), int(r[3]), json.loads(r[4]),
                           int(r[5]), str(r[6]), bool(r[7]), int(r[8]), str(r[9]))

    async def drop(self, asked_id: int) -> bool:
        """Delete an answered request; False when it was gone already (answered twice)."""
        cur = await self.store._write("DELETE FROM asked WHERE id = ?", (asked_id,))
        return bool(cur.rowcount)
