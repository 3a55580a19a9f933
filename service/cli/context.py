"""What every `tablelog` command stands on: the database it works in, and the
process built on it (`service/bootstrap.py`) for the commands that read or write
games."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import msgspec

from service import bootstrap
from service.application.errors import Refused
from service.application.snapshots import key_from_file
from service.bootstrap import Service
from service.settings import Settings


def run_on(
    data_dir: Path, chosen: Settings, work: Callable[[Service], Awaitable[None]]
) -> None:
    """Run `work` on a shell command's process (`bootstrap.shell`) in the command's
    database (`database`), with the settings `chosen`; a refusal is printed, exit
    status 1."""

    async def main(settings: Settings) -> None:
        async with bootstrap.shell(settings) as service:
            await work(service)

    try:
        with database(data_dir) as where:
            asyncio.run(main(where.shell(chosen)))
    except Refused as refusal:
        sys.exit(f"tablelog: {refusal.detail}")


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tablelog"


@dataclass(frozen=True, slots=True)
class Database:
    """Where a command works: `serve` is the serving role's conninfo (SELECT and
    INSERT on the log, the read models), `migrate` the owner's, which runs the
    migrations, and `read` the read replicas' (None: reads go to `serve`)."""

    serve: str
    migrate: str
    read: str | None = None

    def serving(self, chosen: Settings) -> Settings:
        """The settings `chosen` of a process serving this database."""
        return msgspec.structs.replace(
            chosen,
            database_url=self.serve,
            migration_database_url=self.migrate,
            database_read_url=self.read,
        )

    def shell(self, chosen: Settings) -> Settings:
        """The settings `chosen` of a command run from the shell: the serving
        role's, on the primary alone."""
        return msgspec.structs.replace(
            chosen, database_url=self.serve, migration_database_url=self.migrate
        )

    def as_owner(self, chosen: Settings) -> Settings:
        """The settings `chosen` of work that changes the schema (a rebuild's new
        read models), logged in as the tables' owner."""
        return msgspec.structs.replace(
            chosen, database_url=self.migrate, migration_database_url=self.migrate
        )


@contextmanager
def database(data_dir: Path) -> Iterator[Database]:
    """DATABASE_URL (and MIGRATION_DATABASE_URL, by default the same, and the
    replicas' DATABASE_READ_URL, by default none) when set; else an embedded
    PostgreSQL kept in `data_dir`, with an owner and a serving role."""
    url = os.environ.get("DATABASE_URL")
    if url:
        owner = os.environ.get("MIGRATION_DATABASE_URL") or url
        replicas = os.environ.get("DATABASE_READ_URL") or None
        yield Database(serve=url, migrate=owner, read=replicas)
        return
    # Imported here: the embedded server's package is slow to import, and a command
    # given DATABASE_URL never needs it.
    from service.storage.embedded import embedded_postgres, with_roles

    logging.getLogger(__name__).info("embedded PostgreSQL in %s", data_dir / "postgres")
    with embedded_postgres(data_dir / "postgres") as superuser:
        roles = with_roles(superuser)
        yield Database(serve=roles.app, migrate=roles.owner)


def snapshot_key_file(args: argparse.Namespace) -> Path:
    """--snapshot-key-file, else snapshot.key in --data-dir: beside the embedded
    server's cluster (in postgres/), never inside the database."""
    chosen = args.settings.snapshot_key_file
    return Path(chosen) if chosen else args.data_dir / "snapshot.key"


def signed(args: argparse.Namespace) -> Settings:
    """The command's settings, naming the file of the key that signs the snapshots
    (made on first use); a key that cannot be had ends the command, saying why."""
    file = snapshot_key_file(args)
    try:
        key_from_file(file)
    except (OSError, ValueError) as error:
        sys.exit(
            f"tablelog: no key to sign the snapshots: {error} (name a file this "
            "user may write with --snapshot-key-file)"
        )
    return msgspec.structs.replace(args.settings, snapshot_key_file=str(file))
