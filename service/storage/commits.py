"""Shared commits: appends that arrive together are stored by one statement, in one
transaction with one commit, and each is answered only once that commit is done.

A commit costs the database a flush of its write-ahead log and the client a round
trip; under load most of an append is that cost, so sharing it lets more appends
through. Nobody waits for company: an append that finds a lane free is sent at once,
alone if it is alone, and appends arriving while every lane is committing queue up
for the next batch. An append that finds no lane at all (a lone writer, a quiet
moment) is sent from its caller's own task, a lane for that one commit: it pays no
queue, no task to wake and no wake-up back.

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
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime
from uuid import UUID

import psycopg
from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

__all__ = ["CommitFailed", "Inserted", "NewEvent", "SharedCommits", "may_be_stored"]

# The most moves one commit stores. A batch forms only from moves already waiting, so
# the limit bounds what one failed commit can take down and how long the statement
# holds its rows' keys, not how long anyone waits.
MOST_PER_COMMIT = 64
# Batches in flight at once (lanes), each on a pool connection of its own: moves that
# arrive while one batch commits go in a second one at once instead of waiting for the
# first. With many, each batch would hold only a move or two and the commits would
# not be shared (splitting 8 writers' moves into two batches measured slower than one).
BATCHES_AT_ONCE = 2
# Seconds a lane keeps its connection once nothing is waiting, for the next move to
# go without taking one from the pool again; it gives the connection back after.
LINGER_SECONDS = 0.05


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


# The INSERT of one row, as _insert_events(1) but for its RETURNING.
_INSERT_ONE = (
    "INSERT INTO events"
    " (game_id, version, type, data, idempotency_key, request_hash)"
    " VALUES (%s, %s, %s, %s::jsonb, %s, %s)"
    " ON CONFLICT DO NOTHING"
    " RETURNING position, recorded_at"
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


# Whether a row this task appended may be stored: set once the commit holding it
# was sent, whatever came of it, even when the task stopped waiting for it
# (cancelled: the server stopping). A row still queued when its task stops waiting
# is never sent (`_batch` skips it), so a task this leaves False stored nothing.
_may_be_stored: ContextVar[bool] = ContextVar("may_be_stored", default=False)


def may_be_stored() -> bool:
    """Whether a row appended by the current task may be stored, as far as this
    task knows: its commit was sent. False: none of its rows is, or ever will be."""
    return _may_be_stored.get()


@dataclass(slots=True)
class _Waiting:
    event: NewEvent
    answer: asyncio.Future[Inserted | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )
    sent: bool = False

    def settle(self, outcome: Inserted | BaseException | None) -> None:
        # A caller that gave up (its request cancelled) is owed nothing.
        if self.answer.done():
            return
        if isinstance(outcome, BaseException):
            self.answer.set_exception(outcome)
        else:
            self.answer.set_result(outcome)


class SharedCommits:
    """The store's way in for appends: a queue, drained by up to `at_once` lanes.

    A lane holds a pool connection and sends one batch after another on it while
    moves keep arriving. A second lane starts only when a move arrives and every lane
    is busy committing, so batches go one after the other under a steady load and
    side by side when moves arrive during a commit.
    """

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
        self._arrived = asyncio.Event()
        self._lanes = 0
        self._committing = 0
        self._running: set[asyncio.Task[None]] = set()

    async def insert(self, event: NewEvent) -> Inserted | None:
        """Store the row, committed, with whatever else is waiting; None when its
        version or its idempotency key was taken (by a committed row or one stored
        before it in the same commit). The database's refusal of this row (a missing
        game, a value it rejects) is raised as psycopg raises it; CommitFailed when
        the commit it shared failed."""
        if self._lanes == 0 and not self._waiting:
            return await self._alone(event)
        waiting = _Waiting(event)
        self._waiting.append(waiting)
        self._arrived.set()
        if self._lanes == self._committing and self._lanes < self._at_once:
            self._start_lane()
        try:
            return await waiting.answer
        finally:
            if waiting.sent:
                _may_be_stored.set(True)

    async def _alone(self, event: NewEvent) -> Inserted | None:
        """Commit the one move from the caller's task, counted as a lane committing:
        a move arriving meanwhile starts a lane of its own rather than wait. Its
        outcome is the caller's at once, with no future to settle and read back:
        the same as a lane's batch of one would settle (see _commit and _refused)."""
        self._lanes += 1
        self._committing += 1
        sent = False
        try:
            try:
                conn = await self._pool.getconn()
            except Exception as error:  # no connection to be had
                raise _failure(error) from error
            try:
                sent = True
                return await _insert_one(conn, event)
            except psycopg.Error as error:
                if conn.broken:
                    # It may or may not have committed before the connection broke.
                    raise _failure(error) from error
                if not conn.autocommit:
                    await conn.rollback()
                raise
            except Exception as error:
                raise _failure(error) from error
            finally:
                await self._pool.putconn(conn)
        finally:
            self._committing -= 1
            self._lanes -= 1
            if sent:
                _may_be_stored.set(True)
            if self._waiting and self._lanes < self._at_once:
                self._start_lane()

    def _start_lane(self) -> None:
        self._lanes += 1
        lane = asyncio.create_task(self._lane())
        self._running.add(lane)
        lane.add_done_callback(self._running.discard)

    async def _lane(self) -> None:
        try:
            while self._waiting:
                await self._drain()
        finally:
            self._lanes -= 1

    async def _drain(self) -> None:
        """Batches on one connection until none is waiting (or the connection broke)."""
        try:
            async with self._pool.connection() as conn:
                while batch := await self._take():
                    self._committing += 1
                    try:
                        await self._commit(conn, batch)
                    finally:
                        self._committing -= 1
                    if conn.broken:
                        return
        except BaseException as error:
            # No connection to be had (or the lane cancelled): the next batch fails.
            _fail(self._batch(), error)
            if not isinstance(error, Exception):
                raise

    async def _take(self) -> list[_Waiting]:
        """The next batch: what is waiting, or what arrives within LINGER_SECONDS
        (the lane keeps its connection meanwhile; no move waits for it)."""
        while not self._waiting:
            self._arrived.clear()
            try:
                async with asyncio.timeout(LINGER_SECONDS):
                    await self._arrived.wait()
            except TimeoutError:
                return []
        batch = self._batch()
        for waiting in batch:
            waiting.sent = True  # from here on, it may be stored
        return batch

    def _batch(self) -> list[_Waiting]:
        batch: list[_Waiting] = []
        while self._waiting and len(batch) < self._most:
            waiting = self._waiting.popleft()
            if not waiting.answer.done():
                batch.append(waiting)
        return batch

    async def _commit(self, conn: AsyncConnection, batch: list[_Waiting]) -> None:
        try:
            outcomes = await _insert(conn, [waiting.event for waiting in batch])
        except psycopg.Error as error:
            await self._refused(conn, batch, error)
        except BaseException as error:
            _fail(batch, error)
            if not isinstance(error, Exception):
                raise
        else:
            for waiting, outcome in zip(batch, outcomes, strict=True):
                waiting.settle(outcome)

    async def _refused(
        self, conn: AsyncConnection, batch: list[_Waiting], error: psycopg.Error
    ) -> None:
        if conn.broken:
            # It may or may not have committed before the connection broke.
            return _fail(batch, error)
        await conn.rollback()  # outside autocommit, end the failed transaction
        if len(batch) == 1:
            return batch[0].settle(error)
        # The database refused the statement, so stored none of it: send each move
        # alone to learn which move the refusal was about.
        for waiting in batch:
            await self._commit(conn, [waiting])
        return None


async def _insert(
    conn: AsyncConnection, events: list[NewEvent]
) -> list[Inserted | None]:
    """One INSERT of the rows, its own transaction, committed; each row as stored, or
    None. Only the first row of a game's version goes into the statement: a later
    one could not be told apart from it in what RETURNING gives back, and is not
    stored whatever becomes of the first (its version is taken either way)."""
    if len(events) == 1:
        return [await _insert_one(conn, events[0])]
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
    if not conn.autocommit:  # a pool of connections outside autocommit
        await conn.commit()
    return [
        stored.get(_key(event)) if first[_key(event)] is event else None
        for event in events
    ]


async def _insert_one(conn: AsyncConnection, event: NewEvent) -> Inserted | None:
    """One move's INSERT, its own transaction, committed; the row as stored, or
    None. Its RETURNING names only what the database adds: the caller knows the
    row's game and version."""
    cursor = await conn.execute(
        _INSERT_ONE,
        (
            event.game_id,
            event.version,
            event.type,
            event.data,
            event.idempotency_key,
            event.request_hash,
        ),
    )
    row = await cursor.fetchone()
    if not conn.autocommit:  # a pool of connections outside autocommit
        await conn.commit()
    return None if row is None else Inserted(*row)


def _key(event: NewEvent) -> tuple[UUID, int]:
    return event.game_id, event.version


def _fail(batch: list[_Waiting], error: BaseException) -> None:
    for waiting in batch:
        waiting.settle(_failure(error))


def _failure(error: BaseException) -> CommitFailed:
    failed = CommitFailed(str(error) or type(error).__name__)
    failed.__cause__ = error
    return failed
