"""SQL of the e-mail transport (migration 004), on the store's database."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.store import Store
from bot.store.db import IntegrityError

# e-mail users get ids above every local-mode id (< 2**31) and far below Discord's snowflakes
MAIL_USER_BASE = 3_000_000_000


def is_mail_user(user_id: int) -> bool:
    return MAIL_USER_BASE < user_id < MAIL_USER_BASE + 10**9


@dataclass(frozen=True, slots=True)
class MailSeat:
    game_id: int
    user_id: int
    address: str
    nonce: str
    thread_root: str | None
    last_stamp: int | None


@dataclass(frozen=True, slots=True)
class Invite:
    id: int
    game_id: int
    address: str
    name: str
    inviter_id: int
    nonce: str
    status: str


class MailRepo:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return await self.store.db.fetch(sql, params)

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self.store._write(sql, params)

    # -- people and seats -------------------------------------------------------------------

    async def user_for(self, address: str, name: str) -> int:
        """The user id of an e-mail address (created on first use)."""
        address = address.strip().lower()
        rows = await self._rows("SELECT id FROM mail_users WHERE address = ?", (address,))
        if not rows:
            with contextlib.suppress(IntegrityError):  # another mail just added it
                await self._write("INSERT INTO mail_users (address, name) VALUES (?, ?)",
                                  (address, name))
            rows = await self._rows("SELECT id FROM mail_users WHERE address = ?", (address,))
        return MAIL_USER_BASE + int(rows[0][0])

    async def add_seat(self, game_id: int, user_id: int, address: str, nonce: str) -> None:
        await self._write(
            "INSERT INTO mail_seats (game_id, user_id, address, nonce) VALUES (?, ?, ?, ?)"
            " ON CONFLICT DO NOTHING",
            (game_id, user_id, address.strip().lower(), nonce))

    async def seat(self, game_id: int, user_id: int) -> MailSeat | None:
        rows = await self._rows(
            "SELECT game_id, user_id, address, nonce, thread_root, last_stamp FROM mail_seats"
            " WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        return MailSeat(*rows[0]) if rows else None

    async def seats(self, game_id: int) -> list[MailSeat]:
        rows = await self._rows(
            "SELECT game_id, user_id, address, nonce, thread_root, last_stamp FROM mail_seats"
            " WHERE game_id = ?", (game_id,))
        return [MailSeat(*r) for r in rows]

    async def set_thread_root(self, game_id: int, user_id: int, message_id: str) -> None:
        await self._write("UPDATE mail_seats SET thread_root = COALESCE(thread_root, ?)"
                          " WHERE game_id = ? AND user_id = ?", (message_id, game_id, user_id))

    async def set_last_stamp(self, game_id: int, user_id: int, stamp: int | None) -> None:
        await self._write("UPDATE mail_seats SET last_stamp = ? WHERE game_id = ? AND user_id = ?",
                          (stamp, game_id, user_id))

    # -- invitations ------------------------------------------------------------------------

    async def add_invite(self, game_id: int, address: str, name: str, inviter_id: int,
                         nonce: str, now: float) -> int:
        async with self.store._transaction() as tx:
            row = await tx.fetchone(
                "INSERT INTO mail_invites (game_id, address, name, inviter_id, nonce, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                (game_id, address.strip().lower(), name, inviter_id, nonce, now))
        return int(row[0])

    async def invite(self, invite_id: int) -> Invite | None:
        rows = await self._rows(
            "SELECT id, game_id, address, name, inviter_id, nonce, status FROM mail_invites"
            " WHERE id = ?", (invite_id,))
        return Invite(*rows[0]) if rows else None

    async def take_invite(self, invite_id: int) -> bool:
        cur = await self._write("UPDATE mail_invites SET status = 'taken' WHERE id = ?"
                                " AND status = 'open'", (invite_id,))
        return bool(cur.rowcount)

    # -- mails read and sent ----------------------------------------------------------------

    async def claim(self, message_id: str, now: float) -> bool:
        """Remember a mail as read; False if this Message-ID was read before."""
        try:
            await self._write("INSERT INTO mail_seen (message_id, outcome, at) VALUES (?, ?, ?)",
                              (message_id, "reading", now))
        except IntegrityError:
            return False
        return True

    async def unclaim(self, message_id: str) -> None:
        await self._write("DELETE FROM mail_seen WHERE message_id = ?", (message_id,))

    async def settle(self, message_id: str, game_id: int | None, user_id: int | None,
                     outcome: str) -> None:
        await self._write("UPDATE mail_seen SET game_id = ?, user_id = ?, outcome = ?"
                          " WHERE message_id = ?", (game_id, user_id, outcome, message_id))

    async def outcome(self, message_id: str) -> str | None:
        rows = await self._rows("SELECT outcome FROM mail_seen WHERE message_id = ?",
                                (message_id,))
        return str(rows[0][0]) if rows else None

    async def sent(self, message_id: str, game_id: int | None, user_id: int | None,
                   stamp: int | None, kind: str, address: str, status: str, error: str | None,
                   now: float) -> None:
        await self._write(
            "INSERT INTO mail_sent (message_id, game_id, user_id, stamp, kind,"
            " address, status, error, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (message_id) DO UPDATE SET game_id = excluded.game_id,"
            " user_id = excluded.user_id, stamp = excluded.stamp, kind = excluded.kind,"
            " address = excluded.address, status = excluded.status, error = excluded.error,"
            " at = excluded.at",
            (message_id, game_id, user_id, stamp, kind, address, status, error, now))

    async def sent_mail(self, message_id: str) -> tuple[int | None, int | None, str] | None:
        rows = await self._rows("SELECT game_id, user_id, kind FROM mail_sent WHERE message_id = ?",
                                (message_id,))
        return (rows[0][0], rows[0][1], str(rows[0][2])) if rows else None

    async def mark_bounced(self, message_id: str, why: str) -> bool:
        cur = await self._write("UPDATE mail_sent SET status = 'bounced', error = ?"
                                " WHERE message_id = ?", (why, message_id))
        return bool(cur.rowcount)

    async def failures(self, game_id: int) -> list[tuple[int, str, str]]:
        rows = await self._rows("SELECT user_id, status, COALESCE(error, '') FROM mail_sent"
                                " WHERE game_id = ? AND status != 'sent'", (game_id,))
        return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]
