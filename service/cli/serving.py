"""`tablelog serve`: the API in one process, or in several on one port.

The parent process does what must happen once: it binds the port, starts the
database (the embedded server when DATABASE_URL is unset) and applies the
migrations. With
`--workers N` it then runs N worker processes under uvicorn's own supervisor (what
`uvicorn --workers` runs), which hand each other the one listening socket: the kernel
gives each new connection to a worker waiting for one. The supervisor replaces a
worker that dies, and on SIGTERM or SIGINT stops them all (each finishing its
requests); the parent stops the embedded server after them. A parent killed
outright cannot stop anything: its workers then stop themselves (`end_with_parent`).

Why uvicorn's supervisor: it is already our server, so each worker runs exactly the
configuration of a single process (the guarded protocol and its limits, the
keep-alive timeout); it adds no dependency and works wherever uvicorn does.
SO_REUSEPORT would need each worker to bind and supervise itself, and spreads
connections by a hash of the client's address, so one busy client stays on one
worker; gunicorn or a process manager would be one more program to configure and
would have to start the embedded server and migrate first, which `serve` does itself.

The workers share the database and nothing else. Each keeps its own cache of folded
games (a move decided on a stale state fails on the (game, version) key and the
worker reads what the other stored), its own live-stream follower (which polls the
log for moves stored by the others), and its own connection and rate-limit counts.
The projection runners of all workers take turns on the database, one batch at a
time (service/readside/projector.py).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ctypes
import gc
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from types import FrameType
from typing import Any

from service.cli import logs
from service.cli.context import database, signed
from service.settings import Settings
from service.storage.migrate import migrate

# uvicorn's exit code for a worker that failed before it served.
_STARTUP_FAILURE = 3
# How long uvicorn's supervisor waits for a worker to answer its ping before it
# kills it as hung and starts another (uvicorn's default is 5 s). A worker answers
# from a thread of its own; on a host whose cores are busy, one still importing the
# service or starting up can take longer, and killing it only starts another that
# is as slow: workers were seen replaced over and over, none serving.
WORKER_HEALTHCHECK_SECONDS = 30


@dataclass(frozen=True, slots=True)
class ServedApp:
    """The app, as each serving process builds it once uvicorn has set up that
    process's logging. A factory uvicorn calls, and one it can pickle: worker
    processes are spawned, not forked, and get their configuration that way."""

    settings: Settings
    # The supervisor's process id, in a worker process: the worker ends with it.
    parent: int | None = None

    def __call__(self) -> Any:
        # Imported here: the app's routes are not needed by other commands.
        from service.http.app import create_app

        if self.parent is not None:
            end_with_parent(self.parent)

        app = create_app(self.settings)
        app.on_startup.append(freeze_heap)
        # After the app, whose logging configuration sets the root's handlers.
        logs.use_format(self.settings.log_format)
        repeats = logs.collapse_repeats(
            [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.access")],
            self.settings.log_repeat_seconds,
        )
        atexit.register(logs.flush, repeats)
        return app


async def freeze_heap(_app: Any) -> None:
    """Once the app has started: collect what start-up left, then set what remains
    (modules, functions, classes, the app and its pool) apart from the collector.

    Those objects live as long as the process, yet a full collection walks every one
    of them each time it runs, and meanwhile the event loop stands still. Probed at
    300 tables, one full collection came about every 16 s and stalled every request
    in flight by 106-120 ms, the worst of a worker's tail. Frozen
    (`gc.freeze`), they are left out of every collection, so each walks only what was
    made since. The price: a frozen object that later becomes garbage in a cycle is
    never freed; start-up's objects are meant to last anyway."""
    gc.collect()
    gc.freeze()


def serve(args: argparse.Namespace) -> None:
    # Imported here: uvicorn is not needed by other commands.
    from service.http.server import config
    from service.http.stopping import GRACE_SECONDS

    chosen: Settings = args.settings
    logs.use_format(chosen.log_format)
    # Before the database: a port taken ends `serve` at once, having started nothing.
    listening = listen(chosen.host, chosen.port)
    # Made once, before any worker reads it; one that cannot be had ends `serve` too.
    chosen = signed(args)
    with listening, database(args.data_dir) as where:
        # Once, before any worker starts: theirs then find nothing to apply.
        migrate(where.migrate)
        settings = where.serving(chosen)
        parent = os.getpid() if settings.workers > 1 else None
        started = run(
            config(
                ServedApp(settings, parent),
                settings,
                factory=True,
                host=settings.host,
                port=settings.port,
                log_level=settings.log_level,
                log_config=logs.uvicorn_config(
                    settings.log_format, settings.workers > 1
                ),
                workers=settings.workers,
                timeout_graceful_shutdown=GRACE_SECONDS,
                timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
            ),
            listening,
        )
    if not started:
        sys.exit("tablelog: the server did not start (see the log above)")


def listen(host: str, port: int) -> socket.socket:
    """The socket `serve` answers on, bound and listening; exit with the reason when
    the port cannot be had (another server on it, a port below 1024 unprivileged).

    Bound by `serve` itself rather than by uvicorn: uvicorn binds after the app has
    started, and on failure shuts the app down again, which may hang there; here
    nothing has started yet."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family, socket.SOCK_STREAM)
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind((host, port))
        listening.listen(2048)
    except OSError as error:
        listening.close()
        sys.exit(f"tablelog: cannot listen on {host}:{port}: {error.strerror}")
    listening.set_inheritable(True)
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    logging.getLogger(__name__).info(
        "listening on http://%s:%d (Ctrl-C to stop)", shown, port
    )
    return listening


def end_with_parent(parent: int) -> None:
    """Have this worker process sent SIGTERM when `parent`, its supervisor, dies.

    A supervisor killed outright (SIGKILL, the OOM killer) cannot stop its workers,
    and they would serve on as orphans, holding the port and the database. On Linux
    the kernel sends the signal itself the moment the parent dies
    (prctl PR_SET_PDEATHSIG), whatever the worker is doing, even with its event loop
    stuck: no thread, no polling. (It fires when the thread that started the worker
    ends: uvicorn's supervisor starts and replaces workers from its main thread, which
    lasts as long as the process.) Elsewhere a thread asks every second whether the
    parent is still the parent. Either way SIGTERM makes the worker finish its
    requests and stop, as when the supervisor stops it. A parent that died before
    this call is seen at once: the worker's parent is then someone else."""
    if not _kernel_signals_parent_death():
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGTERM)


def _kernel_signals_parent_death() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    pr_set_pdeathsig = 1
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(pr_set_pdeathsig, signal.SIGTERM, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)


def run(served: Any, listening: socket.socket) -> bool:
    """Serve on `listening` until SIGTERM or Ctrl-C; whether serving started."""
    import uvicorn
    from uvicorn.supervisors import Multiprocess

    if served.workers == 1:
        server = uvicorn.Server(served)
        with _sigterm_raises(), contextlib.suppress(KeyboardInterrupt, _Terminated):
            server.run(sockets=[listening])
        return server.started
    supervisor = Multiprocess(served, sockets=[listening])
    supervisor.run()
    return not any(p.exitcode == _STARTUP_FAILURE for p in supervisor.processes)


class _Terminated(Exception):
    """SIGTERM, once uvicorn has stopped serving on it."""


@contextlib.contextmanager
def _sigterm_raises() -> Iterator[None]:
    """Make SIGTERM end `run` as Ctrl-C does.

    uvicorn stops serving on SIGTERM, then raises the signal again for the handler
    it found. Python's default for SIGTERM ends the process on the spot, before the
    blocks around `run` have stopped the embedded PostgreSQL, which was then left
    running; what systemd, Docker and `kill` send must stop it too."""

    def terminated(_signal: int, _frame: FrameType | None) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
