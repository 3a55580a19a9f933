"""The projection runner: keeps the read models (`game_summaries`) by folding the
global log, and remembers how far it got in `projection_checkpoints`.

Each batch runs in one transaction that locks the checkpoint row, so runners in
several processes take turns and a batch is folded exactly once; the log is read in
commit-safe order (EventStore.read_all), so no event that commits late is skipped.

A game the runner cannot fold (a stored row today's engine refuses, a bug) is set
aside in `projection_failures`, with the version and the error, and logged: the
checkpoint moves on and every other game keeps reaching the list. A game set aside is
tried again on its next event and every RETRY_SECONDS (so a restart with a fix
catches it up); once it folds, its row is deleted.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress
from datetime import datetime
from uuid import UUID

import msgspec
import psycopg
import psycopg_pool
from psycopg import AsyncConnection

from domain.history import History
from service.application.games import Games
from service.storage.store import GameRow, GlobalPosition, StoredEvent

log = logging.getLogger(__name__)

NAME = "game_summaries"
BATCH = 500
SETTLE_SECONDS = 0.05
RETRY_SECONDS = 30.0

_UPSERT = """
    INSERT INTO game_summaries AS s
        (game_id, game, players, title, status, winners, version, created_at,
         updated_at)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
    ON CONFLICT (game_id) DO UPDATE SET
        status = excluded.status, winners = excluded.winners,
        version = excluded.version, updated_at = excluded.updated_at
    WHERE s.version < excluded.version
"""


_SET_ASIDE = """
    INSERT INTO projection_failures AS f (game_id, version, error)
    VALUES (%s, %s, %s)
    ON CONFLICT (game_id) DO UPDATE SET
        version = excluded.version, error = excluded.error,
        attempts = f.attempts + 1, retried_at = now()
"""

# Errors that say the database is away, not that a game cannot be folded: the whole
# batch is tried again later rather than any game set aside.
_UNAVAILABLE = (psycopg.OperationalError, psycopg_pool.PoolTimeout)


class SetAside(msgspec.Struct, kw_only=True):
    """A game the projection runner could not fold: the version it stopped at and
    the error, when it first failed and how often it was tried."""

    game_id: UUID
    version: int
    error: str
    attempts: int
    failed_at: datetime
    retried_at: datetime


class Projector:
    def __init__(self, pool: psycopg_pool.AsyncConnectionPool, games: Games) -> None:
        self._pool = pool
        self._games = games
        self._wake = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    async def catch_up(self) -> int:
        """Fold every event not yet folded; how many there were."""
        folded = 0
        while True:
            async with self._pool.connection() as conn, conn.transaction():
                count = await self._fold_batch(conn)
            folded += count
            if count < BATCH:
                return folded

    async def rebuild(self) -> int:
        """Empty the read models and fold the whole log again, in one transaction."""
        async with self._pool.connection() as conn, conn.transaction():
            await _lock_checkpoint(conn)
            await conn.execute("DELETE FROM game_summaries")
            await conn.execute("DELETE FROM projection_failures")
            await _save_checkpoint(conn, GlobalPosition(0, 0))
            folded = 0
            while count := await self._fold_batch(conn):
                folded += count
        return folded

    async def retry(self) -> int:
        """Try every game set aside again; how many now fold."""
        async with self._pool.connection() as conn, conn.transaction():
            await _lock_checkpoint(conn)
            cursor = await conn.execute(
                "SELECT game_id, version FROM projection_failures ORDER BY failed_at"
            )
            failed = await cursor.fetchall()
            folded = 0
            for game_id, version in failed:
                events = await self._games.store.read(game_id, version - 1, 1)
                if events:
                    folded += await self._fold_game(conn, events[0], {game_id})
        return folded

    async def run(self, poll_seconds: float = 1.0) -> None:
        """Keep the read models current until cancelled."""
        retried = -RETRY_SECONDS
        while True:
            try:
                if asyncio.get_running_loop().time() - retried >= RETRY_SECONDS:
                    await self.retry()
                    retried = asyncio.get_running_loop().time()
                await self.catch_up()
            except _UNAVAILABLE as error:
                log.warning("projector: database unavailable (%s)", error)
            except Exception:
                # Games that cannot be folded are set aside, one by one: what is left
                # is a fault of the runner itself. The checkpoint stays, it retries.
                log.exception("projector: folding the log failed; retrying")
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), poll_seconds)
                # Let a burst of appends gather: one batch folds them all, and the
                # read models are no less current to anyone reading a list.
                await asyncio.sleep(SETTLE_SECONDS)
            self._wake.clear()

    async def _fold_batch(self, conn: AsyncConnection) -> int:
        checkpoint = await _lock_checkpoint(conn)
        batch = await self._games.store.read_all(checkpoint, BATCH)
        if not batch:
            return 0
        latest: dict = {}
        for _, event in batch:
            latest[event.game_id] = event
        set_aside = await _set_aside_ids(conn)
        for event in latest.values():
            await self._fold_game(conn, event, set_aside)
        await _save_checkpoint(conn, batch[-1][0])
        return len(batch)

    async def _fold_game(
        self, conn: AsyncConnection, event: StoredEvent, set_aside: set[UUID]
    ) -> int:
        """Fold one game up to `event`: 1 if it folded, 0 if it was set aside."""
        try:
            # A savepoint: a statement that fails here undoes this game's work
            # only, and the batch's transaction goes on.
            async with conn.transaction():
                await self._summarise(conn, event)
        except _UNAVAILABLE:
            raise
        except Exception as error:
            await self._set_aside(conn, event, error, again=event.game_id in set_aside)
            return 0
        if event.game_id in set_aside:
            await conn.execute(
                "DELETE FROM projection_failures WHERE game_id = %s", (event.game_id,)
            )
            log.warning(
                "projector: game %s folds again (version %s): no longer set aside",
                event.game_id,
                event.version,
            )
        return 1

    async def _set_aside(
        self, conn: AsyncConnection, event: StoredEvent, error: Exception, again: bool
    ) -> None:
        reason = f"{type(error).__name__}: {error}"[:2000]
        await conn.execute(_SET_ASIDE, (event.game_id, event.version, reason))
        if again:
            log.info("projector: game %s still cannot be folded", event.game_id)
        else:
            log.error(
                "projector: game %s cannot be folded at version %s; set aside in"
                " projection_failures, the other games go on: %s",
                event.game_id,
                event.version,
                reason,
                exc_info=error,
            )

    async def _summarise(self, conn: AsyncConnection, event: StoredEvent) -> None:
        timeline = await self._games.timeline(event.game_id)
        history = timeline.at(event.version)
        await conn.execute(_UPSERT, _summary(timeline.row, history, event.recorded_at))

    async def summarise_now(
        self, row: GameRow, history: History, recorded_at: datetime
    ) -> None:
        """Write one game's summary ahead of the runner (read your writes). The
        runner's own upsert of that version later changes nothing: a summary only
        ever moves forward. A failure is left to the runner, which catches up."""
        try:
            async with self._pool.connection() as conn:
                await conn.execute(_UPSERT, _summary(row, history, recorded_at))
        except _UNAVAILABLE as error:
            log.warning(
                "projector: summary of %s left to the runner (%s)", row.id, error
            )


def _summary(row: GameRow, history: History, recorded_at: datetime) -> tuple:
    """The `_UPSERT` parameters of a game as it stands in `history`."""
    return (
        row.id,
        row.game,
        list(row.players),
        row.title,
        history.status,
        list(history.winners or ()),
        history.version,
        row.created_at,
        recorded_at,
    )


async def set_aside(pool: psycopg_pool.AsyncConnectionPool) -> list[SetAside]:
    """The games the runner could not fold, oldest failure first."""
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT game_id, version, error, attempts, failed_at, retried_at"
            " FROM projection_failures ORDER BY failed_at, game_id"
        )
        rows = await cursor.fetchall()
    names = SetAside.__struct_fields__
    return [SetAside(**dict(zip(names, row, strict=True))) for row in rows]


async def _set_aside_ids(conn: AsyncConnection) -> set[UUID]:
    cursor = await conn.execute("SELECT game_id FROM projection_failures")
    return {game_id for (game_id,) in await cursor.fetchall()}


async def _lock_checkpoint(conn: AsyncConnection) -> GlobalPosition:
    cursor = await conn.execute(
        "SELECT transaction, position FROM projection_checkpoints"
        " WHERE name = %s FOR UPDATE",
        (NAME,),
    )
    transaction, position = await cursor.fetchone()
    return GlobalPosition(transaction, position)


async def _save_checkpoint(conn: AsyncConnection, position: GlobalPosition) -> None:
    await conn.execute(
        "UPDATE projection_checkpoints SET transaction = %s, position = %s"
        " WHERE name = %s",
        (position.transaction, position.position, NAME),
    )
