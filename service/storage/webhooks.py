"""Webhook endpoints as stored (migration 0017): each endpoint's row, its secrets,
its switches off and on, the attempts to deliver to it, all appended; and its
checkpoint in the global log, the one row that moves."""

from __future__ import annotations

from dataclasses import astuple, dataclass, field
from datetime import datetime
from uuid import UUID

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from service.storage.global_log import GlobalPosition

_ENDPOINT = """
    SELECT e.id, e.app_key, e.url, e.kinds, e.game_id, e.game, e.group_name,
           e.created_at,
           coalesce(s.enabled, true) AND NOT EXISTS (
               SELECT FROM app_key_revocations r WHERE r.key_id = e.app_key),
           s.reason, s.at,
           (SELECT g.name FROM app_keys k JOIN groups g ON g.id = k.group_id
            WHERE k.id = e.app_key)
    FROM webhook_endpoints e
    LEFT JOIN LATERAL (SELECT enabled, reason, at FROM webhook_switches w
                       WHERE w.endpoint_id = e.id ORDER BY at DESC LIMIT 1) s ON true
"""

# Each secret as its newest row says, if it has not ended.
_IN_FORCE = """
    SELECT secret, expires_at FROM (
        SELECT DISTINCT ON (secret) secret, created_at, expires_at
        FROM webhook_secrets WHERE endpoint_id = %s
        ORDER BY secret, created_at DESC) s
    WHERE expires_at IS NULL OR expires_at > now()
    ORDER BY created_at DESC
"""


@dataclass(frozen=True, slots=True)
class EndpointRow:
    id: UUID
    app_key: UUID
    url: str
    kinds: tuple[str, ...]
    game_id: UUID | None
    game: str | None
    group: str | None
    created_at: datetime
    # Switched on, and its key not revoked.
    enabled: bool
    # Why it was last switched off or on, and when (None: never switched).
    reason: str | None
    switched_at: datetime | None
    # The group its app key was made for (None: none): it is told of that group's
    # games whoever sees them, and of public games only beside them.
    key_group: str | None = None


@dataclass(frozen=True, slots=True)
class NewAttempt:
    """An attempt to deliver a message: `status` what the endpoint answered (None:
    no answer, `error` says why)."""

    endpoint_id: UUID
    message_id: str
    kind: str
    game_id: UUID
    version: int
    attempt: int
    status: int | None
    error: str | None
    milliseconds: int
    by_hand: bool = False


@dataclass(frozen=True, slots=True)
class AttemptRow(NewAttempt):
    """An attempt as stored: with its number among all attempts, and its time."""

    id: int = field(kw_only=True)
    at: datetime = field(kw_only=True)


_ATTEMPTS = (
    "SELECT endpoint_id, message_id, kind, game_id, version, attempt, status, error,"
    " milliseconds, by_hand, id, at FROM webhook_attempts WHERE endpoint_id = %s"
)


def _attempt(row: tuple) -> AttemptRow:
    *fields, id, at = row
    return AttemptRow(*fields, id=id, at=at)


class WebhookStore:
    def __init__(self, pool: AsyncConnectionPool) -> None:
        self._pool = pool

    async def add(
        self, row: EndpointRow, secret: str, start: GlobalPosition
    ) -> EndpointRow:
        """The endpoint, its first secret, and its checkpoint at `start`: it is told
        of what is stored after it was registered."""
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO webhook_endpoints"
                " (id, app_key, url, kinds, game_id, game, group_name)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (
                    row.id,
                    row.app_key,
                    row.url,
                    list(row.kinds),
                    row.game_id,
                    row.game,
                    row.group,
                ),
            )
            await conn.execute(
                "INSERT INTO webhook_secrets (endpoint_id, secret) VALUES (%s, %s)",
                (row.id, secret),
            )
            await conn.execute(
                "INSERT INTO webhook_checkpoints (endpoint_id, transaction, position)"
                " VALUES (%s, %s, %s)",
                (row.id, start.transaction, start.position),
            )
        found = await self.get(row.id)
        assert found is not None
        return found

    async def get(self, id: UUID) -> EndpointRow | None:
        rows = await self._endpoints("WHERE e.id = %s", id)
        return rows[0] if rows else None

    async def of_key(self, app_key: UUID) -> list[EndpointRow]:
        return await self._endpoints(
            "WHERE e.app_key = %s ORDER BY e.created_at", app_key
        )

    async def enabled(self) -> list[EndpointRow]:
        """Every endpoint switched on whose key is not revoked."""
        return [row for row in await self._endpoints("") if row.enabled]

    async def _endpoints(self, where: str, *params: object) -> list[EndpointRow]:
        async with self._pool.connection() as conn:
            cursor = await conn.execute(f"{_ENDPOINT} {where}", params)
            rows = await cursor.fetchall()
        return [EndpointRow(*row[:3], tuple(row[3]), *row[4:]) for row in rows]

    async def secrets(self, id: UUID) -> list[str]:
        """The secrets that sign now, the newest first."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(_IN_FORCE, (id,))
            return [secret for secret, _ in await cursor.fetchall()]

    async def rotate(self, id: UUID, secret: str, overlap_seconds: float) -> None:
        """`secret` signs from now on; those that signed until now keep signing for
        `overlap_seconds`. Rows are never changed: a secret's newest row says when
        it ends, so each one in force is written again with its end."""
        async with self._pool.connection() as conn, conn.transaction():
            cursor = await conn.execute(_IN_FORCE, (id,))
            for old, expires_at in await cursor.fetchall():
                await conn.execute(
                    "INSERT INTO webhook_secrets (endpoint_id, secret, expires_at)"
                    " VALUES (%s, %s, least(coalesce(%s, 'infinity'::timestamptz),"
                    "                       now() + make_interval(secs => %s)))",
                    (id, old, expires_at, overlap_seconds),
                )
            await conn.execute(
                "INSERT INTO webhook_secrets (endpoint_id, secret) VALUES (%s, %s)",
                (id, secret),
            )

    async def switch(self, id: UUID, enabled: bool, reason: str) -> None:
        async with self._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO webhook_switches (endpoint_id, enabled, reason)"
                " VALUES (%s, %s, %s)",
                (id, enabled, reason),
            )

    async def record(
        self, id: UUID, attempts: list[NewAttempt], done: GlobalPosition | None
    ) -> None:
        """The attempts made, and the endpoint's checkpoint moved to `done` (None:
        kept), in one transaction."""
        if not attempts and done is None:
            return
        async with self._pool.connection() as conn, conn.transaction():
            if attempts:
                async with conn.cursor() as cursor:
                    await cursor.executemany(
                        "INSERT INTO webhook_attempts (endpoint_id, message_id, kind,"
                        " game_id, version, attempt, status, error, milliseconds,"
                        " by_hand) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                        [astuple(attempt) for attempt in attempts],
                    )
            if done is not None:
                await save_checkpoint(conn, id, done)

    async def attempts(self, id: UUID, limit: int) -> list[AttemptRow]:
        """The endpoint's latest attempts, the newest first."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"{_ATTEMPTS} ORDER BY id DESC LIMIT %s",
                (id, limit),
            )
            return [_attempt(row) for row in await cursor.fetchall()]

    async def attempt_by_id(self, id: UUID, attempt_id: int) -> AttemptRow | None:
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"{_ATTEMPTS} AND id = %s",
                (id, attempt_id),
            )
            row = await cursor.fetchone()
        return _attempt(row) if row else None

    async def attempts_made(
        self, id: UUID, message_ids: list[str], since: datetime | None
    ) -> dict[str, tuple[int, int]]:
        """How many attempts each of these messages has had (by the deliverer), for
        those that had any: in all, and `since` the endpoint was last switched (a
        switch on starts the retries afresh)."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT message_id, count(*),"
                " count(*) FILTER (WHERE at > coalesce(%s, '-infinity'::timestamptz))"
                " FROM webhook_attempts"
                " WHERE endpoint_id = %s AND message_id = ANY(%s) AND NOT by_hand"
                " GROUP BY message_id",
                (since, id, message_ids),
            )
            return {
                message: (made, lately)
                for message, made, lately in await cursor.fetchall()
            }


async def checkpoint(conn: AsyncConnection, id: UUID) -> GlobalPosition:
    cursor = await conn.execute(
        "SELECT transaction, position FROM webhook_checkpoints WHERE endpoint_id = %s",
        (id,),
    )
    transaction, position = await cursor.fetchone()
    return GlobalPosition(transaction, position)


async def save_checkpoint(
    conn: AsyncConnection, id: UUID, position: GlobalPosition
) -> None:
    await conn.execute(
        "UPDATE webhook_checkpoints SET transaction = %s, position = %s"
        " WHERE endpoint_id = %s",
        (position.transaction, position.position, id),
    )
