"""The web page for the table: static files from `service/http/web/`, served at
`/app/`, with `/` sending browsers there. No build step: plain HTML, CSS and ES modules
that talk to the REST API like any other client."""

from __future__ import annotations

from pathlib import Path

from litestar import get
from litestar.handlers import BaseRouteHandler
from litestar.response import Redirect
from litestar.router import Router
from litestar.static_files import create_static_files_router

# Next to this module, so an editable install and a wheel both find the files.
WEB_DIRECTORY = Path(__file__).parent / "web"


@get("/", include_in_schema=False)
async def home() -> Redirect:
    return Redirect("/app/")


def web_routes() -> list[BaseRouteHandler | Router]:
    static = create_static_files_router(
        path="/app", directories=[WEB_DIRECTORY], html_mode=True, name="web"
    )
    return [home, static]
