"""Apply the numbered SQL files in migrations/ to a database, each exactly once."""

from __future__ import annotations

import re
from pathlib import Path

import psycopg

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"

# Any fixed number shared by every tablelog process: the key of the advisory lock that
# lets only one process migrate a database at a time.
_MIGRATION_LOCK = 0x7461626C656C6F67  # "tablelog"

_NAME = re.compile(r"^(\d+)_[A-Za-z0-9_]+\.sql$")


def migrate(conninfo: str) -> list[str]:
    """Apply the pending migrations in numeric order; return the names applied.

    Each file runs in its own transaction together with its row in
    schema_migrations, so a failure leaves the database at the previous migration.
    Two processes starting together (two app workers, the CLI next to the server)
    are serialised by a session advisory lock: the second waits, then finds nothing
    left to do.
    """
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
        for path in migration_files():
            if path.name in done:
                continue
            with conn.transaction():
                conn.execute(path.read_text(encoding="utf-8"))
                conn.execute(
                    "INSERT INTO schema_migrations (name) VALUES (%s)", (path.name,)
                )
            applied.append(path.name)
    return applied


def migration_files(directory: Path = MIGRATIONS_DIR) -> list[Path]:
    """The migration files in the order they apply: by number, not by name."""
    numbered: dict[int, Path] = {}
    for path in directory.glob("*.sql"):
        match = _NAME.match(path.name)
        if match is None:
            raise ValueError(f"{path.name}: a migration is named like 0001_what.sql")
        number = int(match.group(1))
        if number in numbered:
            raise ValueError(f"{path.name} and {numbered[number].name} share {number}")
        numbered[number] = path
    return [numbered[number] for number in sorted(numbered)]
