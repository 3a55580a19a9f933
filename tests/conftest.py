"""A real PostgreSQL for the tests that need one, started once per session.

The server is, in order of preference: the one TEST_DATABASE_URL points at; a
testcontainers PostgreSQL when a Docker daemon answers; else an embedded server in a
temporary directory. Each session works in databases of its own on that server.

Async code runs on plain asyncio: a test takes `run` and calls `run(coroutine)`; the
`store` fixture's pool lives on the same event loop.

    def test_something(store, run):
        event = run(store.append(game_id, 2, "play", b'{"cards": [5]}'))
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import tempfile
import uuid
from collections.abc import Callable, Coroutine, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any, TypeVar

import httpx
import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo

from service.settings import Settings
from service.storage.migrate import migrate
from service.storage.pools import connection_pool
from service.storage.store import EventStore
from tests.support.server import running_server

T = TypeVar("T")


@pytest.fixture(scope="session", autouse=True)
def _data_home_of_its_own() -> Iterator[None]:
    """Every `tablelog` a test runs keeps what it keeps by default (the snapshot
    key of --data-dir) in a folder of the session's, never in the user's home."""
    before = os.environ.get("XDG_DATA_HOME")
    with tempfile.TemporaryDirectory(prefix="tablelog-test-data-") as home:
        os.environ["XDG_DATA_HOME"] = home
        try:
            yield
        finally:
            if before is None:
                os.environ.pop("XDG_DATA_HOME", None)
            else:
                os.environ["XDG_DATA_HOME"] = before


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that asks for PostgreSQL, through any fixture that needs
    `postgres_server`, is marked `db`. One that needs a database or a server another
    way (a `tablelog serve` on its own embedded PostgreSQL, a browser, a wheel built)
    says so with `pytest.mark.db` itself. `pytest -m "not db"` runs the rest."""
    for item in items:
        if "postgres_server" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.db)


class PostgresServer:
    """A server the session may create databases on; it drops them when asked."""

    def __init__(self, conninfo: str, *, drop_on_close: bool) -> None:
        self.conninfo = conninfo
        self._drop_on_close = drop_on_close
        self._created: list[str] = []

    def create_database(self) -> str:
        """A new empty database; its conninfo."""
        name = f"tablelog_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        self._created.append(name)
        return make_conninfo(self.conninfo, dbname=name)

    def close(self) -> None:
        # Only a server that outlives the session (TEST_DATABASE_URL) needs cleaning.
        if not self._drop_on_close:
            return
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            for name in self._created:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                        sql.Identifier(name)
                    )
                )


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    with ExitStack() as stack:
        if url := os.environ.get("TEST_DATABASE_URL"):
            server = PostgresServer(url, drop_on_close=True)
        elif _docker_daemon_answers():
            server = PostgresServer(_container_url(stack), drop_on_close=False)
        else:
            server = PostgresServer(_embedded_url(stack), drop_on_close=False)
        stack.callback(server.close)
        yield server


@pytest.fixture(scope="session")
def create_database(postgres_server: PostgresServer) -> Callable[[], str]:
    """Make a new empty (unmigrated) database on the session's server."""
    return postgres_server.create_database


@pytest.fixture(scope="session")
def database_url(create_database: Callable[[], str]) -> str:
    """A database shared by the session, migrated once: never assume it is empty."""
    url = create_database()
    migrate(url)
    return url


@pytest.fixture
def fresh_database_url(create_database: Callable[[], str]) -> str:
    """A new migrated database of the test's own: for tests that read every event."""
    url = create_database()
    migrate(url)
    return url


@pytest.fixture
def run() -> Iterator[Callable[[Coroutine[Any, Any, T]], T]]:
    """Run a coroutine to completion on the test's event loop."""
    with asyncio.Runner() as runner:
        yield runner.run


@pytest.fixture
def store(database_url: str, run: Callable[..., Any]) -> Iterator[EventStore]:
    """An EventStore over the session database, its pool on the `run` event loop."""
    settings = Settings(database_url=database_url, pool_min_size=1, pool_max_size=8)
    pool = connection_pool(settings)
    run(pool.open(wait=True, timeout=10))
    try:
        yield EventStore(pool)
    finally:
        run(pool.close())


def _docker_daemon_answers() -> bool:
    """Whether a Docker daemon answers /_ping, asked in well under a second.

    Asked by hand: docker's client leaves its socket to the garbage collector when
    no daemon listens, and that ResourceWarning would fail some later test.
    """
    host = os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")
    try:
        if host.startswith("unix://"):
            conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            address: Any = host.removeprefix("unix://")
        elif host.startswith("tcp://"):
            hostname, _, port = host.removeprefix("tcp://").partition(":")
            conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            address = (hostname, int(port or 2375))
        else:
            return False
        with conn:
            conn.settimeout(0.5)
            conn.connect(address)
            conn.sendall(b"GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n")
            return conn.recv(32).split(b" ")[1:2] == [b"200"]
    except (OSError, ValueError):
        return False


def _container_url(stack: ExitStack) -> str:
    from testcontainers.community.postgres import PostgresContainer

    container = stack.enter_context(PostgresContainer("postgres:17-alpine"))
    return container.get_connection_url(driver=None)


def _embedded_url(stack: ExitStack) -> str:
    from service.storage.embedded import embedded_postgres

    # Under /tmp rather than pytest's tmp_path: as root the server runs as another
    # user, and pytest makes its own base directory private again at every session.
    directory = Path(tempfile.mkdtemp(prefix="tablelog-test-pg-"))
    stack.callback(shutil.rmtree, directory, ignore_errors=True)
    url = stack.enter_context(embedded_postgres(directory / "data"))
    # The cluster is thrown away at the end of the session, so durability buys
    # nothing; without the flushes, creating databases and stopping take a fraction
    # of the time on a busy disk.
    with psycopg.connect(url, autocommit=True) as conn:
        for setting in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.execute(sql.SQL("ALTER SYSTEM SET {} = off").format(sql.SQL(setting)))
        conn.execute("SELECT pg_reload_conf()")
    return url


# A running service over real HTTP, shared by a test module, on the session database.
@pytest.fixture(scope="module")
def client(database_url):
    with (
        running_server(database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        yield client


@pytest.fixture
def stored_rows(database_url):
    """How many games and events the service's database holds, counted on call."""

    def count() -> tuple[int, int]:
        with psycopg.connect(database_url) as conn:
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        return games, events

    return count
