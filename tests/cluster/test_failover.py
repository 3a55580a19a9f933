"""tablelog in front of a PostgreSQL cluster with automatic failover.

Three PostgreSQL nodes under Patroni (strict synchronous replication), two tablelog
processes whose DATABASE_URL names every node (`target_session_attrs=read-write`)
and whose DATABASE_READ_URL reads from the nodes too: process A's with
`target_session_attrs=any`, so that its reads and its log follower start on the
primary and must move when it dies, process B's with `prefer-standby`. Simulated
tables log moves through both. The leader's PostgreSQL is killed (SIGKILL) under that
load; later one tablelog process is killed.

What must hold: every move answered 201 is in the log, the log of each game is its
versions 1..n without a gap, each the move the table sent for it (nothing stored
twice), writes resume within FAILOVER_LIMIT seconds without restarting tablelog,
a read after a write sees it on either process, and an open live stream goes on
delivering every move across the failover.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import psycopg
import pytest

from domain.registry import BUILT_IN
from service.storage.embedded import with_roles
from service.storage.migrate import migrate
from tests.cluster.cluster import Cluster, Tablelog, missing_tools, patroni_cluster
from tests.cluster.cluster import tablelog as tablelog_process
from tests.cluster.tables import Stream, Table
from tests.support.games import assert_log_sound, create

pytestmark = [
    pytest.mark.cluster,
    pytest.mark.db,
    pytest.mark.skipif(missing_tools() is not None, reason=str(missing_tools())),
]

TABLES = 8
# Seconds of load before the kill, and after the last table has written again.
BEFORE, AFTER = 5.0, 5.0
FAILOVER_LIMIT = 30.0


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with patroni_cluster() as cluster:
        superuser = cluster.url("postgres", target_session_attrs="read-write")
        with psycopg.connect(superuser, autocommit=True) as conn:
            conn.execute("CREATE DATABASE tablelog")
        roles = with_roles(cluster.url("tablelog", target_session_attrs="read-write"))
        migrate(roles.owner)
        cluster.roles = roles
        yield cluster


@pytest.fixture
def processes(cluster: Cluster, tmp_path) -> Iterator[tuple[Tablelog, Tablelog]]:
    def env(reads: str) -> dict[str, str]:
        return {
            "DATABASE_URL": cluster.roles.app,
            "MIGRATION_DATABASE_URL": cluster.roles.owner,
            "DATABASE_READ_URL": cluster.url(
                "tablelog", user="tablelog_app", target_session_attrs=reads
            ),
        }

    with ExitStack() as stack:
        a = stack.enter_context(tablelog_process(tmp_path, "a", env("any")))
        b = stack.enter_context(tablelog_process(tmp_path, "b", env("prefer-standby")))
        # Ready as the serving role, its replicas too.
        for process in (a, b):
            ready = httpx.get(f"{process.url}/health/ready", timeout=10)
            assert ready.status_code == 200, ready.text
        yield a, b


def tables_on(servers: tuple[Tablelog, Tablelog]) -> list[Table]:
    """TABLES games of every kind, half logged through each process."""
    kinds = sorted(BUILT_IN)
    tables = []
    with httpx.Client(base_url=servers[0].url, timeout=30) as client:
        for i in range(TABLES):
            game = create(client, kinds[i % len(kinds)])
            first, second = servers if i % 2 == 0 else servers[::-1]
            tables.append(Table(game, [first.url, second.url]))
    return tables


def logging(tables: list[Table], stop: threading.Event) -> list[threading.Thread]:
    threads = [threading.Thread(target=t.log, args=(stop,)) for t in tables]
    for thread in threads:
        thread.start()
    return threads


def assert_nothing_lost(server: Tablelog, tables: list[Table]) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for table in tables:
            stored = assert_log_sound(client, table.game)
            assert stored == max(table.game.acknowledged), table.game.id
    for table in tables:
        assert table.unexpected == []
        assert table.stale_reads == []


def test_the_primary_killed_under_load_loses_no_acknowledged_move(
    cluster, processes, record_property
):
    a, b = processes
    tables = tables_on(processes)
    stream = Stream(a.url, tables[1].game)
    stop = threading.Event()
    threads = logging(tables, stop)
    try:
        time.sleep(BEFORE)
        old = cluster.leader()
        assert old is not None
        # Process B reads from a standby: its read-your-writes checks are real.
        standbys = [n for n in cluster.nodes if n is not old]
        assert any(cluster.sessions(n, "tablelog_app") for n in standbys)
        killed = time.monotonic()
        old.kill_postgres()
        promoted = cluster.wait_for(
            lambda: (leader := cluster.leader()) not in (None, old) and leader,
            timeout=FAILOVER_LIMIT,
            every=0.05,
        )
        promoted_after = time.monotonic() - killed

        def everyone_writing() -> list[float] | None:
            found = [t.first_success_after(killed) for t in tables]
            return None if None in found else found

        resumed = cluster.wait_for(everyone_writing, timeout=FAILOVER_LIMIT + 10)
        time.sleep(AFTER)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)

    first, last = min(resumed) - killed, max(resumed) - killed
    statuses = [status for t in tables for _, _, status in t.attempts]
    print(
        f"\nfailover: {old.name} killed; {promoted.name} primary after "
        f"{promoted_after:.1f} s; first move stored {first:.1f} s after the kill, "
        f"every table writing again after {last:.1f} s "
        f"(median {statistics.median(resumed) - killed:.1f} s); "
        f"{statuses.count(503)} attempts answered 503, "
        f"{statuses.count(0)} not answered; "
        f"{sum(len(t.game.acknowledged) for t in tables)} moves acknowledged"
    )
    record_property("failover_promoted_s", round(promoted_after, 2))
    record_property("failover_writes_resumed_s", round(last, 2))
    assert last <= FAILOVER_LIMIT
    assert_nothing_lost(b, tables)

    # The stream opened on A before the kill, whose log follower read the node that
    # died, delivered every move of its game: none missed, none twice.
    final = max(tables[1].game.acknowledged)
    stream.wait_for(final, timeout=10)
    stream.close()
    assert stream.versions == list(range(2, final + 1)), stream.ended


def test_a_tablelog_process_killed_leaves_the_other_serving_its_games(
    cluster, processes
):
    a, b = processes
    tables = tables_on(processes)
    stream = Stream(b.url, tables[0].game)  # a table logged through A
    stop = threading.Event()
    threads = logging(tables, stop)
    try:
        time.sleep(BEFORE)
        killed = time.monotonic()
        a.kill()
        cluster.wait_for(
            lambda: all(t.first_success_after(killed) for t in tables), timeout=30
        )
        time.sleep(AFTER)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)

    assert all(t.servers == [b.url] for t in tables[::2])
    assert_nothing_lost(b, tables)
    final = max(tables[0].game.acknowledged)
    stream.wait_for(final, timeout=10)
    stream.close()
    assert stream.versions == list(range(2, final + 1)), stream.ended
