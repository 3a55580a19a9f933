"""The projection runner: keeps the read models (`game_summaries`) by folding the
global log, and remembers how far it got in `projection_checkpoints`.

Each batch runs in one transaction that locks the checkpoint row, so runners in
several processes take turns and a batch is folded exactly once; the log is read in
commit-safe order (EventStore.read_all), so no event that commits late is skipped.
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import suppress

import psycopg
import psycopg_pool
from psycopg import AsyncConnection

from service.application.games import Games
from service.storage.store import GlobalPosition, StoredEvent

log = logging.getLogger(__name__)

NAME = "game_summaries"
BATCH = 500
SETTLE_SECONDS = 0.05

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
            await _save_checkpoint(conn, GlobalPosition(0, 0))
            folded = 0
            while count := await self._fold_batch(conn):
                folded += count
        return folded

    async def run(self, poll_seconds: float = 1.0) -> None:
        """Keep the read models current until cancelled."""
        while True:
            try:
                await self.catch_up()
            except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as error:
                log.warning("projector: database unavailable (%s)", error)
            except Exception:
                # An event it cannot fold must not take the service down with it:
                # the checkpoint stays before it, and the runner tries again.
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
        for event in latest.values():
            await self._summarise(conn, event)
        await _save_checkpoint(conn, batch[-1][0])
        return len(batch)

    async def _summarise(self, conn: AsyncConnection, event: StoredEvent) -> None:
        timeline = await self._games.timeline(event.game_id)
        history = timeline.at(event.version)
        row = timeline.row
        winners = history.winners
        await conn.execute(
            _UPSERT,
            (
                row.id,
                row.game,
                list(row.players),
                row.title,
                history.status,
                list(winners or ()),
                event.version,
                row.created_at,
                event.recorded_at,
            ),
        )


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
