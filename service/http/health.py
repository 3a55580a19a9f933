"""Whether the service can answer: 200 when the database does."""

from __future__ import annotations

from litestar import get
from litestar.di import NamedDependency

from service.application.games import Games
from service.http.problems import problems
from service.http.wire import Health


@get(
    "/health",
    tags=["service"],
    summary="200 when the database answers",
    responses=problems(503),
)
async def health(games: NamedDependency[Games]) -> Health:
    await games.store.ping()
    return Health("ok")
