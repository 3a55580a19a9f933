"""Whether a database can serve this release: it answers, it is the primary when
it must take writes, and its migrations are exactly the ones this release ships (a
database behind would refuse today's statements, one ahead was migrated by a newer
release whose tables this one does not know)."""

from __future__ import annotations

import logging

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from service.storage.migrate import migration_files

log = logging.getLogger(__name__)


async def unready(pool: AsyncConnectionPool, *, writes: bool) -> list[str]:
    """What keeps the database behind `pool` from serving, in sentences; none when
    it is ready. `writes`: it must be the primary, not a read-only replica."""
    try:
        async with pool.connection() as conn:
            cursor = await conn.execute("SELECT pg_is_in_recovery()")
            (replica,) = await cursor.fetchone()
            cursor = await conn.execute("SELECT name FROM schema_migrations")
            applied = {name for (name,) in await cursor.fetchall()}
    except (psycopg.OperationalError, PoolTimeout) as error:
        # The reason stays in the log: it may name hosts and roles.
        log.warning("readiness: the database does not answer (%s)", error)
        return ["The database does not answer."]
    reasons = []
    if writes and replica:
        reasons.append(
            "The database is a read-only replica, not the primary: moves cannot be "
            "stored."
        )
    shipped = {file.name for file in migration_files()}
    if missing := sorted(shipped - applied):
        reasons.append(f"Migrations not applied yet: {', '.join(missing)}.")
    if unknown := sorted(applied - shipped):
        reasons.append(
            f"The database has migrations this release does not know: "
            f"{', '.join(unknown)} (a newer release migrated it)."
        )
    return reasons
