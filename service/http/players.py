"""A player's record across games, from the read model the projection runner keeps."""

from __future__ import annotations

from litestar.di import NamedDependency
from litestar.params import FromPath
from psycopg_pool import AsyncConnectionPool

from service.http.caching import read
from service.http.problems import problems
from service.readside import summaries
from service.readside.summaries import PlayerRecord


@read(
    "/players/{name:str}",
    tags=["players"],
    summary="A player's record across games",
    responses=problems(404, 503),
)
async def get_player(
    name: FromPath[str], read_pool: NamedDependency[AsyncConnectionPool]
) -> PlayerRecord:
    return await summaries.player_record(read_pool, name)
