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

import msgspec
from litestar import Router
from litestar.di import NamedDependency

from service.http.caching import read
from service.http.problems import Problem, problems
from service.http.wire import Health
from service.readside.probes import Probes
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
async def get_health(probes: NamedDependency[Probes]) -> Health:
    await probes.answers()
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
async def get_readiness(probes: NamedDependency[Probes]) -> Health:
    if reasons := await probes.unready():
        problem = Problem(503, " ".join(reasons))
        problem.headers = {"Retry-After": "5"}
        raise problem
    return Health("ok")


@read(
    "/projections",
    summary="The games the read models could not fold, set aside",
    responses=problems(503),
)
async def get_projections_health(probes: NamedDependency[Probes]) -> ProjectionsHealth:
    failed = await probes.set_aside()
    return ProjectionsHealth(status="degraded" if failed else "ok", set_aside=failed)


# One router, so the app registers them all under /health.
health = Router(
    "/health",
    route_handlers=[get_health, get_liveness, get_readiness, get_projections_health],
    tags=["service"],
)
