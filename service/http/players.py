"""A player's record across games, two players' games together, a player's rating
over time and the leaderboards, from the read models the projection runner keeps.
Each counts the games the caller lists (public ones, and its own group's); a
group's ladder is its members', and anyone else is shown the ladder of its public
games."""

from __future__ import annotations

from typing import Annotated

from litestar import Request, Response
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from service.application.creating import NAME_LENGTH
from service.http.caching import content_read, tagged_answer
from service.http.callers import listed_for
from service.http.problems import problems
from service.readside.records import (
    MAX_HISTORY_PAGE,
    MAX_PAGE,
    Leaderboard,
    PlayerRecord,
    RatingHistory,
    Records,
    Versus,
)

# A list's offset is kept to PostgreSQL's integers.
MAX_OFFSET = 2**31 - 1
Group = Annotated[str | None, QueryParameter(max_length=4 * NAME_LENGTH)]
Limit = Annotated[int, QueryParameter(ge=1, le=MAX_PAGE)]
Offset = Annotated[int, QueryParameter(ge=0, le=MAX_OFFSET)]


@content_read(
    "/players/{name:str}",
    tags=["players"],
    summary="A player's record across games: ratings, seats, streaks and rivals",
    responses=problems(404, 422, 503),
)
async def get_player(
    request: Request,
    name: FromPath[str],
    records: NamedDependency[Records],
) -> Response[PlayerRecord]:
    answer = await records.player(name, listed_for(request))
    return tagged_answer(request, answer)


@content_read(
    "/players/{name:str}/versus/{other:str}",
    tags=["players"],
    summary="Two players' finished games together, newest first",
    responses=problems(404, 422, 503),
)
async def get_versus(
    request: Request,
    name: FromPath[str],
    other: FromPath[str],
    records: NamedDependency[Records],
    limit: Limit = 20,
    offset: Offset = 0,
) -> Response[Versus]:
    answer = await records.versus(name, other, limit, offset, listed_for(request))
    return tagged_answer(request, answer)


@content_read(
    "/players/{name:str}/ratings/{game:str}",
    tags=["players"],
    summary="A player's rating after each rated game, oldest first",
    responses=problems(404, 422, 503),
)
async def get_rating_history(
    request: Request,
    name: FromPath[str],
    game: FromPath[str],
    records: NamedDependency[Records],
    group: Group = None,
    limit: Annotated[int, QueryParameter(ge=1, le=MAX_HISTORY_PAGE)] = MAX_HISTORY_PAGE,
    offset: Offset = 0,
) -> Response[RatingHistory]:
    answer = await records.rating_history(
        name, game, group, limit, offset, listed_for(request)
    )
    return tagged_answer(request, answer)


@content_read(
    "/leaderboards/{game:str}",
    tags=["players"],
    summary="A game's players by rating, or a group's",
    description="Without `group`, the game's own ladder: its public games (only "
    "those created with a key when the service sets `rated_needs_key`). With "
    "`group`, to the group's members (its key, or an app key made for it) every "
    "game of the group; to anyone else its public games only.",
    responses=problems(404, 422, 503),
)
async def get_leaderboard(
    request: Request,
    game: FromPath[str],
    records: NamedDependency[Records],
    group: Group = None,
    limit: Limit = 20,
    offset: Offset = 0,
) -> Response[Leaderboard]:
    answer = await records.leaderboard(game, group, limit, offset, listed_for(request))
    return tagged_answer(request, answer)
