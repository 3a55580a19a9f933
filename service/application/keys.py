"""App keys: an app's own credential, made from the shell, checked on each request.

A key is `tl_` and 256 random bits (`secrets.token_urlsafe(32)`), shown once when it
is made (`Keys.create`); only its SHA-256 is stored (service/storage/keys.py). A
plain hash is right for a key drawn at random, as for the write tokens: salting and
stretching (bcrypt, scrypt, Argon2) slow down guesses of a secret people chose,
which a dictionary holds, and a guess at 2^256 keys fails however fast each one is.
An unsalted hash is also what lets a request's key be found by an index on its
hash, with no id sent beside it. The lookup's time says something of the stored
hashes, nothing of a key.

A request with a key acts as its app (`App`): its scopes bound what it may do,
`creations_per_minute` its rate, and a game it creates can be written with it. A
key made for a group (`tablelog keys create --group NAME`) creates its games in that
group, and may write every game of the group, as the group's own keys do.
`Keys.verify` looks the key up in the database on every call: no process keeps a
key in memory, so a revocation (a row of its own; nothing is updated) is refused by
every process from the next request on.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime

from psycopg_pool import AsyncConnectionPool

from domain.names import name_key
from service.application.errors import (
    Invalid,
    KeyNotAllowed,
    KeyRefused,
    KeyUnknown,
    NotFound,
)
from service.storage.keys import KeyRow, KeyStore

# What marks a bearer credential as an app key rather than a game's write token (a
# write token never begins with it: `tokens.new_token`).
PREFIX = "tl_"

# Each scope a key may hold, and what it lets the app do.
SCOPES = {
    "games:create": "create and import games",
    "moves:write": "log moves in the games it created",
    "read": "read games, lists and streams",
    "webhooks": "register webhook endpoints and read their deliveries",
}

NAME_LENGTH = 100


@dataclass(frozen=True, slots=True)
class App:
    """The app a request acts for: its key's id, name, scopes and creation rate
    (None: the service's `creations_per_minute`), and the name of the group it was
    made for (None: none) with that group's visibility for new games."""

    id: uuid.UUID
    name: str
    scopes: frozenset[str]
    creations_per_minute: int | None = None
    group: str | None = None
    group_visibility: str | None = None

    def require(self, scope: str) -> None:
        """KeyNotAllowed (403) unless the key holds `scope`."""
        if scope not in self.scopes:
            raise KeyNotAllowed(
                f"The app key '{self.name}' may not {SCOPES.get(scope, scope)}: it "
                f"lacks the scope '{scope}' (it holds "
                f"{', '.join(ordered(self.scopes)) or 'none'})."
            )

    def may_write(self, created_by: uuid.UUID | None, group: str | None) -> None:
        """KeyNotAllowed (403) unless the game was created with this key, or is of
        the group (named `group`) the key was made for."""
        if created_by == self.id or same_group(group, self.group):
            return
        raise KeyNotAllowed(
            f"The app key '{self.name}' did not create this game: write to it "
            "with the game's write token."
        )


@dataclass(frozen=True, slots=True)
class Key:
    """A key as `tablelog keys list` shows it: never the key itself."""

    id: uuid.UUID
    name: str
    scopes: tuple[str, ...]
    creations_per_minute: int | None
    created_at: datetime
    revoked_at: datetime | None
    group: str | None = None


def same_group(one: str | None, other: str | None) -> bool:
    """Whether two groups' names are one group's, as names are compared (a game
    of a group named before groups were owned may spell it otherwise)."""
    return one is not None and other is not None and name_key(one) == name_key(other)


def ordered(scopes: Iterable[str]) -> tuple[str, ...]:
    """The scopes among `scopes`, in the order `SCOPES` lists them."""
    held = set(scopes)
    return tuple(scope for scope in SCOPES if scope in held)


def is_app_key(credential: str) -> bool:
    return credential.startswith(PREFIX)


def key_hash(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


class Keys:
    """The app keys of one database, over `pool` (the primary's)."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self.store = KeyStore(pool)

    async def create(
        self,
        name: str,
        scopes: tuple[str, ...] | list[str],
        creations_per_minute: int | None = None,
        group_id: uuid.UUID | None = None,
    ) -> tuple[App, str]:
        """A new key for the app `name`: the app, and the key (shown this once);
        `group_id`: the group it is made for."""
        name = name.strip()
        if not 1 <= len(name) <= NAME_LENGTH or "\x00" in name:
            raise Invalid(f"An app's name is 1 to {NAME_LENGTH} characters.")
        unknown = sorted(set(scopes) - set(SCOPES))
        if unknown or not scopes:
            raise Invalid(
                f"Scopes are some of {', '.join(SCOPES)}, comma-separated"
                + (f"; not {', '.join(unknown)}." if unknown else ".")
            )
        if creations_per_minute is not None and creations_per_minute < 1:
            raise Invalid("A key's rate is at least 1 game a minute.")
        key = PREFIX + secrets.token_urlsafe(32)
        row = await self.store.add(
            uuid.uuid4(),
            name,
            ordered(scopes),
            creations_per_minute,
            key_hash(key),
            group_id,
        )
        return _app(row), key

    async def list(self) -> list[Key]:
        """Every key, revoked ones included, the oldest first."""
        return [_listed(row) for row in await self.store.all()]

    async def revoke(self, id: uuid.UUID) -> Key:
        """Revoke the key: from now on every request with it is refused. NotFound
        for no such key, Invalid for one revoked already."""
        if await self.store.get(id) is None:
            raise NotFound(f"There is no app key {id}.")
        if not await self.store.revoke(id):
            raise Invalid(f"The app key {id} was revoked already.")
        row = await self.store.get(id)
        assert row is not None
        return _listed(row)

    async def verify(self, key: str) -> App:
        """The app `key` stands for; KeyRefused (401) for a key no app holds or one
        revoked."""
        row = await self.store.by_hash(key_hash(key))
        if row is None:
            raise KeyUnknown("This app key is unknown: no app holds it.")
        if row.revoked_at is not None:
            revoked = row.revoked_at.astimezone(UTC)
            raise KeyRefused(
                f"The app key '{row.name}' was revoked on {revoked:%Y-%m-%d %H:%M} "
                "UTC: ask for a new one."
            )
        return _app(row)


def _app(row: KeyRow) -> App:
    return App(
        row.id,
        row.name,
        frozenset(row.scopes),
        row.creations_per_minute,
        row.group_name,
        row.group_visibility,
    )


def _listed(row: KeyRow) -> Key:
    return Key(
        row.id,
        row.name,
        row.scopes,
        row.creations_per_minute,
        row.created_at,
        row.revoked_at,
        row.group_name,
    )
