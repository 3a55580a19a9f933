"""What every `tablelog` command stands on: the database it works in, and the
application layer on it for the commands that read or write games."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import msgspec
from psycopg_pool import AsyncConnectionPool

from domain.registry import GAMES
from service.application.errors import Refused
from service.application.games import Games
from service.application.snapshots import key_from_file
from service.settings import Settings
from service.storage.migrate import migrate
from service.storage.pools import connection_pool
from service.storage.store import EventStore

_T = TypeVar("_T")


def run_on(
    data_dir: Path,
    opened: Callable[[Database], AbstractAsyncContextManager[_T]],
    work: Callable[[_T], Awaitable[None]],
) -> None:
    """Run `work` on what `opened` gives in the command's database (`database`);
    a refusal is printed, exit status 1."""

    async def main(where: Database) -> None:
        async with opened(where) as resource:
            await work(resource)

    try:
        with database(data_dir) as where:
            asyncio.run(main(where))
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


def snapshot_key(args: argparse.Namespace) -> bytes:
    """The key that signs the snapshots, from its file (made on first use); one
    that cannot be had ends the command, saying why."""
    try:
        return key_from_file(snapshot_key_file(args))
    except (OSError, ValueError) as error:
        sys.exit(
            f"tablelog: no key to sign the snapshots: {error} (name a file this "
            "user may write with --snapshot-key-file)"
        )


def signed(args: argparse.Namespace) -> Settings:
    """The command's settings, naming the file of the key that signs the snapshots
    (made on first use); a key that cannot be had ends the command, saying why."""
    snapshot_key(args)
    file = str(snapshot_key_file(args))
    return msgspec.structs.replace(args.settings, snapshot_key_file=file)


@asynccontextmanager
async def application(database: Database, snapshot_key: bytes) -> AsyncIterator[Games]:
    """The application layer on a migrated database, for commands run from the shell;
    `snapshot_key` signs the snapshots, as the service's does."""
    migrate(database.migrate)
    settings = Settings(database_url=database.serve, pool_min_size=1, pool_max_size=4)
    async with connection_pool(settings) as pool:
        yield Games.without_read_side(
            EventStore(pool),
            GAMES,
            cached_games=settings.cached_games,
            cached_moves=settings.cached_moves,
            snapshot_key=snapshot_key,
        )


@asynccontextmanager
async def owner_pool(database: Database) -> AsyncIterator[AsyncConnectionPool]:
    """A small pool logged in as the tables' owner, for work that changes the schema
    (a rebuild's new read models)."""
    settings = Settings(database_url=database.migrate, pool_min_size=1, pool_max_size=2)
    async with connection_pool(settings) as pool:
        yield pool
