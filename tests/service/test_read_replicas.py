"""DATABASE_READ_URL: a second pool takes the reads, the writes stay on the primary
and commit only once the synchronous standbys have applied them; and the pools drop
the connections a failover closed before a request gets one.

Here the "replica" is the same server under another application_name, which tells
its sessions apart; tests/cluster runs the real thing.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import msgspec
import psycopg
from psycopg.conninfo import make_conninfo

from service.settings import Settings
from service.storage.pools import connection_pool, read_pool
from service.storage.store import EventStore, NewGameRow
from tests.support.http import create, move, simulated_moves
from tests.support.server import running_server

REPLICA = "tablelog-test-replica"


def _last_queries(database_url: str) -> list[str]:
    """The last statement of every session the read pool opened."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT query FROM pg_stat_activity"
            " WHERE application_name = %s AND datname = current_database()",
            (REPLICA,),
        ).fetchall()
    return [query for (query,) in rows]


def test_the_reads_go_to_the_read_pool_and_the_writes_do_not(fresh_database_url):
    replica = make_conninfo(fresh_database_url, application_name=REPLICA)
    with (
        running_server(fresh_database_url, database_read_url=replica) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        game = create(client, game="dobro", players=["Ann", "Bob"], seed=3)
        first = msgspec.to_builtins(next(simulated_moves(game)))
        assert move(client, game, first).status_code == 201
        events = client.get(f"/games/{game['id']}/events").json()["events"]
        assert [e["version"] for e in events] == [1, 2]
        listed = client.get("/games", params={"player": "Ann"}).json()["games"]
        assert [g["id"] for g in listed] == [game["id"]]
        queries = _last_queries(fresh_database_url)
    assert queries, "the read pool opened no connection"
    assert any("FROM events" in q or "FROM game_summaries" in q for q in queries)
    assert not any(q.lstrip().upper().startswith("INSERT") for q in queries)


def test_writers_wait_for_the_standbys_to_apply_only_when_reading_replicas(
    database_url, run
):
    async def synchronous_commit(settings: Settings) -> str:
        async with connection_pool(settings) as pool, pool.connection() as conn:
            cursor = await conn.execute("SHOW synchronous_commit")
            (value,) = await cursor.fetchone()
        return value

    alone = Settings(database_url=database_url)
    with_replicas = Settings(database_url=database_url, database_read_url=database_url)
    with psycopg.connect(database_url) as conn:
        (server_default,) = conn.execute("SHOW synchronous_commit").fetchone()
    assert server_default != "remote_apply"
    assert run(synchronous_commit(alone)) == server_default
    assert run(synchronous_commit(with_replicas)) == "remote_apply"
    assert read_pool(alone) is None


def test_connections_the_server_closed_are_dropped_before_a_request_gets_them(
    database_url, run
):
    """As after a failover: every idle connection of the pool is dead at once."""

    async def scenario() -> list[int]:
        settings = Settings(database_url=database_url, pool_min_size=3)
        async with connection_pool(settings) as pool:
            await pool.wait()
            async with (
                pool.connection() as a,
                pool.connection() as b,
                pool.connection() as c,
            ):
                pids = [conn.info.backend_pid for conn in (a, b, c)]
            with psycopg.connect(database_url, autocommit=True) as admin:
                for pid in pids:
                    admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
            answered = []
            for _ in range(3):
                async with pool.connection() as conn:
                    cursor = await conn.execute("SELECT pg_backend_pid()")
                    answered.append((await cursor.fetchone())[0])
            return [pid for pid in answered if pid in pids]

    assert run(scenario()) == []


@asynccontextmanager
async def replica_behind(
    database_url: str, behind_url: str, idempotency_key: str | None = None
) -> AsyncIterator[tuple[EventStore, uuid.UUID]]:
    """A store whose replica is far behind (here an empty database), and a game
    whose move 2 the primary stored (under the key, if given)."""
    primary = Settings(database_url=database_url)
    behind = Settings(database_url=behind_url)
    async with connection_pool(primary) as pool, connection_pool(behind) as lag:
        store = EventStore(pool, lag)
        game_id = uuid.uuid4()
        row = NewGameRow(game_id, "dobro", ("A", "B"), "A", 1, {}, b"hash")
        await store.create_game(row, "game_created", b"{}")
        await store.append(game_id, 2, "play", b"{}", idempotency_key=idempotency_key)
        yield store, game_id


def test_a_replay_the_replica_cannot_give_yet_is_read_from_the_primary(
    database_url, fresh_database_url, run
):
    """The replica lacks the move a retried request was stored as: the answer is
    replayed from the primary's rows."""

    async def scenario() -> list[int]:
        async with replica_behind(database_url, fresh_database_url, "k") as found:
            store, game_id = found
            assert await store.read(game_id) == []  # the replica, before the look-up
            assert await store.find_idempotent(game_id, "k") == (2, None)
            return [event.version for event in await store.read(game_id, 1)]

    assert run(scenario()) == [2]


def test_a_page_of_events_is_never_older_than_the_version_the_caller_knows(
    database_url, fresh_database_url, run
):
    """A replica outside the synchronous set (one rejoining after a failover) may
    lack a move already answered: a read that knows the version (the game caught
    up on the primary) takes the page from the primary then."""

    async def scenario() -> tuple[list[int], list[int]]:
        async with replica_behind(database_url, fresh_database_url) as found:
            store, game_id = found
            unknowing = await store.read(game_id, 1, 1)
            knowing = await store.read(game_id, 1, 1, at_least=2)
            return [e.version for e in unknowing], [e.version for e in knowing]

    assert run(scenario()) == ([], [2])
