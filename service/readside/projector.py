"""The projection runner: keeps the read models by folding the global log, and
remembers how far it got in `projection_checkpoints`.

Each read model is a pure fold of `projections/` and the writer of its tables
(`ReadModel`): the runner folds each game of a batch at its latest version, asks
every model's fold for its rows and hands them to that model's writer, knowing
nothing of any model's rules. The game list (`summaries.py`) is kept game by game;
the players' ratings (`ratings.py`) across the batch's games, after it.

Runners in several processes take turns with an advisory lock, taken for one batch
with `pg_try_advisory_xact_lock`: a runner that finds it taken leaves that batch to
the one holding it, so a batch is folded exactly once. The lock is not a row lock on
purpose. The global log is read below the oldest running transaction that holds a
transaction id (EventStore.read_all), so whatever holds one holds back every live
stream and the runners themselves; a row lock (`FOR UPDATE`) takes one, an advisory
lock does not. A batch takes one only when it writes: the log is read and the games
folded first, and the rows written after, in a moment.

`rebuild` folds the whole log again into new tables beside the live ones, in batches
of their own short transactions, while the runners keep the live tables current;
then, in one short transaction that takes the runners' turn, it folds what was
logged meanwhile and swaps the new tables in (migrations/0009).

A game the runner cannot fold (a stored row today's engine refuses, a bug) is set
aside in `projection_failures`, with the version and the error, and logged: the
checkpoint moves on and every other game keeps reaching the list. A game set aside is
tried again on its next event and every RETRY_SECONDS (so a restart with a fix
catches it up); once it folds, its row is deleted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import astuple, dataclass
from datetime import datetime
from functools import partial
from typing import Any, Generic, TypeVar
from uuid import UUID

import msgspec
import psycopg
import psycopg_pool
from psycopg import AsyncConnection, sql

from domain.history import History
from projections import ratings as rated
from projections import summaries as listed
from service.application.timeline import Timelines
from service.readside import ratings, summaries
from service.storage.store import EventStore, GameRow, GlobalPosition, StoredEvent

log = logging.getLogger(__name__)

NAME = "game_summaries"
BATCH = 500
# A batch a second at most under a steady load, rather than one after nearly every
# move: each batch costs a transaction, its turn and its checkpoint whatever it holds.
# At 0.05 the runner took a tenth of a move's CPU; at 0.25 its batches still kept a
# move's CPU 1.21 times the bare handler's against 1.06 at 1 s (bench, 300 tables).
# A game in progress shows its latest version in the list that much later.
SETTLE_SECONDS = 1.0
RETRY_SECONDS = 30.0

# Keys of the advisory locks, fixed numbers every tablelog process shares (the
# migrations hold another): the runners' turn at a batch, and the one rebuild that
# may run at a time.
TURN = 0x746C_7475726E  # "tl" "turn"
REBUILDING = 0x746C_72626C64  # "tl" "rbld"

# The swap waits this long for the readers of the live tables to let go of them.
SWAP_LOCK_TIMEOUT = "10s"

_START = GlobalPosition(0, 0)


@dataclass(frozen=True, slots=True)
class Tables:
    """The tables a fold writes to: the live read models or their rebuilt copies."""

    summaries: str
    failures: str
    rated_games: str
    rating_history: str
    ratings: str


LIVE = Tables(
    "game_summaries", "projection_failures", "rated_games", "rating_history", "ratings"
)
REBUILT = Tables(*(f"{table}_rebuilt" for table in astuple(LIVE)))

_SET_ASIDE = """
    INSERT INTO {failures} AS f (game_id, version, error)
    VALUES (%s, %s, %s)
    ON CONFLICT (game_id) DO UPDATE SET
        version = excluded.version, error = excluded.error,
        attempts = f.attempts + 1, retried_at = now()
"""

# Errors that say the database is away, not that a game cannot be folded: the whole
# batch is tried again later rather than any game set aside.
_UNAVAILABLE = (psycopg.OperationalError, psycopg_pool.PoolTimeout)


Row = TypeVar("Row")
# Each game of a batch with its version folded and its row of one read model.
Rows = Mapping[UUID, tuple[int, Row]]


@dataclass(frozen=True, slots=True)
class ReadModel(Generic[Row]):
    """A read model as the runner keeps it: `fold`, pure (`projections/`), gives a
    game's row at a version from its row as created, its history then and when
    that version was stored; `write` puts a batch's rows in the model's tables."""

    fold: Callable[[GameRow, History, datetime], Row]
    write: Callable[[AsyncConnection, Tables, Rows[Row]], Awaitable[None]]


# Kept game by game: a game's row stands on its own and only moves forward (its
# writer leaves a later version stored as it is). So a batch the database refuses
# is written again a game at a time, the game refused set aside, and a game whose
# status changes is written ahead of the runner (`summarise_now`).
GAME_LIST = ReadModel(listed.summary, summaries.write)
# Kept across the batch's games, after them: a ladder rates its games in the log's
# order. Every game that folded is written, set aside or not.
RATINGS = ReadModel(rated.finish_of, ratings.rate)


class SetAside(msgspec.Struct, kw_only=True):
    """A game the projection runner could not fold: the version it stopped at and
    the error, when it first failed and how often it was tried."""

    game_id: UUID
    version: int
    error: str
    attempts: int
    failed_at: datetime
    retried_at: datetime


class RebuildRunning(RuntimeError):
    """Another rebuild holds the rebuilt tables: one runs at a time."""


class Projector:
    def __init__(
        self,
        pool: psycopg_pool.AsyncConnectionPool,
        store: EventStore,
        timelines: Timelines,
        *,
        rating: bool = True,
        rated_needs_key: bool = False,
    ) -> None:
        """Without `rating`, the players' ratings are not kept (a baseline for the
        bench). With `rated_needs_key`, a game's own ladder rates only the games
        created with a key."""
        self._pool = pool
        self._store = store
        self._timelines = timelines
        self._by_game: tuple[ReadModel[Any], ...] = (GAME_LIST,)
        ratings_model = RATINGS
        if rated_needs_key:
            ratings_model = ReadModel(
                partial(rated.finish_of, needs_key=True), ratings.rate
            )
        self._across: tuple[ReadModel[Any], ...] = (ratings_model,) if rating else ()
        # A game's rows come in this order: the models kept game by game first.
        self._models = self._by_game + self._across
        self._wake = asyncio.Event()

    def wake(self) -> None:
        self._wake.set()

    async def catch_up(self, wait: bool = True) -> int:
        """Fold every event not yet folded; how many this runner folded. It waits
        for its turn while another runner folds a batch, or with `wait=False` leaves
        the rest to that runner (and returns 0)."""
        folded = 0
        while True:
            count = await self._take_turn(wait)
            folded += count
            if count < BATCH:
                return folded

    async def _take_turn(self, wait: bool) -> int:
        async with self._pool.connection() as conn, conn.transaction():
            if not await _turn(conn, wait):
                return 0
            position, count = await self._fold(conn, LIVE, await _checkpoint(conn))
            if count:
                await _save_checkpoint(conn, position)
            return count

    async def rebuild(self) -> int:
        """Fold the whole log again into new read models and swap them in; how
        many events were folded. Runs as the tables' owner (it creates tables)."""
        async with self._pool.connection() as guard:
            cursor = await guard.execute(
                "SELECT pg_try_advisory_lock(%s)", (REBUILDING,)
            )
            if not (await cursor.fetchone())[0]:
                raise RebuildRunning("another rebuild of the read models is running")
            try:
                return await self._rebuild()
            finally:
                await guard.execute("SELECT pg_advisory_unlock(%s)", (REBUILDING,))

    async def _rebuild(self) -> int:
        async with self._pool.connection() as conn, conn.transaction():
            for table in astuple(LIVE):
                await conn.execute("SELECT start_rebuild(%s)", (table,))
        position, folded, count = _START, 0, BATCH
        while count == BATCH:
            async with self._pool.connection() as conn, conn.transaction():
                position, count = await self._fold(conn, REBUILT, position)
            folded += count
        async with self._pool.connection() as conn, conn.transaction():
            await conn.execute(f"SET LOCAL lock_timeout = '{SWAP_LOCK_TIMEOUT}'")
            # The runners' turn, waited for: a batch of theirs in flight ends first,
            # and none starts until the new tables are live.
            await _turn(conn, wait=True)
            count = BATCH
            while count == BATCH:  # what was logged since the last batch
                position, count = await self._fold(conn, REBUILT, position)
                folded += count
            await _save_checkpoint(conn, position)
            for live, rebuilt in zip(astuple(LIVE), astuple(REBUILT), strict=True):
                await conn.execute("SELECT swap_in_rebuilt(%s, %s)", (live, rebuilt))
            # The new tables are the owner's: the serving role's rights, as on every
            # table (migrations/0006).
            await conn.execute("SELECT grant_serving_role()")
        return folded

    async def retry(self) -> int:
        """Try every game set aside again; how many now fold (0 when another
        runner has the turn)."""
        async with self._pool.connection() as conn, conn.transaction():
            if not await _turn(conn, wait=False):
                return 0
            cursor = await conn.execute(
                "SELECT game_id, version FROM projection_failures ORDER BY failed_at"
            )
            events = []
            for game_id, version in await cursor.fetchall():
                events += await self._store.read(game_id, version - 1, 1)
            return await self._fold_games(conn, LIVE, events)

    async def run(self, poll_seconds: float = 1.0) -> None:
        """Keep the read models current until cancelled."""
        retried = -RETRY_SECONDS
        while True:
            try:
                if asyncio.get_running_loop().time() - retried >= RETRY_SECONDS:
                    await self.retry()
                    retried = asyncio.get_running_loop().time()
                await self.catch_up(wait=False)
            except _UNAVAILABLE as error:
                log.warning("projector: database unavailable (%s)", error)
            except Exception:
                # Games that cannot be folded are set aside, one by one: what is left
                # is a fault of the runner itself. The checkpoint stays, it retries.
                log.exception("projector: folding the log failed; retrying")
            with suppress(TimeoutError):
                async with asyncio.timeout(poll_seconds):
                    await self._wake.wait()
            if self._wake.is_set():
                # Let the appends of the next moment gather: one batch folds them
                # all. Whatever a list shows at once (a game created, finished or
                # abandoned) was written ahead by `summarise_now`.
                await asyncio.sleep(SETTLE_SECONDS)
            self._wake.clear()

    async def _fold(
        self, conn: AsyncConnection, tables: Tables, after: GlobalPosition
    ) -> tuple[GlobalPosition, int]:
        """Fold the batch of the log after `after` into `tables`: the position of
        its last event and how many events it held."""
        batch = await self._store.read_all(after, BATCH)
        if not batch:
            return after, 0
        latest: dict[UUID, StoredEvent] = {}
        for _, event in batch:
            latest[event.game_id] = event
        await self._fold_games(conn, tables, list(latest.values()))
        return batch[-1][0], len(batch)

    async def _fold_games(
        self, conn: AsyncConnection, tables: Tables, events: list[StoredEvent]
    ) -> int:
        """Fold each event's game up to it; how many folded (the others are set
        aside; one event a game). Every game is folded before the first write: the
        transaction takes its id, which holds back the log's readers, only for the
        writes.

        The rows of the games that fold, none of them set aside, are written
        together, a round trip a model kept game by game; only when that fails, or
        for the others, is each game written on its own, where a failure sets aside
        that game alone. The models kept across games get every game that folded,
        after."""
        folds = []
        for event in events:
            folds.append(await self._fold_game(event))
            # A game held in the cache folds without awaiting anything: the moves
            # waiting on this event loop go first between two games, so a batch
            # never holds them for its whole fold.
            await asyncio.sleep(0)
        set_aside = await _set_aside_ids(conn, tables)
        games = list(zip(events, folds, strict=True))
        good = [game for game in games if not isinstance(game[1], Exception)]
        plain = [game for game in good if game[0].game_id not in set_aside]
        folded = 0
        if await self._write_together(conn, tables, plain):
            folded = len(plain)
            games = [
                (event, rows)
                for event, rows in games
                if isinstance(rows, Exception) or event.game_id in set_aside
            ]
        for event, rows in games:
            folded += await self._write(conn, tables, event, rows, set_aside)
        for index, model in enumerate(self._across, start=len(self._by_game)):
            await model.write(conn, tables, _rows_of(good, index))
        return folded

    async def _fold_game(self, event: StoredEvent) -> list[Any] | Exception:
        """Every read model's row of the event's game at its version, or why it
        cannot fold."""
        try:
            row, history = await self._timelines.as_stored_at(
                event.game_id, event.version
            )
            return [
                model.fold(row, history, event.recorded_at) for model in self._models
            ]
        except _UNAVAILABLE:
            raise
        except Exception as error:
            return error

    async def _write_by_game(
        self,
        conn: AsyncConnection,
        tables: Tables,
        folds: Sequence[tuple[StoredEvent, list[Any]]],
    ) -> None:
        """The games' rows of each model kept game by game, a statement each."""
        for index, model in enumerate(self._by_game):
            await model.write(conn, tables, _rows_of(folds, index))

    async def _write_together(
        self,
        conn: AsyncConnection,
        tables: Tables,
        folds: Sequence[tuple[StoredEvent, list[Any]]],
    ) -> bool:
        """Write the games' rows of the models kept game by game, all or none (a
        savepoint); whether they were written. Any refusal undoes them all, for the
        games to be written one by one."""
        if not folds:
            return True
        try:
            async with conn.transaction():
                await self._write_by_game(conn, tables, folds)
        except _UNAVAILABLE:
            raise
        except Exception:
            return False
        return True

    async def _write(
        self,
        conn: AsyncConnection,
        tables: Tables,
        event: StoredEvent,
        rows: list[Any] | Exception,
        set_aside: set[UUID],
    ) -> int:
        """Write one game's rows: 1 if it folded, 0 if it was set aside."""
        again = event.game_id in set_aside
        if isinstance(rows, Exception):
            await self._set_aside(conn, tables, event, rows, again)
            return 0
        try:
            # A savepoint: a statement that fails here undoes this game's work
            # only, and the batch's transaction goes on.
            async with conn.transaction():
                await self._write_by_game(conn, tables, [(event, rows)])
        except _UNAVAILABLE:
            raise
        except Exception as error:
            await self._set_aside(conn, tables, event, error, again)
            return 0
        if again:
            await conn.execute(
                _sql("DELETE FROM {failures} WHERE game_id = %s", tables),
                (event.game_id,),
            )
            log.warning(
                "projector: game %s folds again (version %s): no longer set aside",
                event.game_id,
                event.version,
            )
        return 1

    async def _set_aside(
        self,
        conn: AsyncConnection,
        tables: Tables,
        event: StoredEvent,
        error: Exception,
        again: bool,
    ) -> None:
        reason = f"{type(error).__name__}: {error}"[:2000]
        await conn.execute(
            _sql(_SET_ASIDE, tables), (event.game_id, event.version, reason)
        )
        if again:
            log.info("projector: game %s still cannot be folded", event.game_id)
        else:
            log.error(
                "projector: game %s cannot be folded at version %s; set aside in"
                " %s, the other games go on: %s",
                event.game_id,
                event.version,
                tables.failures,
                reason,
                exc_info=error,
            )

    async def summarise_now(
        self, row: GameRow, history: History, recorded_at: datetime
    ) -> None:
        """Write one game's rows of the models kept game by game (its summary)
        ahead of the runner (read your writes). The runner's own write of that
        version later changes nothing: such a row only ever moves forward. A
        failure is left to the runner, which catches up."""
        try:
            async with self._pool.connection() as conn:
                for model in self._by_game:
                    folded = model.fold(row, history, recorded_at)
                    await model.write(conn, LIVE, {row.id: (history.version, folded)})
        except _UNAVAILABLE as error:
            log.warning(
                "projector: summary of %s left to the runner (%s)", row.id, error
            )


def _rows_of(
    folds: Sequence[tuple[StoredEvent, list[Any]]], index: int
) -> dict[UUID, tuple[int, Any]]:
    """Each game's version folded and its row of the `index`th read model."""
    return {event.game_id: (event.version, rows[index]) for event, rows in folds}


def _sql(statement: str, tables: Tables) -> sql.Composed:
    return sql.SQL(statement).format(
        summaries=sql.Identifier(tables.summaries),
        failures=sql.Identifier(tables.failures),
    )


async def set_aside(
    pool: psycopg_pool.AsyncConnectionPool, *, within: float | None = None
) -> list[SetAside]:
    """The games the runner could not fold, oldest failure first; asked within
    `within` seconds when given (PoolTimeout when the database has not answered)."""
    try:
        async with (
            asyncio.timeout(within),
            pool.connection(timeout=within) as conn,
        ):
            cursor = await conn.execute(
                "SELECT game_id, version, error, attempts, failed_at, retried_at"
                " FROM projection_failures ORDER BY failed_at, game_id"
            )
            rows = await cursor.fetchall()
    except TimeoutError as error:
        raise psycopg_pool.PoolTimeout(
            f"the database did not answer in {within} s"
        ) from error
    names = SetAside.__struct_fields__
    return [SetAside(**dict(zip(names, row, strict=True))) for row in rows]


async def _set_aside_ids(conn: AsyncConnection, tables: Tables) -> set[UUID]:
    cursor = await conn.execute(_sql("SELECT game_id FROM {failures}", tables))
    return {game_id for (game_id,) in await cursor.fetchall()}


async def _turn(conn: AsyncConnection, wait: bool) -> bool:
    """Take the runners' turn until the transaction ends: whether it was taken.
    Without `wait`, not if another runner holds it. Waiting holds no transaction id
    either: it holds back no reader of the log."""
    if wait:
        await conn.execute("SELECT pg_advisory_xact_lock(%s)", (TURN,))
        return True
    cursor = await conn.execute("SELECT pg_try_advisory_xact_lock(%s)", (TURN,))
    (taken,) = await cursor.fetchone()
    return taken


async def _checkpoint(conn: AsyncConnection) -> GlobalPosition:
    # Read after the turn is taken: the runner before committed its checkpoint.
    cursor = await conn.execute(
        "SELECT transaction, position FROM projection_checkpoints WHERE name = %s",
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


# The most events `lag` counts: beyond them the read models are far behind anyway,
# and counting them all would cost as much as the lag is large.
LAG_COUNTED = 100_000

_LAG = """
    SELECT count(*), coalesce(extract(epoch FROM now() - min(recorded_at)), 0)
    FROM (SELECT e.recorded_at
          FROM events e JOIN projection_checkpoints c ON c.name = %s
          WHERE (e.transaction_id, e.position)
                > (c.transaction::text::xid8, c.position)
          ORDER BY e.transaction_id, e.position
          LIMIT %s) AS behind
"""


async def lag(pool: psycopg_pool.AsyncConnectionPool) -> tuple[int, float]:
    """How far the read models are behind the log: the events stored and not yet
    folded (up to LAG_COUNTED), and the age in seconds of the oldest (0 if none)."""
    async with pool.connection() as conn:
        cursor = await conn.execute(_LAG, (NAME, LAG_COUNTED))
        events, seconds = await cursor.fetchone()
    return events, float(seconds)
