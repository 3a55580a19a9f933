"""What every `tablelog` command stands on: the database it works in, and the
application layer on it for the commands that read or write games."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

from domain.registry import GAMES
from service.application.games import Games
from service.settings import Settings
from service.storage.migrate import migrate
from service.storage.store import EventStore, connection_pool


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "tablelog"


@contextmanager
def database(data_dir: Path) -> Iterator[str]:
    """DATABASE_URL when set; else an embedded PostgreSQL kept in `data_dir`."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
        return
    # Imported here: the embedded server's package is slow to import, and a command
    # given DATABASE_URL never needs it.
    from service.storage.embedded import embedded_postgres

    logging.getLogger(__name__).info("embedded PostgreSQL in %s", data_dir / "postgres")
    with embedded_postgres(data_dir / "postgres") as url:
        yield url


@asynccontextmanager
async def application(url: str) -> AsyncIterator[Games]:
    """The application layer on a migrated database, for commands run from the shell."""
    migrate(url)
    settings = Settings(database_url=url, pool_min_size=1, pool_max_size=4)
    async with connection_pool(settings) as pool:
        yield Games(EventStore(pool), GAMES)
