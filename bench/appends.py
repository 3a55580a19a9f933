"""Store appends: EventStore.append (the version checked by the primary key; appends
arriving together share one commit) beside plain psycopg INSERTs of rows of the same
shape, each committed on its own (autocommit), and beside the `eventsourcing`
library's PostgreSQL application recorder, with 1 and with 8 writers each on a game of
its own; and the same appends with a live listener attached. Every writer times each
append, for the 99th percentile of the latency beside plain INSERT's.

With `--peers`, Message DB's `write_message` (its SQL is the npm package
`@eventide/message-db`: `npm pack @eventide/message-db`, then name its `database`
folder in MESSAGE_DB_SQL, or install it under `node_modules` where the bench runs)
is measured beside ours too, each writer on a stream of its own with its expected
version, as Eventide writes.

With one writer, ours is also measured beside the very statement the store sends for
a lone move, sent raw on a connection of its own ("events row, raw"): the database's
share of an append (the events table's foreign key, identity, indexes and RETURNING),
apart from what the store adds to it in Python.

The contestants take turns round by round; each figure is the median of the rounds'
ratios, with their range.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
import uuid
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import anyio
import psycopg
from psycopg.conninfo import conninfo_to_dict

from bench.report import Figure, Percentile, Rate, Report
from bench.timing import Slice, alternate, run_async, run_threads, summed
from bench.workload import (
    Stored,
    create_game,
    default_rules,
    setup_for,
    stored_moves,
)
from service.readside.live import LiveLog
from service.settings import Settings
from service.storage.commits import _INSERT_ONE
from service.storage.pools import connection_pool
from service.storage.store import EventStore

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


async def measure(
    url: str, report: Report, seconds: float, rounds: int, peers: bool = False
) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(PLAIN_TABLE)
    message_db = peers and _install_message_db(url)
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
                timed: dict[str, list[float]] = {"ours": [], "plain INSERT": []}
                contestants = {
                    "ours": _ours(store, moves, writers, timed["ours"]),
                    "ours+listener": _ours(store, moves, writers, listener=True),
                    "plain INSERT": _plain(url, moves, writers, timed["plain INSERT"]),
                }
                if writers == 1:
                    contestants["events row, raw"] = _raw(url, store, moves)
                if recorder is not None:
                    contestants["eventsourcing"] = _peer(recorder, moves, writers)
                if message_db:
                    contestants["Message DB"] = _message_db(url, moves, writers)
                measured = await _by_round(contestants, timed, seconds, rounds)
            finally:
                await pool.close()
            _figures(report, writers, measured)


@dataclass
class _Measured:
    """What each round gave: every contestant's rate, and the timed ones' p99; and
    every timed append of all rounds."""

    rates: list[dict[str, Rate]] = field(default_factory=list)
    p99: list[dict[str, Percentile]] = field(default_factory=list)
    timed: dict[str, list[float]] = field(default_factory=dict)

    def figure(self, group: str, name: str, ours: str, baseline: str, target) -> Figure:
        """Ours beside the baseline: over all rounds, and the ratio of each round."""
        rounds = [r[ours].per_second / r[baseline].per_second for r in self.rates]
        total = [summed(ours, self.rates), summed(baseline, self.rates)]
        return Figure(group, name, *total, target, rounds=tuple(rounds))

    def latency(self, group: str, target) -> Figure:
        """Ours beside plain INSERT: the p99 of all rounds, and the ratio of each."""
        ours, plain = (
            _p99(name, self.timed[name]) for name in ("ours", "plain INSERT")
        )
        rounds = [r["ours"].ms / r["plain INSERT"].ms for r in self.p99]
        return Figure(
            group,
            "p99 latency, ours / plain INSERT",
            ours,
            plain,
            target,
            rounds=tuple(rounds),
        )


async def _by_round(
    contestants: dict[str, Slice],
    timed: dict[str, list[float]],
    seconds: float,
    rounds: int,
) -> _Measured:
    measured = _Measured(timed={name: [] for name in timed})
    for _ in range(rounds):
        for times in timed.values():
            times.clear()
        measured.rates.append(await alternate(contestants, seconds / rounds, 1))
        measured.p99.append({name: _p99(name, t) for name, t in timed.items()})
        for name, times in timed.items():
            measured.timed[name].extend(times)
    return measured


def _p99(label: str, seconds: list[float]) -> Percentile:
    # The quantiles need two samples; a slice too short for two has its one.
    worst = statistics.quantiles(seconds, n=100)[98] if len(seconds) > 1 else seconds[0]
    return Percentile(label, worst * 1000, len(seconds))


def _figures(report: Report, writers: int, measured: _Measured) -> None:
    group = f"store appends, {writers} writer{'s' if writers > 1 else ''}"
    target = ("min", 1.3) if writers == 8 else ("min", 0.8)
    report.add(
        measured.figure(group, "ours / plain INSERT", "ours", "plain INSERT", target)
    )
    if "eventsourcing" in measured.rates[0]:
        target = ("min", 1.5) if writers == 8 else None
        report.add(
            measured.figure(
                group, "ours / eventsourcing", "ours", "eventsourcing", target
            )
        )
    if "Message DB" in measured.rates[0]:
        report.add(
            measured.figure(
                group, "ours / Message DB write_message", "ours", "Message DB", None
            )
        )
    if "events row, raw" in measured.rates[0]:
        report.add(
            measured.figure(
                group, "ours / the same row sent raw", "ours", "events row, raw", None
            )
        )
    report.add(
        measured.figure(
            group, "with live listener / without", "ours+listener", "ours", ("min", 0.8)
        )
    )
    report.add(measured.latency(group, ("max", 2.0) if writers == 8 else None))


def _ours(
    store: EventStore,
    moves: list[Stored],
    writers: int,
    timed: list[float] | None = None,
    *,
    listener: bool = False,
) -> Slice:
    rules = default_rules()
    times = [] if timed is None else timed

    async def run(seconds: float) -> tuple[int, float]:
        games = [
            await create_game(store, rules, setup_for(rules)) for _ in range(writers)
        ]
        if not listener:
            return await run_async(
                [_writer(store, g, moves, times) for g in games], seconds
            )
        live = LiveLog(store)
        async with anyio.create_task_group() as group:
            group.start_soon(live.run)
            with ExitStack() as stack:
                for game in games:
                    group.start_soon(_drain, stack.enter_context(live.subscribe(game)))
                await asyncio.sleep(0.05)  # let the follower find the head of the log
                result = await run_async(
                    [_writer(store, g, moves, times, live.wake) for g in games],
                    seconds,
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
    times: list[float],
    on_append: Callable[[], None] = lambda: None,
):
    async def work(deadline: float) -> int:
        done = 0
        while (started := time.perf_counter()) < deadline:
            move = moves[done]
            await store.append(game_id, done + 2, move.type, move.data)
            times.append(time.perf_counter() - started)
            on_append()
            done += 1
        return done

    return work


def _plain(url: str, moves: list[Stored], writers: int, times: list[float]) -> Slice:
    async def run(seconds: float) -> tuple[int, float]:
        async with _connections(url, writers) as conns:
            return await run_async(
                [_plain_writer(c, moves, times) for c in conns], seconds
            )

    return run


def _raw(url: str, store: EventStore, moves: list[Stored]) -> Slice:
    """The store's statement for one move, on a connection of its own: no pool, no
    store, no shared commits."""
    rules = default_rules()

    async def run(seconds: float) -> tuple[int, float]:
        game_id = await create_game(store, rules, setup_for(rules))
        async with _connections(url, 1) as (conn,):

            async def work(deadline: float) -> int:
                done = 0
                while time.perf_counter() < deadline:
                    move = moves[done]
                    cursor = await conn.execute(
                        _INSERT_ONE,
                        (game_id, done + 2, move.type, move.data.decode(), None, None),
                    )
                    await cursor.fetchall()
                    done += 1
                return done

            return await run_async([work], seconds)

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


def _plain_writer(
    conn: psycopg.AsyncConnection, moves: list[Stored], times: list[float]
):
    async def work(deadline: float) -> int:
        game_id = uuid.uuid4()
        done = 0
        while (started := time.perf_counter()) < deadline:
            move = moves[done]
            await conn.execute(
                PLAIN_INSERT, (game_id, done + 2, move.type, move.data.decode())
            )
            times.append(time.perf_counter() - started)
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


# Message DB's install.sh, in its order, without the role, views and privileges
# (the bench writes as the database's owner).
_MESSAGE_DB_FILES = (
    "schema/message-store.sql", "extensions/pgcrypto.sql", "tables/messages.sql",
    "types/message.sql", "functions/message-store-version.sql",
    "functions/hash-64.sql", "functions/acquire-lock.sql", "functions/category.sql",
    "functions/is-category.sql", "functions/id.sql", "functions/cardinal-id.sql",
    "functions/stream-version.sql", "functions/write-message.sql",
    "indexes/messages-id.sql", "indexes/messages-stream.sql",
    "indexes/messages-category.sql",
)  # fmt: skip


def _message_db_sql() -> Path | None:
    """Message DB's `database` folder, if it is at hand."""
    named = os.environ.get("MESSAGE_DB_SQL")
    found = Path(named) if named else None
    installed = Path("node_modules/@eventide/message-db/database")
    for folder in (found, installed):
        if folder is not None and (folder / "functions/write-message.sql").is_file():
            return folder
    return None


def _install_message_db(url: str) -> bool:
    folder = _message_db_sql()
    if folder is None:
        print(
            "  (no Message DB: `npm pack @eventide/message-db` and name its "
            "database folder in MESSAGE_DB_SQL for the peer)"
        )
        return False
    with psycopg.connect(url, autocommit=True) as conn:
        for name in _MESSAGE_DB_FILES:
            # pgcrypto only brings gen_random_uuid(), built in from PostgreSQL 13
            # (the embedded server ships no contrib extensions).
            if name.startswith("extensions/") and conn.info.server_version >= 130000:
                continue
            conn.execute((folder / name).read_text())
    return True


def _message_db(url: str, moves: list[Stored], writers: int) -> Slice:
    """Message DB's write_message, each writer on a stream of its own, autocommit
    (one transaction a message, as Eventide's writer sends one)."""
    write = "SELECT write_message(%s, %s, %s, %s::jsonb, NULL, %s)"

    def writer(conn: psycopg.AsyncConnection):
        async def work(deadline: float) -> int:
            stream = f"game-{uuid.uuid4().hex}"
            done = 0
            while time.perf_counter() < deadline:
                move = moves[done]
                await conn.execute(
                    write,
                    (
                        str(uuid.uuid4()),
                        stream,
                        move.type,
                        move.data.decode(),
                        done - 1,
                    ),
                )
                done += 1
            return done

        return work

    async def run(seconds: float) -> tuple[int, float]:
        async with _connections(url, writers) as conns:
            for conn in conns:
                await conn.execute("SET search_path TO message_store, public")
            return await run_async([writer(c) for c in conns], seconds)

    return run
