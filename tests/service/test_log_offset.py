"""The log's offset (migrations/0019): the database's constant that `tablelog
restore` sets so that a restored log goes on in order. Only the owner may set it,
and appends prepared before it changed take the new one."""

from __future__ import annotations

import asyncio
import uuid

import psycopg
import pytest

import service.storage.migrate as migrations
from service.settings import Settings
from service.storage.migrate import migrate, migration_files
from service.storage.pools import connection_pool
from service.storage.store import EventStore, NewGameRow
from tests.support.processes import tablelog_on

# Statements the serving role might try, to move the log's order or to read it
# through a function of its own.
MOVING_THE_LOG = [
    "CREATE OR REPLACE FUNCTION log_offset() RETURNS bigint LANGUAGE sql STABLE"
    " RETURN 1000000",
    "ALTER FUNCTION log_offset() RENAME TO log_offset_before",
    "DROP FUNCTION log_offset() CASCADE",
    "CREATE OR REPLACE FUNCTION log_horizon() RETURNS xid8 LANGUAGE sql STABLE"
    " RETURN '0'::xid8",
    "ALTER TABLE events ALTER COLUMN transaction_id SET DEFAULT '0'::xid8",
    # A schema named after the role comes first on the default search_path.
    "CREATE SCHEMA tablelog_app",
]


@pytest.mark.parametrize("statement", MOVING_THE_LOG)
def test_the_serving_role_cannot_move_the_log(fresh_database_url, statement):
    with psycopg.connect(fresh_database_url, autocommit=True) as conn:
        conn.execute("SET ROLE tablelog_app")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(statement)
        (offset,) = conn.execute("SELECT log_offset()").fetchone()
    assert offset == 0


# Appends run before the offset changes: enough for their plan to be kept.
PREPARED = 20


def _game() -> NewGameRow:
    return NewGameRow(
        id=uuid.uuid4(),
        game="dobro",
        players=("Ann", "Bob"),
        first_player="Ann",
        seed=3,
        options={},
        token_hash=b"\0" * 32,
    )


def test_an_offset_set_reaches_the_appends_already_prepared(fresh_database_url):
    """The appends are prepared statements, whose plans folded the offset in: a new
    offset must reach them (a STABLE function's plans are invalidated when it is
    redefined; an IMMUTABLE one's would keep the old value)."""
    offset = 10**12

    async def appended_ids() -> list[int]:
        settings = Settings(
            database_url=fresh_database_url, pool_min_size=1, pool_max_size=1
        )
        async with connection_pool(settings) as pool:
            store = EventStore(pool)
            game = _game()
            await store.create_game(game, "game_created", b"{}")
            # psycopg prepares a statement at its 5th run, and PostgreSQL plans
            # it afresh for 5 runs more before it keeps one generic plan.
            for version in range(2, 2 + PREPARED + 3):
                if version == 2 + PREPARED:
                    _set_offset(fresh_database_url, offset)
                await store.append(game.id, version, "play", b"{}")
        with psycopg.connect(fresh_database_url) as conn:
            rows = conn.execute(
                "SELECT transaction_id::text::bigint FROM events ORDER BY version"
            ).fetchall()
        return [id for (id,) in rows]

    ids = asyncio.run(appended_ids())
    before, after = ids[: 1 + PREPARED], ids[1 + PREPARED :]
    assert all(id < offset for id in before)
    assert len(after) == 3 and all(id > offset for id in after)
    assert ids == sorted(ids)


def _set_offset(conninfo: str, offset: int) -> None:
    with psycopg.connect(conninfo, autocommit=True) as conn:
        conn.execute(
            "CREATE OR REPLACE FUNCTION log_offset() RETURNS bigint"
            f" LANGUAGE sql STABLE PARALLEL SAFE RETURN {offset}"
        )


def test_a_backup_of_an_older_release_comes_back_migrated_and_in_order(
    create_database, fresh_database_url, monkeypatch, tmp_path
):
    older = create_database()
    files = migration_files()
    with monkeypatch.context() as patched:
        patched.setattr(migrations, "migration_files", lambda: files[:-1])
        migrate(older)
    with psycopg.connect(older) as conn:
        game = uuid.uuid4()
        conn.execute(
            "INSERT INTO games (id, game, players, first_player, seed, token_hash)"
            " VALUES (%s, 'dobro', '{Ann,Bob}', 'Ann', 3, '\\x00')",
            (game,),
        )
        conn.execute(
            "INSERT INTO events (game_id, version, type, data)"
            " VALUES (%s, 1, 'game_created', '{}')",
            (game,),
        )
    backup = tmp_path / "older.backup"
    done = tablelog_on(older, "backup", str(backup))
    assert done.returncode == 0, done.stderr
    assert "bytes): 1 game and 1 event, the latest recorded " in done.stdout

    restored = create_database()
    done = tablelog_on(restored, "restore", str(backup))
    assert done.returncode == 0, done.stderr
    assert f"applied: {files[-1].name}" in done.stdout, done.stdout
    with psycopg.connect(restored, autocommit=True) as conn:
        applied = conn.execute("SELECT name FROM schema_migrations ORDER BY name")
        assert [name for (name,) in applied] == sorted(f.name for f in files)
        conn.execute("SET ROLE tablelog_app")
        (readable,) = conn.execute(
            "SELECT count(*) FROM events WHERE transaction_id < log_horizon()"
        ).fetchone()
        (above,) = conn.execute(
            "SELECT log_transaction_id() > max(transaction_id) FROM events"
        ).fetchone()
    assert readable == 1 and above

    refusals = {
        restored: "already holds 1 game:",
        fresh_database_url: "already has tablelog's tables (without games)",
    }
    for holding, said in refusals.items():
        again = tablelog_on(holding, "restore", str(backup))
        assert again.returncode == 1
        assert said in again.stderr.strip().splitlines()[-1], again.stderr
