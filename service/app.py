"""The Litestar application factory: `create_app(settings)` builds the app, nothing runs
at import time. The database pool opens and the migrations run in the app's lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio
from litestar import Litestar
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from psycopg_pool import AsyncConnectionPool

from domain.registry import GAMES
from service import problems
from service.exchange import ExchangeController
from service.games import Games
from service.migrate import migrate
from service.routes import GameController, health
from service.settings import Settings
from service.store import EventStore


def create_app(settings: Settings) -> Litestar:
    @asynccontextmanager
    async def database(app: Litestar) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(migrate, settings.database_url)
        pool = AsyncConnectionPool(
            settings.database_url,
            min_size=settings.pool_min_size,
            max_size=settings.pool_max_size,
            timeout=5,
            open=False,
        )
        await pool.open()
        try:
            app.state.games = Games(EventStore(pool), GAMES, settings.cached_games)
            yield
        finally:
            await pool.close()

    def games(state: State) -> Games:
        return state.games

    return Litestar(
        route_handlers=[GameController, ExchangeController, health],
        dependencies={"games": Provide(games, sync_to_thread=False)},
        lifespan=[database],
        plugins=[problems.plugin()],
        exception_handlers={Exception: problems.unexpected},
        request_max_body_size=settings.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="tablelog",
            version="0.1.0",
            description="Record table games move by move, checked against the rules.",
            components=Components(
                security_schemes={
                    "writeToken": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="The game's write token, shown once at creation.",
                    )
                }
            ),
        ),
    )
