"""The bench's own databases: on an embedded PostgreSQL in a temporary directory, or
on the server DATABASE_URL names; one new database per measurement, dropped after.

The embedded server keeps PostgreSQL's defaults (fsync and synchronous commit on): the
write figures are about durable writes.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from service.storage.migrate import migrate


class Server:
    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self._created: list[str] = []

    def database(self, purpose: str, *, migrated: bool = True) -> str:
        """A new database for one measurement; its conninfo."""
        name = f"tablelog_bench_{purpose}_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        self._created.append(name)
        url = make_conninfo(self.conninfo, dbname=name)
        if migrated:
            migrate(url)
        return url

    def drop_all(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            for name in self._created:
                conn.execute(
                    sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
                        sql.Identifier(name)
                    )
                )


@contextmanager
def server() -> Iterator[Server]:
    """DATABASE_URL's server when set, else an embedded one thrown away after."""
    with ExitStack() as stack:
        url = os.environ.get("DATABASE_URL")
        if not url:
            from service.storage.embedded import embedded_postgres

            # Under /tmp itself: run as root, the server runs as a user of its own.
            directory = Path(tempfile.mkdtemp(prefix="tablelog-bench-"))
            stack.callback(shutil.rmtree, directory, ignore_errors=True)
            url = stack.enter_context(embedded_postgres(directory / "data"))
        found = Server(url)
        stack.callback(found.drop_all)
        yield found
