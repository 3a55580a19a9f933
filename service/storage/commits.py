"""Shared commits: appends that arrive together are stored by one statement, in one
transaction with one commit, and each is answered only once that commit is done.

A commit costs the database a flush of its write-ahead log and the client a round
trip; under load most of an append is that cost, so sharing it lets more appends
through. Nobody waits for company: an append that finds a batch free is sent at once,
alone if it is alone, and appends arriving while batches are in flight queue up for
the next one.

Each move keeps its own outcome. The statement skips a row whose version or
idempotency key is already taken (ON CONFLICT DO NOTHING) and the others go in: the
caller learns that its row was not stored and finds out why, as before. A row the
database refuses outright (a game that does not exist, a value jsonb rejects) fails
the statement, and so undoes all of it; the batch's moves are then sent again one by
one, so that the refusal reaches only its own move. When the batch itself fails (its
connection lost, the database gone), every move of it gets a CommitFailed: nothing of
it is known to be stored.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

__all__ = ["CommitFailed", "Inserted", "NewEvent", "SharedCommits"]

# The most moves one commit stores. A batch forms only from moves already waiting, so
# the limit bounds what one failed commit can take down and how long the statement
# holds its rows' keys, not how long anyone waits.
MOST_PER_COMMIT = 64
# Batches in flight at once, each on a pool connection of its own: while one commits,
# the next gathers the moves that arrive meanwhile and goes as soon as a batch is free.
# One would leave the database idle during every round trip; with many, each batch
# would hold only a move or two and the commits would not be shared.
BATCHES_AT_ONCE = 2


@functools.cache
def _insert_events(rows: int) -> str:
    """The INSERT of `rows` rows, taken in the order given: the positions of one
    commit follow the order its moves were taken in. A row whose version or
    idempotency key is taken already, by a committed row or by an earlier row of this
    very statement, is skipped; RETURNING names the rows stored. (One text per count
    of rows, each prepared by psycopg once used often: a multi-row VALUES measured
    faster than one statement over unnest() of arrays.)"""
    row = "(%s, %s, %s, %s::jsonb, %s, %s)"
    return (
        "INSERT INTO events"
        " (game_id, version, type, data, idempotency_key, request_hash)"
        f" VALUES {', '.join([row] * rows)}"
        " ON CONFLICT DO NOTHING"
        " RETURNING game_id, version, position, recorded_at"
    )


@dataclass(frozen=True, slots=True)
class NewEvent:
    """A move's row as the caller asks for it (`data`: its JSON text)."""

    game_id: UUID
    version: int
    type: str
    data: str
    idempotency_key: str | None = None
    request_hash: bytes | None = None


@dataclass(frozen=True, slots=True)
class Inserted:
    """What the database adds to a stored row."""

    position: int
    recorded_at: datetime


class CommitFailed(Exception):
    """The commit a move shared failed: none of its moves is known to be stored."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"the commit failed: {reason}")
        self.reason = reason


@dataclass(slots=True)
class _Waiting:
    event: NewEvent
    answer: asyncio.Future[Inserted | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def settle(self, outcome: Inserted | BaseException | None) -> None:
        # A caller that gave up (its request cancelled) is owed nothing.
        if self.answer.done():
            return
        if isinstance(outcome, BaseException):
            self.answer.set_exception(outcome)
        else:
            self.answer.set_result(outcome)


class SharedCommits:
    """The store's way in for appends: a queue, drained by up to `at_once` batches."""

    def __init__(
        self,
        pool: AsyncConnectionPool,
        most: int = MOST_PER_COMMIT,
        at_once: int = BATCHES_AT_ONCE,
    ) -> None:
        self._pool = pool
        self._most = most
        self._at_once = at_once
        self._waiting: deque[_Waiting] = deque()
        self._draining = 0
        self._committing = 0
        self._drains: set[asyncio.Task[None]] = set()

    async def insert(self, event: NewEvent) -> Inserted | None:
        """Store the row, committed, with whatever else is waiting; None when its
        version or its idempotency key was taken (by a committed row or one stored
        before it in the same commit). The database's refusal of this row (a missing
        game, a value it rejects) is raised as psycopg raises it; CommitFailed when
        the commit it shared failed."""
        waiting = _Waiting(event)
        self._waiting.append(waiting)
        if self._draining < self._at_once:
            self._draining += 1
            drain = asyncio.create_task(self._drain())
            self._drains.add(drain)
            drain.add_done_callback(self._drains.discard)
        return await waiting.answer

    async def _drain(self) -> None:
        try:
            while batch := self._take():
                self._committing += 1
                try:
                    await self._commit(batch)
                finally:
                    self._committing -= 1
        finally:
            self._draining -= 1

    def _take(self) -> list[_Waiting]:
        # The waiting moves are shared with the other batches about to go.
        free = self._draining - self._committing
        share = min(self._most, -(-len(self._waiting) // free))
        batch: list[_Waiting] = []
        while self._waiting and len(batch) < share:
            waiting = self._waiting.popleft()
            if not waiting.answer.done():
                batch.append(waiting)
        return batch

    async def _commit(self, batch: list[_Waiting]) -> None:
        try:
            outcomes = await self._store(batch)
        except BaseException as error:
            _fail(batch, error)
            if not isinstance(error, Exception):
                raise
            return
        if not isinstance(outcomes, psycopg.Error):
            for waiting, outcome in zip(batch, outcomes, strict=True):
                waiting.settle(outcome)
        elif len(batch) == 1:
            batch[0].settle(outcomes)
        else:
            # The database refused the statement, so stored none of it: send each
            # move alone to learn which move the refusal was about.
            for waiting in batch:
                await self._commit([waiting])

    async def _store(
        self, batch: list[_Waiting]
    ) -> list[Inserted | None] | psycopg.Error:
        """The batch's outcomes, or the error its statement was refused with. An
        error that broke the connection is raised instead: the statement may or may
        not have committed before it."""
        async with self._pool.connection() as conn:
            try:
                return await _insert(conn, [waiting.event for waiting in batch])
            except psycopg.Error as error:
                if conn.broken:
                    raise
                await conn.rollback()  # outside autocommit, end the failed transaction
                return error


async def _insert(
    conn: AsyncConnection, events: list[NewEvent]
) -> list[Inserted | None]:
    """One INSERT of the rows, in autocommit its own transaction; each row as stored,
    or None. Only the first row of a game's version goes into the statement: a later
    one could not be told apart from it in what RETURNING gives back, and is not
    stored whatever becomes of the first (its version is taken either way)."""
    first: dict[tuple[UUID, int], NewEvent] = {}
    for event in events:
        first.setdefault(_key(event), event)
    cursor = await conn.execute(
        _insert_events(len(first)),
        [
            value
            for e in first.values()
            for value in (
                e.game_id,
                e.version,
                e.type,
                e.data,
                e.idempotency_key,
                e.request_hash,
            )
        ],
    )
    stored = {
        (game_id, version): Inserted(position, recorded_at)
        for game_id, version, position, recorded_at in await cursor.fetchall()
    }
    return [
        stored.get(_key(event)) if first[_key(event)] is event else None
        for event in events
    ]


def _key(event: NewEvent) -> tuple[UUID, int]:
    return event.game_id, event.version


def _fail(batch: list[_Waiting], error: BaseException) -> None:
    for waiting in batch:
        failed = CommitFailed(str(error) or type(error).__name__)
        failed.__cause__ = error
        waiting.settle(failed)
