"""A real uvicorn server of the app on a free loopback port, for tests over HTTP,
configured as `tablelog serve` configures it (its connection limits included)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from domain.registry import Registry
from service.http.app import create_app
from service.http.server import config
from service.settings import Settings


@contextmanager
def running_server(
    database_url: str,
    loop: str | None = None,
    games: Registry | None = None,
    **settings,
) -> Iterator[str]:
    """`loop`: uvicorn's event loop, when not the one `tablelog serve` runs;
    `games`: the games the app hosts, when not the ones installed."""
    # Every test's client is 127.0.0.1: only the tests of the limit itself set one.
    settings.setdefault("creations_per_minute", None)
    settings.setdefault("max_connections_per_client", 100_000)
    settings.setdefault("max_streams_per_client", 100_000)
    chosen = Settings(database_url=database_url, **settings)
    configured = config(
        create_app(chosen, games),
        chosen,
        host="127.0.0.1",
        port=0,
        log_level="warning",
        # Open event streams never end by themselves: don't wait long for them.
        timeout_graceful_shutdown=1,
    )
    configured.loop = loop or configured.loop
    server = uvicorn.Server(configured)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
