"""The game list and player records (`game_summaries`): the writer of its rows,
which the projection runner folds (`projections.summaries`), and the queries on
them.

A player is looked up by the key of their name (migrations/0007, `domain.names`):
"aná", "ANÁ" and "Aná" composed or decomposed find the same games.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol
from uuid import UUID

import msgspec
from psycopg import AsyncConnection, sql
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from domain.names import normal_name
from domain.wording import message
from projections.summaries import Summary
from service.application.errors import NotFound
from service.application.games import GameName, Status
from service.application.variations import VariationOf
from service.application.variations import variation_of as _variation_of
from service.storage.samples import removed_game, sample_game
from service.storage.variation_names import HIDDEN, NAME_IN_FORCE


class SummaryTables(Protocol):
    """The table the rows go to (the live read model or its rebuilt copy)."""

    summaries: str


# The rows come as one JSON array (`Summary` encoded by msgspec, in C, its fields
# named as the columns), which costs the runner less CPU than binding each row's
# parameters. A row only moves forward: an older version than the one stored
# changes nothing, so a game written ahead of the runner stays as it is.
_UPSERT = """
    INSERT INTO {summaries} AS s
        (game_id, game, players, title, status, winners, version, created_at,
         updated_at, variation_of, variation_step)
    SELECT * FROM jsonb_to_recordset(%s::jsonb) AS r(
        game_id uuid, game text, players text[], title text, status text,
        winners text[], version integer, created_at timestamptz,
        updated_at timestamptz, variation_of uuid, variation_step integer)
    ON CONFLICT (game_id) DO UPDATE SET
        status = excluded.status, winners = excluded.winners,
        version = excluded.version, updated_at = excluded.updated_at
    WHERE s.version < excluded.version
"""


async def write(
    conn: AsyncConnection,
    tables: SummaryTables,
    summaries: Mapping[UUID, tuple[int, Summary]],
) -> None:
    """Upsert the games' rows (each game id with its version folded and its row),
    in one statement. Each game is in it once."""
    rows = msgspec.json.encode([summary for _, summary in summaries.values()])
    await conn.execute(
        sql.SQL(_UPSERT).format(summaries=sql.Identifier(tables.summaries)),
        (rows.decode(),),
    )


class GameListItem(msgspec.Struct, kw_only=True):
    id: UUID
    game: GameName
    players: list[str]
    title: str | None
    status: Status
    winners: list[str]
    version: int
    created_at: datetime
    updated_at: datetime
    group: str | None = None
    """The group the game is in, by its name; null for none."""
    variation_of: VariationOf | None = None
    """Set on a variation: the game it branched from and the step it starts at."""


class GameList(msgspec.Struct, kw_only=True):
    """A page of `GET /games`, newest first; `next_offset` is null on the last page."""

    games: list[GameListItem]
    next_offset: int | None


class VariationItem(GameListItem, kw_only=True):
    name: str | None = None
    """The name given to the variation (`PATCH /games/{id}/variations/{variation}`),
    null until it has one."""


class VariationList(msgspec.Struct, kw_only=True):
    """A page of a game's variations, newest first, hidden ones left out;
    `next_offset` is null on the last page."""

    games: list[VariationItem]
    next_offset: int | None


class PlayerTally(msgspec.Struct, kw_only=True):
    """Games played, finished (played to the end), abandoned (T2) and won."""

    played: int
    finished: int
    abandoned: int
    won: int


class PlayerRecord(PlayerTally, kw_only=True):
    """`GET /players/{name}`: games played, finished and won, overall and per game."""

    name: str
    games: dict[str, PlayerTally]


_COLUMNS = (
    "game_id AS id, game, players, title, status, winners, version, created_at,"
    " updated_at, variation_of, variation_step,"
    " (SELECT g.group_name FROM games g WHERE g.id = game_summaries.game_id)"
    ' AS "group"'
)
# The games of one group, by its name as names are compared.
IN_GROUP = (
    "EXISTS (SELECT FROM games g WHERE g.id = game_summaries.game_id"
    " AND player_key(g.group_name) = player_key(%(in_group)s::text))"
)

# The games a reader lists (service/application/visibility.py): the public ones, and
# every game of its own group (`%(group)s`, its name; NULL for none), found by the
# game's row, where its visibility and group are kept; never one removed.
_OF_READER = (
    "EXISTS (SELECT FROM games g WHERE g.id = {table}.game_id"
    " AND (g.visibility = 'public'"
    " OR player_key(g.group_name) = player_key(%(group)s::text))"
)
LISTED = _OF_READER + f" AND NOT {removed_game('g.id', 'player_key(g.group_name)')})"
# The games a player's record counts: those listed, but for the samples, which are
# no one's record.
COUNTED = _OF_READER + f" AND NOT {sample_game('g.id', 'player_key(g.group_name)')})"


async def list_games(
    pool: AsyncConnectionPool,
    *,
    game: str | None,
    player: str | None,
    status: str | None,
    limit: int,
    offset: int,
    group: str | None = None,
    in_group: str | None = None,
) -> GameList:
    """Newest first; `limit + 1` rows are read to know whether a next page exists.
    Variations are games nobody played: listed only as the variations of their
    original (`list_variations`), never among the others. Only the games a reader
    of the group `group` (None: of none) lists; with `in_group`, only that
    group's."""
    which = "variation_of IS NULL"
    if in_group is not None:
        which += f" AND {IN_GROUP}"
    async with pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_COLUMNS} FROM game_summaries"
            " WHERE (%(game)s::text IS NULL OR game = %(game)s)"
            " AND (%(player)s::text IS NULL"
            "      OR player_keys @> ARRAY[player_key(%(player)s::text)])"
            " AND (%(status)s::text IS NULL OR status = %(status)s)"
            f" AND {which} AND {LISTED.format(table='game_summaries')}"
            " ORDER BY created_at DESC, game_id"
            " LIMIT %(limit)s OFFSET %(offset)s",
            {
                "game": game,
                "player": None if player is None else normal_name(player),
                "status": status,
                "group": group,
                "in_group": in_group,
                "limit": limit + 1,
                "offset": offset,
            },
        )
        rows = await cur.fetchall()
    more = len(rows) > limit
    return GameList(
        games=[_item(**row) for row in rows[:limit]],
        next_offset=offset + limit if more else None,
    )


def _item(
    variation_of: UUID | None, variation_step: int | None, **row: object
) -> GameListItem:
    return GameListItem(**row, variation_of=_variation_of(variation_of, variation_step))


async def list_variations(
    pool: AsyncConnectionPool,
    game_id: UUID,
    *,
    limit: int,
    offset: int,
    group: str | None = None,
) -> VariationList:
    """The variations branched from a game that a reader of the group `group`
    lists, newest first, each with its name, but for those hidden
    (`storage.variation_names`); NotFound for a game never created."""
    async with pool.connection() as conn:
        cursor = await conn.execute("SELECT FROM games WHERE id = %s", (game_id,))
        if await cursor.fetchone() is None:
            raise NotFound(message("game.not_found", game_id=str(game_id)))
    async with pool.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        await cur.execute(
            f"SELECT {_COLUMNS}, {NAME_IN_FORCE} AS name FROM game_summaries"
            " WHERE variation_of = %(variations_of)s"
            f" AND NOT {HIDDEN} AND {LISTED.format(table='game_summaries')}"
            " ORDER BY created_at DESC, game_id"
            " LIMIT %(limit)s OFFSET %(offset)s",
            {
                "variations_of": game_id,
                "group": group,
                "limit": limit + 1,
                "offset": offset,
            },
        )
        rows = await cur.fetchall()
    more = len(rows) > limit
    return VariationList(
        games=[_variation(**row) for row in rows[:limit]],
        next_offset=offset + limit if more else None,
    )


def _variation(
    variation_of: UUID | None, variation_step: int | None, **row: object
) -> VariationItem:
    of = _variation_of(variation_of, variation_step)
    return VariationItem(**row, variation_of=of)


class GameLists:
    """The game list and a game's variations, each one call, read from `pool` (the
    read replicas', or the primary's)."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self._pool = pool

    async def games(
        self,
        *,
        game: str | None,
        player: str | None,
        status: str | None,
        limit: int,
        offset: int,
        group: str | None = None,
        in_group: str | None = None,
    ) -> GameList:
        return await list_games(
            self._pool,
            game=game,
            player=player,
            status=status,
            limit=limit,
            offset=offset,
            group=group,
            in_group=in_group,
        )

    async def variations(
        self, game_id: UUID, *, limit: int, offset: int, group: str | None = None
    ) -> VariationList:
        return await list_variations(
            self._pool, game_id, limit=limit, offset=offset, group=group
        )


async def player_record(
    pool: AsyncConnectionPool,
    name: str,
    group: str | None = None,
    in_group: str | None = None,
) -> PlayerRecord:
    """The games of every player whose name has the key of `name`'s, of those a
    reader of the group `group` (None: of none) lists, but for the samples; with
    `in_group`, of that group's games alone, where a player with none has an empty
    record (a group's roster knows them). NotFound for a name no game listed has,
    but in a group."""
    name = normal_name(name)
    which = "" if in_group is None else f" AND {IN_GROUP}"
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT game, count(*),"
            " count(*) FILTER (WHERE status = 'finished'),"
            " count(*) FILTER (WHERE status = 'abandoned'),"
            " count(*) FILTER (WHERE status = 'finished'"
            "   AND player_key(%(name)s) = ANY(player_keys(winners)))"
            " FROM game_summaries WHERE player_keys @> ARRAY[player_key(%(name)s)]"
            f" AND variation_of IS NULL AND {COUNTED.format(table='game_summaries')}"
            f"{which} GROUP BY game ORDER BY game",
            {"name": name, "group": group, "in_group": in_group},
        )
        rows = await cursor.fetchall()
    if not rows and in_group is None:
        raise NotFound(message("player.unknown", name=repr(name)))
    per_game = {
        game: PlayerTally(
            played=played, finished=finished, abandoned=abandoned, won=won
        )
        for game, played, finished, abandoned, won in rows
    }
    return PlayerRecord(
        name=name,
        played=sum(t.played for t in per_game.values()),
        finished=sum(t.finished for t in per_game.values()),
        abandoned=sum(t.abandoned for t in per_game.values()),
        won=sum(t.won for t in per_game.values()),
        games=per_game,
    )
