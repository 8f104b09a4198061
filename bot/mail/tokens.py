"""Signed reply addresses: a From header can be forged, so a mail is trusted only through the
address it was sent to. Each address carries an HMAC-SHA256 signature (80 bits, base32, lower
case: mail systems may change the case of a local part) over what it names, keyed by the
bot's secret, and each seat adds its own random nonce:

    move+<game>.<user>.<stamp>.<sig>@domain   a move mail for one seat at one position
    join+<game>.<invite>.<sig>@domain         the answer to one invitation
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

_ADDRESS = re.compile(r"^(move|join)\+([0-9a-z.]+)@(.+)$")


def new_nonce() -> str:
    return secrets.token_hex(8)


def _sig(secret: bytes, *parts: object) -> str:
    mac = hmac.new(secret, ":".join(str(p) for p in parts).encode(), hashlib.sha256).digest()
    return base64.b32encode(mac[:10]).decode().lower()


@dataclass(frozen=True, slots=True)
class Token:
    """What a reply address names (not yet checked against a seat or an invitation)."""

    kind: str  # "move" | "join"
    game_id: int
    ident: int  # the user id (move) or the invitation id (join)
    stamp: int | None  # move: the log's length the mail was sent at
    sig: str


class Signer:
    def __init__(self, secret: str, domain: str) -> None:
        if len(secret) < 16:
            raise ValueError("the mail secret must be at least 16 characters")
        self.secret = secret.encode()
        self.domain = domain.lower()

    def move_address(self, game_id: int, user_id: int, stamp: int, nonce: str) -> str:
        sig = _sig(self.secret, "move", game_id, user_id, stamp, nonce)
        return f"move+{game_id}.{user_id}.{stamp}.{sig}@{self.domain}"

    def join_address(self, game_id: int, invite_id: int, nonce: str) -> str:
        sig = _sig(self.secret, "join", game_id, invite_id, nonce)
        return f"join+{game_id}.{invite_id}.{sig}@{self.domain}"

    def read(self, address: str) -> Token | None:
        """The token an address carries (None: not one of ours, or malformed)."""
        m = _ADDRESS.match(address.strip().strip("<>").lower())
        if m is None or m.group(3) != self.domain:
            return None
        kind, parts = m.group(1), m.group(2).split(".")
        if not all(p.isdigit() and len(p) <= 18 for p in parts[:-1]) or not parts[-1]:
            return None
        if kind == "move" and len(parts) == 4:
            return Token(kind, int(parts[0]), int(parts[1]), int(parts[2]), parts[3])
        if kind == "join" and len(parts) == 3:
            return Token(kind, int(parts[0]), int(parts[1]), None, parts[2])
        return None

    def valid(self, token: Token, nonce: str) -> bool:
        """Whether the token was signed by this bot for the seat or invitation with `nonce`."""
        if token.kind == "move":
            want = _sig(self.secret, "move", token.game_id, token.ident, token.stamp, nonce)
        else:
            want = _sig(self.secret, "join", token.game_id, token.ident, nonce)
        return hmac.compare_digest(want, token.sig)
