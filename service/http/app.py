"""The Litestar application factory: `create_app(settings)` builds the app, nothing runs
at import time. In the app's lifespan the migrations run, the database pool opens, and
the process's two log followers start: the live streams' and the projection runner.
With read replicas (`database_read_url`), a second pool serves the reads."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
from litestar import Litestar, Router
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from litestar.stores.memory import MemoryStore
from litestar.types import Method

from domain.registry import GAMES
from service.application.games import Games
from service.application.keys import Keys
from service.application.pictures import Pictures
from service.application.snapshots import signing_key
from service.application.timeline import Timelines
from service.application.webhooks import Webhooks
from service.http import problems, schema_page
from service.http.bodies import DeclaredMediaType
from service.http.callers import APP_KEY_SCHEME, Callers, provide_caller
from service.http.exchange import ExchangeController
from service.http.feed import FeedController
from service.http.framing import Framing
from service.http.games import GameController
from service.http.health import health
from service.http.kinds import game_kinds
from service.http.limits import creation_limit, forget_expired, resend_limit
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
from service.http.schemas import DocumentedStructs
from service.http.stopping import AnsweredWhenStopping, Started, stop
from service.http.stream import StreamCap
from service.http.variations import VariationController
from service.http.webhooks import WebhookController
from service.http.webpage import web_routes
from service.readside.deliverer import Deliverer
from service.readside.followers import Followers
from service.readside.live import LiveLog
from service.readside.probes import Probes
from service.readside.projector import Projector
from service.readside.records import Records
from service.readside.summaries import GameLists
from service.settings import Settings
from service.storage.migrate import migrate
from service.storage.pools import Pools, connection_pool, read_pool
from service.storage.store import EventStore


def create_app(settings: Settings) -> Litestar:
    rate_limits = MemoryStore()
    metrics = Metrics()
    streams = StreamCap(settings.max_streams, settings.max_streams_per_client)
    started = Started()

    @asynccontextmanager
    async def database(app: Litestar) -> AsyncIterator[None]:
        # What this lifespan and the requests start is stopped with the app.
        started.adopt()
        unwatch = started.watching(asyncio.get_running_loop())
        await anyio.to_thread.run_sync(
            migrate, settings.migration_database_url or settings.database_url
        )
        pool = connection_pool(settings)
        replicas = read_pool(settings)
        await pool.open()
        if replicas is not None:
            await replicas.open()
        timelines = Timelines(
            EventStore(pool, replicas),
            GAMES,
            settings.cached_games,
            settings.cached_moves,
            snapshot_key=signing_key(settings.snapshot_key_file),
            observer=metrics,
        )
        live = LiveLog(timelines.store)
        projector = Projector(pool, timelines.store, timelines)
        deliverer = Deliverer(
            settings.database_url,
            pool,
            timelines.store,
            timelines,
            allow_private=settings.webhooks_allow_private,
            retries=[float(wait) for wait in settings.webhook_retries],
        )
        games = Games(
            timelines,
            read_side=Followers(live, projector, deliverer),
            observer=metrics,
        )
        pools = Pools(pool, replicas)
        probes = Probes(pools)
        app.state.update(
            games=games,
            pictures=Pictures(games, RENDERERS),
            app_keys=Keys(pool),
            live=live,
            projector=projector,
            webhooks=Webhooks(
                deliverer.store, timelines.store, settings.webhooks_allow_private
            ),
            deliverer=deliverer,
            records=Records(pools.reads),
            game_lists=GameLists(pools.reads),
            probes=probes,
        )
        try:
            async with asyncio.TaskGroup() as followers:
                running = [
                    followers.create_task(live.run()),
                    followers.create_task(projector.run()),
                    *(
                        [followers.create_task(deliverer.run())]
                        if settings.webhooks
                        else []
                    ),
                    followers.create_task(forget_expired(rate_limits)),
                    followers.create_task(
                        metrics.sample(games, probes, lambda: streams.open)
                    ),
                ]
                yield
                # The followers, then every task the app and its requests started
                # (service/http/stopping.py): each cancelled once, as asyncio
                # cancels, so that one stopped in a query lets psycopg cancel it on
                # the server and roll its transaction back; again only if the
                # database has not answered within a second. (An anyio task group
                # cancels again at every await, that clean-up's included, and
                # psycopg then drops the connection with a warning.)
                await stop(running, [pool, *([replicas] if replicas else [])], started)
        finally:
            unwatch()
            await deliverer.close()
            await pool.close()
            if replicas is not None:
                await replicas.close()

    def from_state(name: str) -> Provide:
        def provide(state: State) -> Any:
            return state[name]

        return Provide(provide, sync_to_thread=False)

    return Litestar(
        route_handlers=[
            GameController,
            game_kinds,
            # Imports have a bound of their own: the longest game's export.
            Router(
                "/",
                route_handlers=[ExchangeController],
                request_max_body_size=settings.max_import_bytes,
            ),
            VariationController,
            NoteController,
            WebhookController,
            FeedController,
            get_player,
            get_versus,
            get_rating_history,
            get_leaderboard,
            health,
            *web_routes(),
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
                )
            },
            "metrics": Provide(lambda: metrics, sync_to_thread=False),
            "caller": Provide(provide_caller),
        },
        middleware=[
            AnsweredWhenStopping(started),
            streams,
            Callers(settings.creation_needs_key),
            *creation_limit(settings, rate_limits),
            *resend_limit(),
            DeclaredMediaType(),
            WholeNumbers(),
            Framing(),
        ],
        stores={"rate_limit": rate_limits},
        lifespan=[database],
        plugins=[problems.plugin(), DocumentedStructs()],
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
        allow_methods=["GET", "HEAD", "POST", "OPTIONS"],
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
