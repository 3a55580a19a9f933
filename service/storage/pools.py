"""The connection pools of a process: the primary's, which takes every write, and
the read replicas' when `database_read_url` names them. Each is made here, not yet
open; `opened` opens both and closes them at the end."""

from __future__ import annotations

import asyncio
import select
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from service.settings import Settings

# What a database that does not answer raises: the connection lost or refused, or no
# connection to be had from the pool in time.
UNAVAILABLE: tuple[type[Exception], ...] = (psycopg.OperationalError, PoolTimeout)


@dataclass(frozen=True, slots=True)
class Pools:
    """The primary's pool, and the read replicas' (None: the reads go to the
    primary)."""

    primary: AsyncConnectionPool
    replicas: AsyncConnectionPool | None = None

    @property
    def reads(self) -> AsyncConnectionPool:
        """The pool the reads that decide nothing go to."""
        return self.replicas or self.primary

    @property
    def each(self) -> tuple[AsyncConnectionPool, ...]:
        return (self.primary, *([self.replicas] if self.replicas else []))


class Recorder:
    """What each part of the event store stands on: the primary's pool, which takes
    every write, and the pool the reads that decide nothing go to (`reads`, the
    read replicas'; the primary's when None)."""

    def __init__(
        self, pool: AsyncConnectionPool, reads: AsyncConnectionPool | None = None
    ) -> None:
        self._pool = pool
        self._reads = reads or pool

    @property
    def pool(self) -> AsyncConnectionPool:
        return self._pool


@asynccontextmanager
async def opened(settings: Settings) -> AsyncIterator[Pools]:
    """The process's pools, open (their connections are made in the background);
    closed at the end, the primary's first."""
    pools = Pools(connection_pool(settings), read_pool(settings))
    try:
        for pool in pools.each:
            await pool.open()
        yield pools
    finally:
        for pool in pools.each:
            await pool.close()


def connection_pool(settings: Settings) -> AsyncConnectionPool:
    """The service's pool, not yet open. A request waits at most 5 s for a
    connection, then answers 503 rather than hanging while the database is down.

    Connections are in autocommit: a batch of appends is one INSERT, its own
    transaction, in one round trip; work of several statements opens
    `conn.transaction()` itself.

    With read replicas, a write's commit waits until the synchronous standbys have
    applied it (`remote_apply`, set per session): whatever a client was answered is
    then already visible on them, so its next read on a replica sees its write.
    """
    configure = _apply_on_standbys if settings.database_read_url else None
    return _pool(settings.database_url, settings, configure)


def read_pool(settings: Settings) -> AsyncConnectionPool | None:
    """The pool of the read replicas (`database_read_url`), not yet open; None
    when the reads go to the primary."""
    if settings.database_read_url is None:
        return None
    return _pool(settings.database_read_url, settings, None)


def _pool(
    conninfo: str,
    settings: Settings,
    configure: Callable[[AsyncConnection], Any] | None,
) -> AsyncConnectionPool:
    return AsyncConnectionPool(
        conninfo,
        min_size=settings.pool_min_size,
        max_size=settings.pool_max_size,
        timeout=5,
        kwargs={"autocommit": True},
        check=_check_if_closed,
        configure=configure,
        open=False,
    )


async def _check_if_closed(conn: AsyncConnection) -> None:
    """The pool's check of a connection as it leaves the pool.

    When the primary dies (or restarts, or is demoted) every idle connection is dead
    too: unchecked, each would fail one request before the pool replaced it. An idle
    connection has nothing to read unless the server closed it or wrote to it, so
    its socket is polled, which costs no round trip; only a connection with
    something to read gets the library's check, an empty query, which raises if it
    is dead (the pool then drops it and takes another). An empty query on every
    checkout cost appends 12 to 40 % of their rate on the bench. A host that vanishes
    without closing its connections is caught by the connection's own timeouts
    (`tcp_user_timeout` in the conninfo), as any query would be.
    """
    readable = select.poll()
    readable.register(conn.fileno(), select.POLLIN)
    if readable.poll(0):
        await AsyncConnectionPool.check_connection(conn)


async def _apply_on_standbys(conn: AsyncConnection) -> None:
    await conn.execute("SET synchronous_commit TO remote_apply")


async def ping(pool: AsyncConnectionPool, within: float | None = None) -> None:
    """Raise unless the database answers, within `within` seconds when given
    (PoolTimeout when it does not, as when the pool found no connection)."""
    try:
        async with (
            asyncio.timeout(within),
            pool.connection(timeout=within) as conn,
        ):
            await conn.execute("SELECT 1")
    except TimeoutError as error:
        raise PoolTimeout(f"the database did not answer in {within} s") from error
