"""A server for the HTTP measurements, run as its own process:
`python -m bench.serve tablelog|bare DATABASE_URL PORT`.

Both apps run under exactly the same uvicorn settings (those of `tablelog serve`,
with the access log off, since printing it would be most of the work measured).
"""

from __future__ import annotations

import sys

import uvicorn

from bench.bare import create_bare_app
from service.http.app import create_app
from service.settings import Settings

APPS = {"tablelog": create_app, "bare": create_bare_app}


def main() -> None:
    name, url, port = sys.argv[1:4]
    app = APPS[name](Settings(database_url=url))
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=int(port),
        log_level="warning",
        timeout_graceful_shutdown=3,
    )


if __name__ == "__main__":
    main()
