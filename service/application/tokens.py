"""Write tokens: shown once when a game is created, checked on every write.

Only a token's SHA-256 is stored. Tokens are 192 random bits, so a plain hash is
enough: no salt or stretching. The comparison takes constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from domain.wording import message
from service.application.errors import TokenMissing, TokenWrong

# How every key begins (`tl_` an app's, `tlg_` a group's): a bearer credential is
# read as a key or a token by its prefix, so no token begins so (one in 4,096 would
# otherwise).
KEYS_BEGIN = "tl"


def new_token() -> tuple[str, bytes]:
    """A new write token and the hash to store, never one that begins as a key."""
    token = secrets.token_urlsafe(24)
    while token.startswith(KEYS_BEGIN):
        token = secrets.token_urlsafe(24)
    return token, token_hash(token)


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def check_bearer(authorization: str | None, stored_hash: bytes) -> None:
    """Accept an `Authorization: Bearer <token>` header carrying the game's token."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenMissing(message("token.missing"))
    if not hmac.compare_digest(token_hash(token.strip()), stored_hash):
        raise TokenWrong(message("token.wrong"))
