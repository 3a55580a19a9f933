"""A group's roster: the people who play in it, each with an id of their own and a
name unique in the group as names are compared (`domain.names.name_key`).

A game created in a group seats roster players: by id (`{"id": ...}`), or by name,
read as names are compared, so "ana" seats Ana. A name that is on nobody is
refused with the roster's nearest names ("did you mean Mauricio?"), unless the
request says the player is new (`{"name": ..., "new": true}`): then they join the
roster with the game. So a typo does not split a person in two, and two people
of one name in two clubs are two people.

Members add players and retire them (a retired player is listed only when asked
for, and suggested to no one, but may still be seated: a guest comes back). Each
change is a row of the group's roster log, which holds ids only; names are kept
apart (service/storage/rosters.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import msgspec
from psycopg import AsyncConnection

from domain.names import name_key, nearest, normal_name
from domain.wording import Either, message
from service.application.creating import NewGame, PlayerName, Seat
from service.application.errors import Conflict, Invalid, NotFound
from service.storage.rosters import (
    NameInUse,
    RosterFull,
    RosterPlayer,
    RosterStore,
    include,
)

# The players a group's roster holds, retired ones too.
MOST_PLAYERS = 500


class NewPlayer(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `POST /groups/{id}/players`: the new player's name."""

    name: PlayerName


class PlayerChange(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """The body of `PATCH /groups/{id}/players/{player}`: retired or back."""

    retired: bool


class Rosters:
    """The rosters of one database, over `store` (the primary's)."""

    def __init__(self, store: RosterStore) -> None:
        self.store = store

    async def players(
        self, group_id: uuid.UUID, retired: bool = False
    ) -> list[RosterPlayer]:
        """The group's players by name; retired ones only when asked for."""
        players = await self.store.players(group_id)
        return [p for p in players if retired or not p.retired]

    async def player(self, group_id: uuid.UUID, player_id: uuid.UUID) -> RosterPlayer:
        found = await self.store.player(group_id, player_id)
        if found is None:
            raise no_player(player_id)
        return found

    async def add(self, group_id: uuid.UUID, request: NewPlayer) -> RosterPlayer:
        """A new player; Conflict (409) for a name another player has."""
        try:
            return await self.store.add(
                group_id, normal_name(request.name), MOST_PLAYERS
            )
        except NameInUse as error:
            raise Conflict(
                message("roster.name_in_use", name=error.player.name),
                player_id=str(error.player.id),
            ) from None
        except RosterFull:
            raise too_many() from None

    async def retire(
        self, group_id: uuid.UUID, player_id: uuid.UUID, retired: bool
    ) -> RosterPlayer:
        found = await self.store.retire(group_id, player_id, retired)
        if found is None:
            raise no_player(player_id)
        return found

    async def seat(self, group: str, request: NewGame) -> NewGame:
        """The request with its seats read against the roster of the group named
        `group` (see the module's docstring): the players and the first player as
        the roster spells them, a new player as typed. NotFound for an id the
        roster lacks, Invalid naming every name it lacks, with the nearest names
        of each."""
        roster = await self.store.of_group_named(group)
        by_id = {p.id: p for p in roster}
        by_key = {name_key(p.name): p for p in roster}
        suggested = {p.name: p for p in roster if not p.retired}
        names: list[str] = []
        unknown: list[dict] = []
        for index, seat in enumerate(request.players):
            if isinstance(seat, Seat) and seat.id is not None:
                if (found := by_id.get(seat.id)) is None:
                    raise no_player(seat.id)
                names.append(found.name)
                continue
            typed = normal_name(seat if isinstance(seat, str) else seat.name or "")
            if (found := by_key.get(name_key(typed))) is not None:
                names.append(found.name)
            elif isinstance(seat, Seat) and seat.new:
                names.append(typed)
            else:
                near = [suggested[name] for name in nearest(typed, suggested)]
                unknown.append(
                    {
                        "seat": index,
                        "name": typed,
                        "nearest": [{"id": str(p.id), "name": p.name} for p in near],
                    }
                )
        if unknown:
            first = unknown[0]
            near = [p["name"] for p in first["nearest"]]
            said = (
                message(
                    "roster.unknown_near",
                    name=first["name"],
                    group=group,
                    nearest=Either(near),
                )
                if near
                else message("roster.unknown", name=first["name"], group=group)
            )
            raise Invalid(said, players=unknown)
        return msgspec.structs.replace(
            request,
            players=names,
            first_player=_first(request.first_player, names, by_id),
        )

    async def include(
        self, conn: AsyncConnection, group: str, names: Sequence[str]
    ) -> None:
        """The players of a game stored in the group named `group` that its roster
        lacks join it, in the transaction (`conn`) that stores the game: a new
        player seated, an imported game's. Invalid past MOST_PLAYERS, which stores
        neither the game nor its players."""
        try:
            await include(conn, group, names, MOST_PLAYERS)
        except RosterFull:
            raise too_many() from None


def too_many() -> Invalid:
    return Invalid(message("roster.full", most=MOST_PLAYERS))


def no_player(player_id: uuid.UUID) -> NotFound:
    return NotFound(message("roster.no_player", player_id=str(player_id)))


def _first(
    first: str | None, names: Sequence[str], by_id: dict[uuid.UUID, RosterPlayer]
) -> str | None:
    """The first player as the roster spells them: given by name as names are
    compared, or by id; as given when neither (the rules then refuse it)."""
    if first is None:
        return None
    try:
        found = by_id.get(uuid.UUID(first))
    except ValueError:
        found = None
    if found is not None and found.name in names:
        return found.name
    key = name_key(first)
    return next((name for name in names if name_key(name) == key), first)
