"""Whether the service can answer.

- `GET /health/live`: the process serves HTTP; the database is not asked, so an
  orchestrator restarts the process only for a fault of its own, never because the
  database is away.
- `GET /health/ready`: the process may be sent traffic: its database answers, as the
  primary (it takes the writes), migrated to exactly this release's migrations; and
  so do the read replicas when `DATABASE_READ_URL` names them (read-only is right
  for them).
- `GET /health`: 200 when the database answers (kept for the clients that ask it).
- `GET /health/projections`: the games the projection runner has set aside.

Those that ask the database answer within a second, 503 when it has not answered by
then: a probe that waits for the pool's own timeout would outlast the
orchestrator's.
"""

from __future__ import annotations

import asyncio

import msgspec
from litestar import Router
from litestar.datastructures import State
from litestar.di import NamedDependency
from psycopg_pool import AsyncConnectionPool

from service.application.games import Games
from service.http.caching import read
from service.http.problems import Problem, problems
from service.http.wire import Health
from service.readside import projector
from service.readside.projector import SetAside
from service.storage import readiness


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
    await games.store.ping(within=readiness.PROBE_SECONDS)
    return Health("ok")


@read(
    "/live",
    summary="200 while the process serves HTTP (the database is not asked)",
    responses=problems(),
)
async def get_liveness() -> Health:
    return Health("ok")


@read(
    "/ready",
    summary="200 when the database answers as the primary, migrated to this release",
    description="503 with the reasons otherwise: the database away, a read-only "
    "replica where the primary is expected, migrations missing or unknown.",
    responses=problems(503),
)
async def get_readiness(state: State) -> Health:
    if state.read_pool is state.pool:
        reasons = await readiness.unready(state.pool, writes=True)
    else:  # the replicas too, asked at once: migrated, and read-only is fine
        reasons, replicas = await asyncio.gather(
            readiness.unready(state.pool, writes=True),
            readiness.unready(state.read_pool, writes=False),
        )
        reasons += [f"Read replicas: {reason}" for reason in replicas]
    if reasons:
        problem = Problem(503, " ".join(reasons))
        problem.headers = {"Retry-After": "5"}
        raise problem
    return Health("ok")


@read(
    "/projections",
    summary="The games the read models could not fold, set aside",
    responses=problems(503),
)
async def get_projections_health(
    pool: NamedDependency[AsyncConnectionPool],
) -> ProjectionsHealth:
    failed = await projector.set_aside(pool, within=readiness.PROBE_SECONDS)
    return ProjectionsHealth(status="degraded" if failed else "ok", set_aside=failed)


# One router, so the app registers them all under /health.
health = Router(
    "/health",
    route_handlers=[get_health, get_liveness, get_readiness, get_projections_health],
    tags=["service"],
)
