"""Least privilege in the database.

The service serves as the role the migrations grant (tablelog_app): it may read and
append to the log and keep the read models, and it cannot rewrite history, even by
the superuser's ways around the append-only triggers. The test logs in as a role of
its own that is a member of tablelog_app, as an operator's login role would be.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import msgspec
import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import make_conninfo
from psycopg_pool import AsyncConnectionPool

from domain.registry import BUILT_IN
from service.application.timeline import Timelines
from service.readside.projector import Projector
from service.settings import Settings
from service.storage import readiness
from service.storage.migrate import migrate
from service.storage.pools import connection_pool
from service.storage.store import EventStore
from tests.support.http import create, move, simulated_moves
from tests.support.server import running_server


@pytest.fixture(scope="module")
def owner_url(create_database) -> str:
    """A database migrated by its owner (here the server's superuser)."""
    url = create_database()
    migrate(url)
    return url


@pytest.fixture(scope="module")
def serving_url(owner_url) -> Iterator[str]:
    """A login role with exactly tablelog_app's rights, on that database."""
    with serving_role(owner_url) as url:
        yield url


@contextmanager
def serving_role(owner_url: str) -> Iterator[str]:
    """A login role made a member of tablelog_app, for as long as the block runs."""
    name = f"tablelog_test_{uuid.uuid4().hex[:12]}"
    password = uuid.uuid4().hex
    with psycopg.connect(owner_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE ROLE {} LOGIN PASSWORD {} IN ROLE tablelog_app").format(
                sql.Identifier(name), sql.Literal(password)
            )
        )
    try:
        yield make_conninfo(owner_url, user=name, password=password)
    finally:
        # Roles belong to the whole server, which may outlive the session.
        with psycopg.connect(owner_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))


@pytest.fixture(scope="module")
def served(serving_url, owner_url) -> Iterator[httpx.Client]:
    """The service connected as the serving role; it migrates as the owner."""
    with (
        running_server(serving_url, migration_database_url=owner_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        yield client


def test_the_service_is_ready_as_the_serving_role(served):
    """Readiness reads the migrations applied, as the serving role."""
    answer = served.get("/health/ready")
    assert (answer.status_code, answer.json()) == (200, {"status": "ok"}), answer.text


def test_a_serving_role_that_may_not_read_the_migrations_is_not_ready(
    create_database, run, caplog
):
    """Not a 500 and a traceback per probe: a 503 whose reason says what to do."""
    url = create_database()
    migrate(url)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("REVOKE SELECT ON schema_migrations FROM tablelog_app")
    with serving_role(url) as serving:

        async def asked() -> list[str]:
            async with AsyncConnectionPool(serving, min_size=1, open=False) as pool:
                return await readiness.unready(pool, writes=True)

        reasons = run(asked())
    assert reasons == [
        "The serving role may not read schema_migrations: apply the migrations "
        "(0012 grants it) as the tables' owner."
    ]
    assert not any(record.exc_info for record in caplog.records)


def test_the_service_works_end_to_end_as_the_serving_role(served, serving_url):
    game = create(served, game="dobro", players=["Ann", "Bob"], seed=5)
    for body in list(simulated_moves(game))[:5]:
        answer = move(served, game, msgspec.to_builtins(body))
        assert answer.status_code == 201, answer.text
    assert served.get(f"/games/{game['id']}/events").status_code == 200
    # The projection runner (UPDATE on its checkpoint, upserts) keeps the list.
    for _ in range(100):
        listed = served.get("/games", params={"player": "Ann"}).json()
        if any(g["id"] == game["id"] and g["version"] == 6 for g in listed["games"]):
            break
        time.sleep(0.1)
    else:
        pytest.fail("the game never reached the list")
    with psycopg.connect(serving_url) as conn:
        assert (
            conn.execute("SELECT current_user")
            .fetchone()[0]
            .startswith("tablelog_test_")
        )


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE events SET type = 'rewritten'",
        "DELETE FROM events",
        "TRUNCATE events",
        "UPDATE games SET title = 'rewritten'",
        "DELETE FROM games",
        "TRUNCATE games",
        "ALTER TABLE events DISABLE TRIGGER events_append_only",
        "ALTER TABLE events DISABLE TRIGGER ALL",
        "SET session_replication_role = replica",
        "DROP TABLE events",
        "INSERT INTO schema_migrations (name) VALUES ('9999_forged.sql')",
        "SELECT setval(pg_get_serial_sequence('events', 'position'), 1)",
        "CREATE TABLE events_copy (id int)",
    ],
)
def test_the_serving_role_cannot_rewrite_history(serving_url, statement):
    with (
        psycopg.connect(serving_url, autocommit=True) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute(statement)


def test_a_table_a_later_migration_adds_is_granted_without_naming_it(
    owner_url, serving_url
):
    """What the migrations runner does after every migration: a read model (no
    append-only trigger) gets read and write, a log table only SELECT and INSERT."""
    with psycopg.connect(owner_url) as conn:
        conn.execute("CREATE TABLE later_read_model (id int PRIMARY KEY)")
        conn.execute("CREATE TABLE later_log (id int PRIMARY KEY)")
        conn.execute(
            "CREATE TRIGGER later_log_append_only BEFORE UPDATE OR DELETE OR TRUNCATE"
            " ON later_log FOR EACH STATEMENT"
            " EXECUTE FUNCTION refuse_change_to_append_only_table()"
        )
        conn.execute("SELECT grant_serving_role()")
    try:
        with psycopg.connect(serving_url, autocommit=True) as conn:
            conn.execute("INSERT INTO later_read_model VALUES (1)")
            conn.execute("UPDATE later_read_model SET id = 2")
            conn.execute("DELETE FROM later_read_model")
            conn.execute("INSERT INTO later_log VALUES (1)")
            assert conn.execute("SELECT count(*) FROM later_log").fetchone() == (1,)
            for statement in ("DELETE FROM later_log", "TRUNCATE later_read_model"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
    finally:
        with psycopg.connect(owner_url, autocommit=True) as conn:
            conn.execute("DROP TABLE later_read_model, later_log")


def _read_model_names(conninfo: str) -> list[tuple[str, str]]:
    """The read models' indexes and constraints, by table."""
    with psycopg.connect(conninfo) as conn:
        return conn.execute(
            "SELECT conrelid::regclass::text, conname FROM pg_constraint"
            " WHERE conrelid IN ('game_summaries'::regclass,"
            "                    'projection_failures'::regclass)"
            " UNION SELECT tablename, indexname FROM pg_indexes"
            " WHERE tablename IN ('game_summaries', 'projection_failures')"
            " ORDER BY 1, 2"
        ).fetchall()


def test_a_rebuild_by_the_owner_leaves_the_serving_role_its_rights(
    served, owner_url, serving_url, run
):
    game = create(served, game="dobro", players=["Ann", "Eve"], seed=7)
    before = _read_model_names(owner_url)

    async def rebuild() -> int:
        settings = Settings(database_url=owner_url, pool_min_size=1)
        async with connection_pool(settings) as pool:
            store = EventStore(pool)
            return await Projector(pool, store, Timelines(store, BUILT_IN)).rebuild()

    assert run(rebuild()) >= 1
    # The new tables bear the names a later migration knows the old ones by.
    assert _read_model_names(owner_url) == before
    # The server's runner, as the serving role, keeps the new list current.
    for body in list(simulated_moves(game))[:2]:
        assert move(served, game, msgspec.to_builtins(body)).status_code == 201
    for _ in range(100):
        listed = served.get("/games", params={"player": "Eve"}).json()["games"]
        if [(g["id"], g["version"]) for g in listed] == [(game["id"], 3)]:
            break
        time.sleep(0.1)
    else:
        pytest.fail("the game's moves never reached the rebuilt list")
    with psycopg.connect(serving_url) as conn:
        # Its bookkeeping too: the runner empties and fills projection_failures.
        conn.execute("DELETE FROM projection_failures WHERE false")
