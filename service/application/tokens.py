"""Write tokens: shown once when a game is created, checked on every write.

Only a token's SHA-256 is stored. Tokens are 192 random bits (a game played again
under an Idempotency-Key gets 192 bits of an HMAC under its caller's credential,
`derived_token`, as hard to guess), so a plain hash is enough: no salt or
stretching. The comparison takes constant time.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import itertools
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


def derived_token(secret: str, purpose: str) -> tuple[str, bytes]:
    """A write token drawn from `secret` for `purpose`, and its hash: the same
    token each time for the same two, and as hard to guess as `secret` (an
    HMAC-SHA256 under it, cut to a random token's 192 bits); never one that begins
    as a key. What lets a retried request be given back a token the service
    never kept (`rematches.py`)."""
    for attempt in itertools.count():
        message = f"{purpose}\x00{attempt}".encode()
        digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
        token = base64.urlsafe_b64encode(digest[:24]).decode()
        if not token.startswith(KEYS_BEGIN):
            return token, token_hash(token)
    raise AssertionError("unreachable")  # itertools.count() never ends


def token_hash(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def check_bearer(authorization: str | None, stored_hash: bytes) -> None:
    """Accept an `Authorization: Bearer <token>` header carrying the game's token."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise TokenMissing(message("token.missing"))
    if not hmac.compare_digest(token_hash(token.strip()), stored_hash):
        raise TokenWrong(message("token.wrong"))
