"""The Litestar application factory: `create_app(settings, games)` builds the app for
the games of a registry (by default the built-in games and the plug-ins installed);
nothing runs at import time. In the app's lifespan the process is built
(`service/bootstrap.py`: the migrations run, the pools open, every collaborator is
made), what the handlers call is put in the app's state, and the process's log
followers start: the live streams', the projection runner and the webhooks'
deliverer."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from litestar import Litestar, Router
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from litestar.stores.memory import MemoryStore
from litestar.types import Method

from domain.registry import Registry
from service import bootstrap
from service.application.plugins import installed_games
from service.application.wording import catalogues
from service.http import problems, schema_page
from service.http.bodies import DeclaredMediaType
from service.http.callers import (
    APP_KEY_SCHEME,
    GROUP_KEY_SCHEME,
    Callers,
    provide_caller,
    provide_member,
)
from service.http.exchange import ExchangeController
from service.http.feed import FeedController
from service.http.framing import Framing
from service.http.games import GameController, move_route
from service.http.groups import GroupController
from service.http.health import health
from service.http.kinds import kinds_route
from service.http.limits import (
    creation_limit,
    forget_expired,
    group_limit,
    resend_limit,
)
from service.http.metrics import Metrics, get_metrics
from service.http.notes import NoteController
from service.http.numbers import WholeNumbers
from service.http.pictures import RENDERERS
from service.http.players import (
    get_leaderboard,
    get_player,
    get_rating_history,
    get_versus,
)
from service.http.rematches import RematchController
from service.http.rosters import RosterController
from service.http.schemas import DocumentedStructs
from service.http.stopping import AnsweredWhenStopping, Started, stop
from service.http.stream import StreamCap
from service.http.variations import VariationController
from service.http.webhooks import WebhookController
from service.http.webpage import web_routes
from service.settings import Settings


def create_app(settings: Settings, games: Registry | None = None) -> Litestar:
    """The app of `settings`, serving the registry `games` (by default the built-in
    games and the plug-ins installed, `service.application.plugins`): its routes,
    its OpenAPI document and its languages are made from it."""
    registry = installed_games() if games is None else games
    rate_limits = MemoryStore()
    metrics = Metrics()
    streams = StreamCap(settings.max_streams, settings.max_streams_per_client)
    started = Started()

    @asynccontextmanager
    async def process(app: Litestar) -> AsyncIterator[None]:
        # What this lifespan and the requests start is stopped with the app.
        started.adopt()
        unwatch = started.watching(asyncio.get_running_loop())
        try:
            async with bootstrap.serving(
                settings, registry, observer=metrics, renderers=RENDERERS
            ) as service:
                app.state.update(
                    games=service.games,
                    pictures=service.pictures,
                    app_keys=service.keys,
                    groups=service.groups,
                    rosters=service.rosters,
                    live=service.live,
                    webhooks=service.webhooks,
                    deliverer=service.deliverer,
                    records=service.records,
                    game_lists=service.game_lists,
                    probes=service.probes,
                )
                async with running(service):
                    yield
        finally:
            unwatch()

    @asynccontextmanager
    async def running(service: bootstrap.Service) -> AsyncIterator[None]:
        """The process's followers and the app's own tasks until the app stops;
        then they are stopped, with every task the app started."""
        async with asyncio.TaskGroup() as tasks:
            followers = [
                *(tasks.create_task(follower) for follower in service.followers()),
                tasks.create_task(forget_expired(rate_limits)),
                tasks.create_task(
                    metrics.sample(service.games, service.probes, lambda: streams.open)
                ),
            ]
            yield
            # The followers, then every task the app and its requests started
            # (service/http/stopping.py): each cancelled once, as asyncio
            # cancels, so that one stopped in a query lets psycopg cancel it on
            # the server and roll its transaction back; again only if the
            # database has not answered within a second. (An anyio task group
            # cancels again at every await, that clean-up's included, and
            # psycopg then drops the connection with a warning.) Then, as the
            # process ends, bootstrap closes the deliverer's connections and
            # the pools (closed already by `stop`).
            await stop(followers, service.pools.each, started)

    def from_state(name: str) -> Provide:
        def provide(state: State) -> Any:
            return state[name]

        return Provide(provide, sync_to_thread=False)

    return Litestar(
        route_handlers=[
            GameController,
            move_route(registry),
            kinds_route(registry),
            # Imports have a bound of their own: the longest game's export.
            Router(
                "/",
                route_handlers=[ExchangeController],
                request_max_body_size=settings.max_import_bytes,
            ),
            VariationController,
            RematchController,
            NoteController,
            WebhookController,
            GroupController,
            RosterController,
            FeedController,
            get_player,
            get_versus,
            get_rating_history,
            get_leaderboard,
            health,
            *web_routes(registry),
            schema_page.asset_routes(),
            *([get_metrics] if settings.metrics else []),
        ],
        dependencies={
            **{
                name: from_state(name)
                for name in (
                    "games",
                    "live",
                    "pictures",
                    "webhooks",
                    "deliverer",
                    "records",
                    "game_lists",
                    "probes",
                    "groups",
                    "rosters",
                )
            },
            "metrics": Provide(lambda: metrics, sync_to_thread=False),
            "caller": Provide(provide_caller),
            "member": Provide(provide_member),
        },
        middleware=[
            AnsweredWhenStopping(started),
            streams,
            Callers(settings.creation_needs_key),
            *creation_limit(settings, rate_limits),
            *group_limit(),
            *resend_limit(),
            DeclaredMediaType(),
            WholeNumbers(),
            Framing(),
        ],
        stores={"rate_limit": rate_limits},
        lifespan=[process],
        plugins=[problems.plugin(), DocumentedStructs(registry)],
        state=State({"languages": catalogues(registry)}),
        exception_handlers={Exception: problems.unexpected},
        request_max_body_size=settings.max_body_bytes,
        cors_config=cors(settings),
        openapi_config=OpenAPIConfig(
            title="tablelog",
            operation_id_creator=operation_id,
            render_plugins=schema_page.render_plugins(),
            version="0.1.0",
            description="Record table games move by move, checked against the rules.",
            components=Components(
                security_schemes={
                    "writeToken": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="The game's write token, shown once at creation.",
                    ),
                    APP_KEY_SCHEME: SecurityScheme(
                        type="http",
                        scheme="bearer",
                        bearer_format="tl_...",
                        description="An app's key (`tablelog keys create`): the "
                        "request acts as that app, within the key's scopes.",
                    ),
                    GROUP_KEY_SCHEME: SecurityScheme(
                        type="http",
                        scheme="bearer",
                        bearer_format="tlg_...",
                        description="A group's key (`POST /groups`, `POST "
                        "/groups/join`): the request acts as a member of that "
                        "group, or its owner.",
                    ),
                }
            ),
        ),
    )


def operation_id(handler: HTTPRouteHandler, method: Method, path: Any) -> str:
    """An operation's id in the OpenAPI document: its handler's name, camelCased
    (`create_game` is `createGame`; its HEAD is `getGameHead`), which generated
    clients name their calls by."""
    first, *rest = handler.handler_name.strip("_").split("_")
    name = first + "".join(word.title() for word in rest)
    return name + "Head" if method == "HEAD" else name


def cors(settings: Settings) -> CORSConfig:
    """Cross-origin calls from browser apps: the headers a scorekeeping app sends and
    the ones it needs to read back. No credentials: the API has no cookies."""
    return CORSConfig(
        allow_origins=list(settings.cors_origins),
        allow_methods=["GET", "HEAD", "POST", "PATCH", "DELETE", "OPTIONS"],
        allow_headers=[
            "Authorization",
            "Content-Type",
            "Idempotency-Key",
            "If-None-Match",
            "Last-Event-ID",
        ],
        expose_headers=["ETag", "Location", "Retry-After"],
        allow_credentials=False,
        max_age=600,
    )
