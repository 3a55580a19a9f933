"""`tablelog backup` and `tablelog restore`: the service's database to one file and
back, on DATABASE_URL (MIGRATION_DATABASE_URL's role) or the embedded server in
--data-dir, with the PostgreSQL tools shipped with the embedded server
(service/storage/backups.py)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from service.cli.context import database
from service.storage import backups
from service.storage.backups import BackupFailed
from service.storage.migrate import migrate


def add_commands(command: Callable[..., argparse.ArgumentParser]) -> None:
    """Register the commands with `tablelog`'s parser (`command` as in service.cli)."""
    backup = command(
        "backup",
        "Write a backup of the database to FILE (pg_dump's custom format), while "
        "the service serves.",
        run_backup,
    )
    backup.add_argument("file", type=Path, metavar="FILE")
    restore = command(
        "restore",
        "Restore a backup into an empty database (a new --data-dir, or a new "
        "database), then migrate it.",
        run_restore,
    )
    restore.add_argument("file", type=Path, metavar="FILE")


def run_backup(args: argparse.Namespace) -> None:
    file: Path = args.file.resolve()
    with _refusals(), database(args.data_dir) as where:
        print(f"backing up to {file}", flush=True)
        contents = backups.back_up(where.migrate, file)
    size = file.stat().st_size
    print(f"backed up to {file} ({size:,} bytes): {contents}")


def run_restore(args: argparse.Namespace) -> None:
    file: Path = args.file.resolve()
    with _refusals():
        backups.check_archive(file)
        with database(args.data_dir) as where:
            backups.check_empty(where.migrate)
            if backups.make_serving_role(where.migrate):
                print(f"created the role {backups.SERVING}", flush=True)
            print(f"restoring {file}", flush=True)
            contents = backups.load(where.migrate, file)
            print(f"loaded {contents}", flush=True)
            applied = migrate(where.migrate)
            if applied:
                print("applied: " + ", ".join(applied), flush=True)
            start = backups.continue_the_log(where.migrate)
    print(f"new events follow the restored ones (transaction ids from {start:,})")
    print(f"restored {file}: the database is ready to serve")


@contextmanager
def _refusals() -> Iterator[None]:
    """A backup or restore refused, or a database that did not answer: the reason
    on stderr as `tablelog: ...`, exit status 1."""
    try:
        yield
    except (BackupFailed, psycopg.Error) as error:
        sys.exit(f"tablelog: {error}")
