"""The web page for the table: static files from `service/http/web/`, served at
`/app/`, with `/` sending browsers there. No build step: plain HTML, CSS and ES modules
that talk to the REST API like any other client.

The page names no game. Each game's module for it (its board, its move entry and its
words, `Rules.page`) is a file of the game's own package, served at
`/app/games/<family>.js` for every family the app hosts; the page loads those the
kinds list (`GET /games/kinds`). `/app/files.json` lists every file the page is made
of, its own and its games' modules, which its service worker keeps for the times the
table's Wi-Fi is down.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from litestar import MediaType, Response, get
from litestar.handlers import BaseRouteHandler
from litestar.params import FromPath
from litestar.response import Redirect
from litestar.router import Router
from litestar.static_files import create_static_files_router

from domain.registry import Registry
from service.application.errors import NotFound

# Next to this module, so an editable install and a wheel both find the files.
WEB_DIRECTORY = Path(__file__).parent / "web"
# What the service worker keeps of the folder: the page, not its notes and licences.
_KEPT = {".html", ".css", ".js", ".svg", ".webmanifest"}
_WORKER = "sw.js"
JAVASCRIPT = "text/javascript"


class PageFiles(msgspec.Struct):
    """`GET /app/files.json`: the page's files, relative to `/app/`."""

    files: list[str]


@get("/", include_in_schema=False)
async def home() -> Redirect:
    return Redirect("/app/")


def page_files(games: Registry) -> PageFiles:
    """The page's own files (and `./`, the page itself), then each game module."""
    own = sorted(
        path.relative_to(WEB_DIRECTORY).as_posix()
        for path in WEB_DIRECTORY.rglob("*")
        if path.suffix in _KEPT and path.name != _WORKER
    )
    modules = [f"games/{family}.js" for family in games.families()]
    return PageFiles(["./", *own, *modules])


def web_routes(games: Registry) -> list[BaseRouteHandler | Router]:
    """The page's routes for an app that hosts `games`: their modules are read once,
    when the app is built (a plug-in's change takes a restart, as its rules do)."""
    modules = {
        f"{family}.js": rules.page.read_bytes()
        for family, rules in games.families().items()
    }
    listed = page_files(games)

    @get("/app/games/{module:str}", include_in_schema=False)
    async def game_module(module: FromPath[str]) -> Response[bytes]:
        if module not in modules:
            raise NotFound(f"The page has no game module {module[:60]!r}.")
        return Response(modules[module], media_type=JAVASCRIPT)

    @get("/app/files.json", include_in_schema=False, media_type=MediaType.JSON)
    async def files() -> PageFiles:
        return listed

    static = create_static_files_router(
        path="/app", directories=[WEB_DIRECTORY], html_mode=True, name="web"
    )
    return [home, game_module, files, static]
