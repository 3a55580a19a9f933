"""App keys as stored (migration 0016): a row per key, found by its hash, and a row
per revocation. Nothing here is ever updated or deleted."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from psycopg_pool import AsyncConnectionPool

from service.storage.groups import GROUP_VISIBILITY

_COLUMNS = (
    "k.id, k.name, k.scopes, k.creations_per_minute, k.created_at, r.revoked_at,"
    f" g.id, g.name, {GROUP_VISIBILITY}"
)
_KEYS = (
    "app_keys k LEFT JOIN app_key_revocations r ON r.key_id = k.id"
    " LEFT JOIN groups g ON g.id = k.group_id"
)


@dataclass(frozen=True, slots=True)
class KeyRow:
    id: UUID
    name: str
    scopes: tuple[str, ...]
    creations_per_minute: int | None
    created_at: datetime
    revoked_at: datetime | None
    # The group the key was made for (migration 0021), and its name; None for none.
    group_id: UUID | None = None
    group_name: str | None = None
    # That group's visibility for the games made in it now (migration 0022).
    group_visibility: str | None = None


class KeyStore:
    """The keys of one database, over `pool`: the primary's, so that a revocation
    committed there is seen by the next lookup of every process."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self._pool = pool

    async def add(
        self,
        id: UUID,
        name: str,
        scopes: tuple[str, ...],
        creations_per_minute: int | None,
        key_hash: bytes,
        group_id: UUID | None = None,
    ) -> KeyRow:
        async with self._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO app_keys"
                " (id, name, scopes, creations_per_minute, key_hash, group_id)"
                " VALUES (%s, %s, %s, %s, %s, %s)",
                (id, name, list(scopes), creations_per_minute, key_hash, group_id),
            )
        found = await self.get(id)
        assert found is not None
        return found

    async def by_hash(self, key_hash: bytes) -> KeyRow | None:
        """The key that hashes to `key_hash`, revoked or not; None if none does."""
        return await self._one("k.key_hash = %s", key_hash)

    async def get(self, id: UUID) -> KeyRow | None:
        return await self._one("k.id = %s", id)

    async def all(self) -> list[KeyRow]:
        """Every key, the oldest first."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_COLUMNS} FROM {_KEYS} ORDER BY k.created_at, k.id"
            )
            return [_key(row) for row in await cursor.fetchall()]

    async def revoke(self, id: UUID) -> bool:
        """Record the key's revocation; False if it was revoked already."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                "INSERT INTO app_key_revocations (key_id) VALUES (%s)"
                " ON CONFLICT (key_id) DO NOTHING",
                (id,),
            )
            return cursor.rowcount == 1

    async def _one(self, where: str, value: object) -> KeyRow | None:
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_COLUMNS} FROM {_KEYS} WHERE {where}", (value,)
            )
            row = await cursor.fetchone()
        return None if row is None else _key(row)


def _key(row: tuple) -> KeyRow:
    id_, name, scopes, per_minute, created_at, revoked_at, *group = row
    return KeyRow(id_, name, tuple(scopes), per_minute, created_at, revoked_at, *group)
