"""Copy a whole store from one database to another (SQLite → PostgreSQL, or back): the
step from one machine to several processes (docs/DEPLOY.md).

    python -m bot.store.copy --from data/rail-moderator.sqlite3 --to postgresql://.../rail

Stop the bot first. The target is migrated, must hold no games yet, and receives every row
with its ids; the id counters then continue after the highest copied id.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.store.repo import Store

# parents before children; (table, columns whose values are copied, ordered by)
TABLES: tuple[tuple[str, str], ...] = (
    ("games", "id"),
    ("players", "rowid"),
    ("actions", "game_id, seq"),
    ("undo_requests", "id"),
    ("end_votes", "game_id, user_id"),
    ("game_timing", "game_id"),
    ("turn_state", "game_id"),
    ("clocks", "game_id, engine_id, user_id"),
    ("reminders", "id"),
    ("user_settings", "user_id"),
    ("nudges", "game_id, at"),
    ("followers", "game_id, user_id"),
    ("seat_changes", "id"),
    ("seat_votes", "id"),
    ("seat_ballots", "rowid"),
    ("mail_users", "id"),
    ("mail_seats", "game_id, user_id"),
    ("mail_invites", "id"),
    ("mail_seen", "message_id"),
    ("mail_sent", "message_id"),
    ("asked", "id"),
)
# tables whose `id` counter must continue after the copied ids
COUNTED = ("games", "undo_requests", "reminders", "seat_changes", "seat_votes", "mail_users",
           "mail_invites", "asked")


async def _columns(store: Store, table: str) -> list[str]:
    if store.dialect == "sqlite":
        rows = await store.db.fetch(f"PRAGMA table_info({table})")
        return [str(r[1]) for r in rows]
    rows = await store.db.fetch(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ?"
        " AND table_schema = current_schema() ORDER BY ordinal_position", (table,))
    return [str(r[0]) for r in rows if str(r[0]) != "rowid"]  # its own identity column


async def copy_store(source: Store, target: Store) -> dict[str, int]:
    """Every row of `source` into the empty `target`; returns the rows copied per table."""
    if await target.db.fetchone("SELECT id FROM games LIMIT 1") is not None:
        raise SystemExit("the target already holds games: copy into an empty database")
    if await source.schema_version() != await target.schema_version():
        raise SystemExit("source and target are at different schema versions: start the bot "
                         "once on the source (or run python -m bot --migrate) first")
    counts: dict[str, int] = {}
    async with target.db.transaction() as tx:
        for table, order in TABLES:
            wanted = set(await _columns(target, table))
            columns = [c for c in await _columns(source, table) if c in wanted]
            rows = await source.db.fetch(
                f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
            marks = ", ".join("?" for _ in columns)
            await tx.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                [tuple(r) for r in rows])
            counts[table] = len(rows)
        if target.dialect == "postgres":
            for table in COUNTED:
                await tx.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
    return counts


async def _main(src: str, dst: str) -> int:
    source = await Store.open(src)
    target = await Store.open(dst)
    try:
        counts = await copy_store(source, target)
    finally:
        await source.close()
        await target.close()
    for table, n in counts.items():
        print(f"{table}: {n}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot.store.copy", description=__doc__)
    ap.add_argument("--from", dest="src", required=True, help="SQLite file or postgresql:// URL")
    ap.add_argument("--to", dest="dst", required=True, help="SQLite file or postgresql:// URL")
    args = ap.parse_args(argv)
    if not str(args.src).startswith("postgres") and not Path(args.src).exists():
        print(f"no such database file: {args.src}", file=sys.stderr)
        return 2
    return asyncio.run(_main(args.src, args.dst))


if __name__ == "__main__":
    sys.exit(main())
