"""Whether the service can answer: `GET /health` is 200 when the database does;
`GET /health/projections` lists the games the projection runner has set aside."""

from __future__ import annotations

import msgspec
from litestar import Router
from litestar.di import NamedDependency
from psycopg_pool import AsyncConnectionPool

from service.application.games import Games
from service.http.caching import read
from service.http.problems import problems
from service.http.wire import Health
from service.readside import projector
from service.readside.projector import SetAside


class ProjectionsHealth(msgspec.Struct, kw_only=True):
    """`GET /health/projections`: `status` is "ok", or "degraded" while games are
    set aside (missing from `GET /games` and the player records, or behind there)
    because the runner could not fold them: each with its version and the error."""

    status: str
    set_aside: list[SetAside]


@read(
    "/",
    summary="200 when the database answers",
    responses=problems(503),
)
async def get_health(games: NamedDependency[Games]) -> Health:
    await games.store.ping()
    return Health("ok")


@read(
    "/projections",
    summary="The games the read models could not fold, set aside",
    responses=problems(503),
)
async def get_projections_health(
    pool: NamedDependency[AsyncConnectionPool],
) -> ProjectionsHealth:
    failed = await projector.set_aside(pool)
    return ProjectionsHealth(status="degraded" if failed else "ok", set_aside=failed)


# One router, so the app registers both under /health.
health = Router(
    "/health", route_handlers=[get_health, get_projections_health], tags=["service"]
)
