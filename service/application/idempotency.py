"""Idempotency keys: a retried move with the same key and body gets its first answer
back and stores nothing more; the same key with another body is refused.

The fingerprint of a request is the SHA-256 of its body as decoded (so formatting and
key order do not matter); it is stored beside the move under the key.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

import msgspec

from service.application.errors import Invalid


@dataclass(frozen=True, slots=True)
class Idempotency:
    key: str
    fingerprint: bytes

    @classmethod
    def of(cls, key: str | None, body: Any) -> Idempotency | None:
        """The request's key and fingerprint; None for a request without a key."""
        if key is None:
            return None
        # Maps by their keys, however the request ordered them.
        decoded = msgspec.json.encode(body, order="deterministic")
        return cls(key, hashlib.sha256(decoded).digest())

    def check(self, stored_fingerprint: bytes | None) -> None:
        """Refuse a key that was first used for another request."""
        if stored_fingerprint is None or not hmac.compare_digest(
            stored_fingerprint, self.fingerprint
        ):
            raise Invalid(
                "This Idempotency-Key was already used for another request: "
                "use a new key for a new move."
            )
