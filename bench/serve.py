"""A server for the HTTP measurements, run as its own process:
`python -m bench.serve tablelog|bare|tablelog-without-deliverer DATABASE_URL PORT
[WORKERS]`.

Both apps run exactly as `tablelog serve` runs the service (the guarded protocol and
its limits, uvicorn's supervisor for several workers, the heap frozen after start-up),
with the access log off, since printing it would be most of the work measured, and
with no limit on games created per client nor a client's share of the connections
and streams, since the bench's one client plays every table, with more connections
a worker than the most tables tried, and with webhook endpoints allowed on loopback,
where the bench's receiver is.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from bench.bare import create_bare_app
from service.cli.context import default_data_dir
from service.cli.serving import ServedApp, freeze_heap, listen, run
from service.http.server import config
from service.settings import Settings


@dataclass(frozen=True, slots=True)
class BareApp:
    """The baseline's app factory; picklable, like ServedApp, for worker processes."""

    settings: Settings

    def __call__(self) -> Any:
        app = create_bare_app(self.settings)
        app.on_startup.append(freeze_heap)  # as the service's, for a like-for-like tail
        return app


APPS = {"tablelog": ServedApp, "bare": BareApp}
# The connections each worker serves: above the most tables the tables held try
# (`--tables-most`, each table a connection), so that they measure the server and not
# its limit (1,000 by default).
MOST_CONNECTIONS = 10_000
# The service whose webhooks another process delivers (`tablelog webhooks deliver`).
WITHOUT_DELIVERER = "tablelog-without-deliverer"


def main() -> None:
    name, url, port, *more = sys.argv[1:]
    workers = int(more[0]) if more else 1
    delivers = name != WITHOUT_DELIVERER
    app = APPS["tablelog" if name == WITHOUT_DELIVERER else name]
    whole = Settings(database_url=url)
    settings = Settings(
        database_url=url,
        creations_per_minute=None,
        max_connections=MOST_CONNECTIONS,
        max_connections_per_client=MOST_CONNECTIONS,
        max_streams_per_client=whole.max_streams,
        # The webhooks' bench sends to a receiver on loopback.
        webhooks_allow_private=True,
        webhooks=delivers,
        workers=workers,
        # The key file `tablelog serve` takes by default: every server of a run (and
        # each of its workers) signs alike, so one started after another uses the
        # snapshots the first wrote, as the replay's measurements expect.
        snapshot_key_file=str(default_data_dir() / "snapshot.key"),
    )
    served = config(
        app(settings),
        settings,
        factory=True,
        host="127.0.0.1",
        port=int(port),
        log_level="warning",
        workers=workers,
        timeout_graceful_shutdown=3,
    )
    if not run(served, listen("127.0.0.1", int(port))):
        sys.exit(f"the bench's {name} server did not start")


if __name__ == "__main__":
    main()
