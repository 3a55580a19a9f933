"""Whether a database can serve this release: it answers, it is the primary when
it must take writes, and its migrations are exactly the ones this release ships (a
database behind would refuse today's statements, one ahead was migrated by a newer
release whose tables this one does not know).

A probe answers within PROBE_SECONDS whatever the database does: an orchestrator
asks often and gives up after a second or so, and a database that takes longer to
answer a probe is not ready to serve either."""

from __future__ import annotations

import asyncio
import logging

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from service.storage.migrate import migration_files

log = logging.getLogger(__name__)

# Seconds a probe waits for a connection and its two queries, all told.
PROBE_SECONDS = 0.8


async def unready(pool: AsyncConnectionPool, *, writes: bool) -> list[str]:
    """What keeps the database behind `pool` from serving, in sentences; none when
    it is ready. `writes`: it must be the primary, not a read-only replica."""
    try:
        async with asyncio.timeout(PROBE_SECONDS):
            replica, applied = await _asked(pool)
    except (psycopg.OperationalError, PoolTimeout, TimeoutError) as error:
        # The reason stays in the log: it may name hosts and roles.
        log.warning("readiness: the database does not answer (%r)", error)
        return ["The database does not answer."]
    except psycopg.errors.InsufficientPrivilege as error:
        log.warning("readiness: the serving role may not read (%s)", error)
        return [
            "The serving role may not read schema_migrations: apply the migrations "
            "(0012 grants it) as the tables' owner."
        ]
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


async def _asked(pool: AsyncConnectionPool) -> tuple[bool, set[str]]:
    """Whether the database is a replica, and the migrations it has."""
    async with pool.connection(timeout=PROBE_SECONDS) as conn:
        cursor = await conn.execute("SELECT pg_is_in_recovery()")
        (replica,) = await cursor.fetchone()
        cursor = await conn.execute("SELECT name FROM schema_migrations")
        return replica, {name for (name,) in await cursor.fetchall()}
