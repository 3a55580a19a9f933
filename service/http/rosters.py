"""A group's roster over HTTP (docs/api.md, "Rosters"): the people who play in the
group, each with an id, added and retired by its members. Every route needs a live
key of the group; without one, the group is answered as one that does not exist."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, get, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter

from service.application.errors import Invalid
from service.application.groups import Member, member_of
from service.application.rosters import (
    MOST_PLAYERS,
    NewPlayer,
    PlayerChange,
    Rosters,
)
from service.http.bodies import MAX_JSON_BODY_BYTES, strict_body
from service.http.caching import tagged_answer
from service.http.callers import GROUP_KEY_SCHEME
from service.http.headers import declared
from service.http.players import Limit, Offset
from service.http.problems import problems
from service.readside.records import (
    MAX_HISTORY_PAGE,
    PlayerRecord,
    RatingHistory,
    Records,
    Versus,
)
from service.storage.rosters import RosterPlayer

_KEYED = {"security": [{GROUP_KEY_SCHEME: []}]}


class Player(msgspec.Struct, kw_only=True):
    """A player of the group's roster: `id` seats them in the group's games."""

    id: UUID
    name: str
    retired: bool
    added_at: datetime


class Roster(msgspec.Struct, kw_only=True):
    players: list[Player]


def player_of(row: RosterPlayer) -> Player:
    return Player(id=row.id, name=row.name, retired=row.retired, added_at=row.added_at)


class RosterController(Controller):
    path = "/groups/{group_id:uuid}/players"
    tags = ("groups",)

    @get(
        "/",
        summary="The group's players, by name",
        description="Any live key of the group. Retired players are listed only "
        "with `retired=true`.",
        responses=problems(401, 404, 503),
        operation_class=declared(),
        **_KEYED,
    )
    async def list_roster(
        self,
        group_id: FromPath[UUID],
        rosters: NamedDependency[Rosters],
        member: NamedDependency[Member | None],
        retired: Annotated[bool, QueryParameter()] = False,
    ) -> Roster:
        players = await rosters.players(member_of(member, group_id).group.id, retired)
        return Roster(players=[player_of(row) for row in players])

    @post(
        "/",
        status_code=201,
        summary="Add a player to the group's roster",
        description="Any live key of the group. The name is read as a player's "
        "name is; another player's name, as names are compared, is a 409 naming "
        f"that player (`player_id`). A roster holds at most {MOST_PLAYERS} "
        "players (422 past it).",
        dto=strict_body(NewPlayer),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        responses=problems(401, 404, 409, 413, 415, 422, 503),
        operation_class=declared(worded=True),
        **_KEYED,
    )
    async def add_roster_player(
        self,
        group_id: FromPath[UUID],
        data: JSONBody[NewPlayer],
        rosters: NamedDependency[Rosters],
        member: NamedDependency[Member | None],
    ) -> Response[Player]:
        added = await rosters.add(member_of(member, group_id).group.id, data)
        return Response(
            player_of(added),
            status_code=201,
            headers={"Location": f"/groups/{group_id}/players/{added.id}"},
        )

    @get(
        "/{player_id:uuid}",
        summary="A player of the group's roster",
        description="Any live key of the group.",
        responses=problems(401, 404, 503),
        operation_class=declared(worded=True),
        **_KEYED,
    )
    async def get_roster_player(
        self,
        group_id: FromPath[UUID],
        player_id: FromPath[UUID],
        rosters: NamedDependency[Rosters],
        member: NamedDependency[Member | None],
    ) -> Player:
        found = await rosters.player(member_of(member, group_id).group.id, player_id)
        return player_of(found)

    @patch(
        "/{player_id:uuid}",
        summary="Retire a player, or bring them back",
        description="Any live key of the group. `retired`: a retired player is "
        "listed only when asked for and suggested to no one, but may still be "
        "seated (by id or name); their games and records stay theirs.",
        dto=strict_body(PlayerChange),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        responses=problems(401, 404, 413, 415, 422, 503),
        operation_class=declared(worded=True),
        **_KEYED,
    )
    async def change_roster_player(
        self,
        group_id: FromPath[UUID],
        player_id: FromPath[UUID],
        data: JSONBody[PlayerChange],
        rosters: NamedDependency[Rosters],
        member: NamedDependency[Member | None],
    ) -> Player:
        changed = await rosters.retire(
            member_of(member, group_id).group.id, player_id, data.retired
        )
        return player_of(changed)

    @get(
        "/{player_id:uuid}/record",
        summary="A player's record in the group: ratings, seats, streaks and rivals",
        description="Any live key of the group. `GET /players/{name}`'s answer, "
        "counting the group's games alone, every one of them, with each game's "
        "rating and place on the group's ladder: the record of this person, not of "
        "everyone who ever had the name. A player with no game yet has an empty "
        "one.",
        responses=problems(401, 404, 503),
        operation_class=declared(tagged=True, by_content=True, worded=True),
        **_KEYED,
    )
    async def get_roster_record(
        self,
        request: Request,
        group_id: FromPath[UUID],
        player_id: FromPath[UUID],
        rosters: NamedDependency[Rosters],
        records: NamedDependency[Records],
        member: NamedDependency[Member | None],
    ) -> Response[PlayerRecord]:
        group = member_of(member, group_id).group
        player = await rosters.player(group.id, player_id)
        answer = await records.player(player.name, group.name, within=group.name)
        return tagged_answer(request, answer)

    @get(
        "/{player_id:uuid}/versus/{other_id:uuid}",
        summary="Two players of the group: their finished games together",
        description="Any live key of the group. `GET /players/{name}/versus/{other}`"
        "'s answer, of the group's games alone, newest first, a page at a time. A "
        "player and themselves is a 422.",
        responses=problems(401, 404, 422, 503),
        operation_class=declared(tagged=True, by_content=True, worded=True),
        **_KEYED,
    )
    async def get_roster_versus(
        self,
        request: Request,
        group_id: FromPath[UUID],
        player_id: FromPath[UUID],
        other_id: FromPath[UUID],
        rosters: NamedDependency[Rosters],
        records: NamedDependency[Records],
        member: NamedDependency[Member | None],
        limit: Limit = 20,
        offset: Offset = 0,
    ) -> Response[Versus]:
        group = member_of(member, group_id).group
        player = await rosters.player(group.id, player_id)
        other = await rosters.player(group.id, other_id)
        if other.id == player.id:
            raise Invalid("other must be another player than the first.")
        answer = await records.versus(
            player.name, other.name, limit, offset, group.name, within=group.name
        )
        return tagged_answer(request, answer)

    @get(
        "/{player_id:uuid}/ratings/{game:str}",
        summary="A player's rating on the group's ladder after each game, oldest first",
        description="Any live key of the group. `GET /players/{name}/ratings/{game}`"
        "'s answer on the group's ladder; a 404 when the player has no game rated "
        "there.",
        responses=problems(401, 404, 422, 503),
        operation_class=declared(tagged=True, by_content=True, worded=True),
        **_KEYED,
    )
    async def get_roster_ratings(
        self,
        request: Request,
        group_id: FromPath[UUID],
        player_id: FromPath[UUID],
        game: FromPath[str],
        rosters: NamedDependency[Rosters],
        records: NamedDependency[Records],
        member: NamedDependency[Member | None],
        limit: Annotated[
            int, QueryParameter(ge=1, le=MAX_HISTORY_PAGE)
        ] = MAX_HISTORY_PAGE,
        offset: Offset = 0,
    ) -> Response[RatingHistory]:
        group = member_of(member, group_id).group
        player = await rosters.player(group.id, player_id)
        answer = await records.rating_history(
            player.name, game, group.name, limit, offset, group.name
        )
        return tagged_answer(request, answer)
