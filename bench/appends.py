"""Store appends: EventStore.append (one move per transaction, the version checked by
the primary key) beside plain psycopg INSERTs, each committed on its own (autocommit),
of rows of the same shape and
beside the `eventsourcing` library's PostgreSQL application recorder, with 1 and with 8
writers each on a game of its own; and the same appends with a live listener attached.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack

import anyio
import psycopg
from psycopg.conninfo import conninfo_to_dict

from bench.report import Figure, Rate, Report
from bench.timing import Slice, alternate, run_async, run_threads
from bench.workload import (
    Stored,
    create_game,
    default_rules,
    setup_for,
    stored_moves,
)
from service.readside.live import LiveLog
from service.settings import Settings
from service.storage.store import EventStore, connection_pool

# More than any writer can append in a slice, so no writer ever runs out of moves.
MOVES_PER_WRITER = 40_000

# The durable-write limit: the events table's columns and primary key, nothing else
# (no foreign key, no global position, no idempotency key, no RETURNING).
PLAIN_TABLE = """
    CREATE TABLE plain_events (
        game_id     uuid        NOT NULL,
        version     integer     NOT NULL,
        type        text        NOT NULL,
        data        jsonb       NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (game_id, version)
    )
"""
PLAIN_INSERT = (
    "INSERT INTO plain_events (game_id, version, type, data)"
    " VALUES (%s, %s, %s, %s::jsonb)"
)


async def measure(url: str, report: Report, seconds: float, rounds: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(PLAIN_TABLE)
    moves = stored_moves(default_rules(), setup_for(default_rules()), MOVES_PER_WRITER)
    with ExitStack() as stack:
        try:
            recorder = stack.enter_context(_eventsourcing(url, pool_size=8))
        except ImportError:
            print("  (no eventsourcing: pip install -e '.[bench]' for the peer)")
            recorder = None
        for writers in (1, 8):
            # The service's own pool, sized for the writers.
            size = writers + 1
            pool = connection_pool(
                Settings(database_url=url, pool_min_size=size, pool_max_size=size)
            )
            await pool.open(wait=True)
            try:
                store = EventStore(pool)
                contestants = {
                    "ours": _ours(store, moves, writers, listener=False),
                    "ours+listener": _ours(store, moves, writers, listener=True),
                    "plain INSERT": _plain(url, moves, writers),
                }
                if recorder is not None:
                    contestants["eventsourcing"] = _peer(recorder, moves, writers)
                rates = await alternate(contestants, seconds, rounds)
            finally:
                await pool.close()
            _figures(report, writers, rates)


def _figures(report: Report, writers: int, rates: dict[str, Rate]) -> None:
    group = f"store appends, {writers} writer{'s' if writers > 1 else ''}"
    ours = rates["ours"]
    report.add(
        Figure(group, "ours / plain INSERT", ours, rates["plain INSERT"], ("min", 0.8))
    )
    if "eventsourcing" in rates:
        target = ("min", 1.5) if writers == 8 else None
        peer = rates["eventsourcing"]
        report.add(Figure(group, "ours / eventsourcing", ours, peer, target))
    report.add(
        Figure(
            group,
            "with live listener / without",
            rates["ours+listener"],
            ours,
            ("min", 0.8),
        )
    )


def _ours(
    store: EventStore, moves: list[Stored], writers: int, *, listener: bool
) -> Slice:
    rules = default_rules()

    async def run(seconds: float) -> tuple[int, float]:
        games = [
            await create_game(store, rules, setup_for(rules)) for _ in range(writers)
        ]
        if not listener:
            return await run_async([_writer(store, g, moves) for g in games], seconds)
        live = LiveLog(store)
        async with anyio.create_task_group() as group:
            group.start_soon(live.run)
            with ExitStack() as stack:
                for game in games:
                    group.start_soon(_drain, stack.enter_context(live.subscribe(game)))
                await asyncio.sleep(0.05)  # let the follower find the head of the log
                result = await run_async(
                    [_writer(store, g, moves, live.wake) for g in games], seconds
                )
            group.cancel_scope.cancel()
        return result

    return run


async def _drain(subscription) -> None:
    while True:
        await subscription.queue.get()


def _writer(
    store: EventStore,
    game_id: uuid.UUID,
    moves: list[Stored],
    on_append: Callable[[], None] = lambda: None,
):
    async def work(deadline: float) -> int:
        done = 0
        while time.perf_counter() < deadline:
            move = moves[done]
            await store.append(game_id, done + 2, move.type, move.data)
            on_append()
            done += 1
        return done

    return work


def _plain(url: str, moves: list[Stored], writers: int) -> Slice:
    async def run(seconds: float) -> tuple[int, float]:
        async with _connections(url, writers) as conns:
            return await run_async([_plain_writer(c, moves) for c in conns], seconds)

    return run


class _connections:
    def __init__(self, url: str, count: int) -> None:
        self._url, self._count = url, count

    async def __aenter__(self) -> list[psycopg.AsyncConnection]:
        # Autocommit: each INSERT is its own transaction, the fewest round trips a
        # durable write can take.
        self._conns = [
            await psycopg.AsyncConnection.connect(self._url, autocommit=True)
            for _ in range(self._count)
        ]
        return self._conns

    async def __aexit__(self, *exc) -> None:
        for conn in self._conns:
            await conn.close()


def _plain_writer(conn: psycopg.AsyncConnection, moves: list[Stored]):
    async def work(deadline: float) -> int:
        game_id = uuid.uuid4()
        done = 0
        while time.perf_counter() < deadline:
            move = moves[done]
            await conn.execute(
                PLAIN_INSERT, (game_id, done + 2, move.type, move.data.decode())
            )
            done += 1
        return done

    return work


class _eventsourcing:
    """The peer: eventsourcing's PostgresApplicationRecorder (it takes a table lock
    per insert, so that its notification ids follow commit order)."""

    def __init__(self, url: str, pool_size: int) -> None:
        self._url, self._pool_size = url, pool_size

    def __enter__(self):
        from eventsourcing.postgres import (
            PostgresApplicationRecorder,
            PostgresDatastore,
        )

        info = conninfo_to_dict(self._url)
        self._datastore = PostgresDatastore(
            dbname=info["dbname"],
            host=info.get("host", "localhost"),
            port=info.get("port", 5432),
            user=info.get("user", "postgres"),
            password=info.get("password", ""),
            pool_size=self._pool_size,
        )
        recorder = PostgresApplicationRecorder(
            self._datastore, events_table_name="es_events"
        )
        recorder.create_table()
        return recorder

    def __exit__(self, *exc) -> None:
        self._datastore.close()


def _peer(recorder, moves: list[Stored], writers: int) -> Slice:
    from eventsourcing.persistence import StoredEvent

    def writer(deadline: float) -> int:
        game_id = uuid.uuid4()
        done = 0
        while time.perf_counter() < deadline:
            move = moves[done]
            recorder.insert_events(
                [StoredEvent(game_id, done + 2, move.type, move.data)]
            )
            done += 1
        return done

    async def run(seconds: float) -> tuple[int, float]:
        return await anyio.to_thread.run_sync(run_threads, [writer] * writers, seconds)

    return run
