"""Apply the numbered SQL files of the `migrations` package to a database, each
exactly once."""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable

import psycopg

# Any fixed number shared by every tablelog process: the key of the advisory lock that
# lets only one process migrate a database at a time.
_MIGRATION_LOCK = 0x7461626C656C6F67  # "tablelog"

_NAME = re.compile(r"^(\d+)_[A-Za-z0-9_]+\.sql$")


class MigrationsMissing(RuntimeError):
    """The package holds no migration files: an incomplete install. Starting on an
    empty schema would answer 503 to every request for ever, so tablelog stops."""


def migrate(conninfo: str) -> list[str]:
    """Apply the pending migrations in numeric order; return the names applied.

    Each file runs in its own transaction together with its row in
    schema_migrations, so a failure leaves the database at the previous migration.
    Two processes starting together (two app workers, the CLI next to the server)
    are serialised by a session advisory lock: the second waits, then finds nothing
    left to do.
    """
    files = migration_files()  # before connecting: a broken install fails first
    applied: list[str] = []
    with psycopg.connect(conninfo, autocommit=True) as conn:
        # Released when the connection closes, also when a migration fails.
        conn.execute("SELECT pg_advisory_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " name text PRIMARY KEY,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {name for (name,) in conn.execute("SELECT name FROM schema_migrations")}
        for file in files:
            if file.name in done:
                continue
            with conn.transaction():
                conn.execute(file.read_text(encoding="utf-8"))
                _grant_serving_role(conn)
                conn.execute(
                    "INSERT INTO schema_migrations (name) VALUES (%s)", (file.name,)
                )
            applied.append(file.name)
    return applied


def _grant_serving_role(conn: psycopg.Connection) -> None:
    """Give the serving role its rights on the tables as they now are.

    The policy lives in the database (migrations/0006_least_privilege.sql): SELECT and
    INSERT on append-only tables, read and write on the others. Applied after every
    migration, in its transaction, so a table a later migration adds is covered
    without naming it; before 0006 there is nothing to apply.
    """
    found = conn.execute("SELECT to_regprocedure('grant_serving_role()')").fetchone()
    if found is not None and found[0] is not None:
        conn.execute("SELECT grant_serving_role()")


def migration_files(directory: Traversable | None = None) -> list[Traversable]:
    """The migration files in the order they apply: by number, not by name.

    `directory` defaults to the `migrations` package's own folder. An empty one is
    an error, never an empty list.
    """
    if directory is None:
        try:
            directory = resources.files("migrations")
        except ModuleNotFoundError:
            raise MigrationsMissing(
                "The `migrations` package is not installed: this tablelog install is "
                "incomplete (reinstall the package; its wheel ships migrations/*.sql)."
            ) from None
    numbered: dict[int, Traversable] = {}
    for file in directory.iterdir():
        if not file.name.endswith(".sql"):
            continue
        match = _NAME.match(file.name)
        if match is None:
            raise ValueError(f"{file.name}: a migration is named like 0001_what.sql")
        number = int(match.group(1))
        if number in numbered:
            raise ValueError(f"{file.name} and {numbered[number].name} share {number}")
        numbered[number] = file
    if not numbered:
        raise MigrationsMissing(
            f"No migration files in {directory}: this tablelog install is incomplete "
            "(reinstall the package; its wheel ships migrations/*.sql)."
        )
    return [numbered[number] for number in sorted(numbered)]
