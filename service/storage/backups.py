"""Backups of a tablelog database by PostgreSQL's own tools, and their restore.

A backup is one file of pg_dump's custom format (`pg_restore --list FILE` reads it):
the schema, the grants and every row as of one snapshot, taken while the service
writes (pg_dump takes no lock that an append or a read waits for). The snapshots'
rows (`game_snapshots`, a disposable read model) are left out: the first read of a
game folds it from its log again.

A restore goes into a database that holds no tablelog tables (a new cluster, or a
new database on a server), all of it or nothing (one transaction), as the role that
runs the migrations, which then owns every table. The serving role `tablelog_app`
is made first when it is missing, so the grants in the file apply to it. Once
migrated, the log is set to go on after the restored events (`continue_the_log`).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import psycopg
from psycopg import errors
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from service.storage.embedded import client_program

__all__ = [
    "BackupFailed",
    "Contents",
    "back_up",
    "check_archive",
    "check_empty",
    "continue_the_log",
    "load",
    "make_serving_role",
]

SERVING = "tablelog_app"

# How far above the restored log the new transaction ids start. The server the
# backup was taken from may have gone on for a while before it was lost, and an app
# may hold a /feed cursor it took there since: that cursor is at most that server's
# horizon, so new events must sort after it too, or the app would never read them.
# 2^32 transactions are seven weeks at a thousand write transactions a second; the
# ids (xid8, below 2^63) have room for two billion such restores.
HEADROOM = 2**32


class BackupFailed(Exception):
    """A backup or restore that did not happen, and why, in words for the operator."""


@dataclass(frozen=True, slots=True)
class Contents:
    """What a backup holds: its games and events, and the latest event's time."""

    games: int
    events: int
    latest: datetime | None

    def __str__(self) -> str:
        latest = (
            ""
            if self.latest is None
            else f", the latest recorded {self.latest:%Y-%m-%d %H:%M:%S %Z}"
        )
        return (
            f"{counted(self.games, 'game')} and {counted(self.events, 'event')}{latest}"
        )


def counted(number: int, thing: str) -> str:
    """`1 game`, `1,234 games`."""
    return f"{number:,} {thing}{'' if number == 1 else 's'}"


_CONTENTS = """
    SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events),
           (SELECT max(recorded_at) FROM events)
"""


def back_up(conninfo: str, file: Path) -> Contents:
    """Write the database's backup to `file`; what it holds.

    pg_dump works in a snapshot exported by this function's own transaction, in
    which the games and events are counted: the counts are exactly the file's. That
    transaction only reads, so it takes no transaction id and holds back no reader
    of the log. The file is written beside `file` and renamed onto it once whole,
    readable by its owner only: it holds the webhooks' secrets and the hashes of the
    write tokens and app keys.
    """
    with psycopg.connect(conninfo) as conn:
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        conn.read_only = True
        schema = _schema_of_the_log(conn)
        if schema is None:
            raise BackupFailed(
                "the database holds no tablelog tables: nothing to back up"
            )
        (snapshot,) = conn.execute("SELECT pg_export_snapshot()").fetchone()
        contents = Contents(*conn.execute(_CONTENTS).fetchone())
        partial = file.with_name(file.name + ".partial")
        try:
            _create_private(partial)
        except OSError as error:
            raise BackupFailed(f"cannot write {partial}: {error.strerror}") from None
        try:
            _run(
                "pg_dump",
                conninfo,
                "--format=custom",
                f"--snapshot={snapshot}",
                f"--exclude-table-data={_quoted(schema)}.game_snapshots",
                f"--file={partial}",
            )
            partial.replace(file)
        finally:
            partial.unlink(missing_ok=True)
    return contents


def check_archive(file: Path) -> None:
    """Refuse a file that is not a backup of a tablelog database."""
    if not file.is_file():
        raise BackupFailed(f"{file} is not a file")
    listing = _run("pg_restore", None, "--list", str(file))
    if not any(_is_table_data(line, "events") for line in listing.splitlines()):
        raise BackupFailed(f"{file} is not a backup of tablelog: it has no events")


def check_empty(conninfo: str) -> None:
    """Refuse a database that holds tablelog's tables, saying what it holds."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        if _schema_of_the_log(conn) is None:
            return
        (games,) = conn.execute("SELECT count(*) FROM games").fetchone()
    if games:
        raise BackupFailed(
            f"the database already holds {counted(games, 'game')}: a restore goes "
            "only into an empty database (a new --data-dir, or a new database)"
        )
    raise BackupFailed(
        "the database already has tablelog's tables (without games): a restore goes "
        "only into an empty database (a new --data-dir, or a new database)"
    )


def make_serving_role(conninfo: str) -> bool:
    """Create the serving role unless it exists (the grants in a backup name it);
    whether it was created. It is made as migrations/0006 makes it: a group role
    that cannot log in."""
    with psycopg.connect(conninfo, autocommit=True) as conn:
        found = conn.execute(
            "SELECT FROM pg_roles WHERE rolname = %s", (SERVING,)
        ).fetchone()
        if found is not None:
            return False
        try:
            conn.execute(f"CREATE ROLE {SERVING} NOLOGIN")
        except errors.InsufficientPrivilege:
            (user,) = conn.execute("SELECT current_user").fetchone()
            raise BackupFailed(
                f"the role {SERVING} does not exist, and {user} may not create it "
                f"(that takes CREATEROLE): create it first (CREATE ROLE {SERVING})"
            ) from None
    return True


def load(conninfo: str, file: Path) -> Contents:
    """Load the backup into the database, in one transaction: all of it or nothing.

    Every object is created by the role of `conninfo`, which owns it then, whoever
    owned it where the backup was made (`--no-owner`); the grants are as in the
    file."""
    _run(
        "pg_restore",
        conninfo,
        "--no-owner",
        "--single-transaction",
        str(file),
    )
    with psycopg.connect(conninfo, autocommit=True) as conn:
        return Contents(*conn.execute(_CONTENTS).fetchone())


_RESTORED_TOP = """
    SELECT greatest(
        (SELECT max(transaction_id)::text::bigint FROM events),
        (SELECT max(transaction) FROM projection_checkpoints),
        (SELECT max(transaction) FROM webhook_checkpoints))
"""


def continue_the_log(conninfo: str) -> int:
    """Set the log's offset (migrations/0019) so that every event stored from now
    on sorts after every restored event and checkpoint, by HEADROOM; the least
    transaction id new events get.

    This cluster hands out transaction ids of its own, from wherever its counter
    stands: usually far below the restored ids, and new events would sort before
    the followers' checkpoints. Every transaction begun after this one gets a
    higher id, so the offset is reckoned from its id, in it. Only the owner may
    redefine the function (the serving role cannot move the log's order), declared
    as the migration declares it; redefining it invalidates the plans that folded
    the old value in."""
    with psycopg.connect(conninfo) as conn, conn.transaction():
        (top,) = conn.execute(_RESTORED_TOP).fetchone()
        (now,) = conn.execute("SELECT pg_current_xact_id()::text::bigint").fetchone()
        start = (top or 0) + HEADROOM
        offset = max(0, start - now)
        conn.execute(
            "CREATE OR REPLACE FUNCTION log_offset() RETURNS bigint"
            f" LANGUAGE sql STABLE PARALLEL SAFE RETURN {int(offset)}"
        )
    return now + 1 + offset


def _schema_of_the_log(conn: psycopg.Connection) -> str | None:
    """The schema of the `events` table the service finds, None if it finds none."""
    found = conn.execute(
        "SELECT n.nspname FROM pg_class c JOIN pg_namespace n"
        " ON n.oid = c.relnamespace WHERE c.oid = to_regclass('events')"
    ).fetchone()
    return None if found is None else found[0]


def _is_table_data(line: str, table: str) -> bool:
    # A listing's line: `123; 0 16390 TABLE DATA public events tablelog_owner`.
    words = line.split()
    return "TABLE DATA" in line and len(words) >= 2 and words[-2] == table


def _quoted(name: str) -> str:
    """A name as pg_dump's patterns take it literally."""
    return '"' + name.replace('"', '""') + '"'


def _create_private(path: Path) -> None:
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    path.chmod(0o600)  # an older partial file kept its mode


def _run(program: str, conninfo: str | None, *args: str) -> str:
    """Run one of PostgreSQL's client programs; its output. The password, if the
    conninfo has one, goes in the environment, not on the command line, where
    every user of the host could read it."""
    command = [str(client_program(program)), *args]
    env = dict(os.environ)
    if conninfo is not None:
        params = conninfo_to_dict(conninfo)
        if password := params.pop("password", None):
            env["PGPASSWORD"] = str(password)
        command.append(f"--dbname={make_conninfo(**params)}")
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupFailed(done.stderr.strip() or f"{program} failed")
    return done.stdout
