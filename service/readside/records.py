"""Queries on the players' ratings and records (`ratings.py` keeps them): the
leaderboards, a player's ratings, seats, streaks and rivals, two players' games
against each other, and a player's rating after each rated game. A player's seats,
streaks and rivals are folded from their finished games as read
(`projections.records`).

A player is looked up by the key of their name (migrations/0007, `domain.names`),
a group too. Only finished games count here (the rated ones): an abandoned game has
no result, and one in progress none yet.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec
from psycopg_pool import AsyncConnectionPool

from domain.names import normal_name
from domain.wording import message
from projections.ratings import PROVISIONAL_BELOW, PUBLIC_PART
from projections.records import (
    Finished,
    Rivals,
    SeatRecord,
    WinRate,
    rivals,
    seats_and_streak,
)
from service.application.creating import NAME_LENGTH
from service.application.errors import Invalid, NotFound
from service.application.games import GameName
from service.application.keys import same_group
from service.readside import summaries
from service.readside.summaries import PlayerTally
from service.storage.samples import removed_group, sample_game

# Rows a page of a leaderboard, of two players' games or of a rating's history.
MAX_PAGE = 100
MAX_HISTORY_PAGE = 1000


class Rating(msgspec.Struct, kw_only=True):
    """A player's rating on one ladder: `ordinal` (mu - 3 sigma) is the one shown;
    `provisional` until 5 games are rated."""

    ordinal: float
    mu: float
    sigma: float
    games_rated: int
    wins: int
    provisional: bool
    last_rated_at: datetime


class Standing(Rating, kw_only=True):
    """A line of a leaderboard: the place (equal ratings share it) and the name."""

    place: int
    name: str


class Leaderboard(msgspec.Struct, kw_only=True):
    """`GET /leaderboards/{game}`: best rated first; `next_offset` null on the last
    page."""

    game: GameName
    group: str | None
    players: list[Standing]
    next_offset: int | None


class GameRecord(PlayerTally, kw_only=True):
    """A player's record at one game: the tally, the rating on the game's own
    ladder and its place there, the finished games by seat and as first player,
    and the longest run of finished games won."""

    rating: Rating | None
    place: int | None
    by_seat: list[SeatRecord]
    as_first_player: WinRate
    longest_winning_streak: int


class PlayerRecord(PlayerTally, kw_only=True):
    """`GET /players/{name}`: games played, finished and won, overall and per game,
    with each game's rating, seats and streak, and the player's rivals."""

    name: str
    games: dict[str, GameRecord]
    rivals: Rivals


class VersusGame(msgspec.Struct, kw_only=True):
    id: UUID
    game: GameName
    group: str | None
    players: list[str]
    winners: list[str]
    standings: dict[str, int]
    finished_at: datetime


class Versus(msgspec.Struct, kw_only=True):
    """`GET /players/{name}/versus/{other}`: their finished games together, each
    one's wins (won and the other did not), the wins they shared, and the games,
    newest first, a page at a time."""

    name: str
    other: str
    played: int
    wins: dict[str, int]
    shared_wins: int
    games: list[VersusGame]
    next_offset: int | None


class RatedGame(msgspec.Struct, kw_only=True):
    """A player's rating after one rated game, and their rank in it (T3)."""

    game_id: UUID
    rated_at: datetime
    rank: int
    ordinal: float
    mu: float
    sigma: float
    games_rated: int
    provisional: bool


class RatingHistory(msgspec.Struct, kw_only=True):
    """`GET /players/{name}/ratings/{game}`: the rating after each rated game,
    oldest first, a page at a time."""

    name: str
    game: GameName
    group: str | None
    ratings: list[RatedGame]
    next_offset: int | None


def kept(name: str, field: str = "name") -> str:
    """A name as the records key it; 422 past a player's name's length."""
    name = normal_name(name)
    if len(name) > NAME_LENGTH:
        raise Invalid(f"{field} must be at most {NAME_LENGTH} characters.")
    return name


def known_game(game: str, games: Collection[str]) -> str:
    """`game`, one of `games` (the names of the games hosted); NotFound if not."""
    if game not in games:
        raise NotFound(f"There is no game {game!r}: choose one of {sorted(games)}.")
    return game


def _ladder_of(group: str | None) -> str | None:
    """The ladder's name for SQL: None means the game's own ('')."""
    return None if group is None else kept(group, "group")


def _part(group: str | None, reader: str | None) -> str:
    """What begins the key of the ladder of `group` a reader of the group
    `reader` (None: of none) is shown: the group's own ladder to its members, its
    public part to anyone else."""
    return "" if same_group(group, reader) else PUBLIC_PART


# The key of the ladder shown (`%(part)s` from `_part`): a group's as the database
# keys names, or the game's own ('').
_LADDER = (
    "CASE WHEN %(group)s::text IS NULL THEN ''"
    " ELSE %(part)s || player_key(%(group)s) END"
)
# A rated game a player's record counts for a reader of the group `%(reader)s`, as
# it lists it (`visibility`): public, or of its own group; never a sample, which is
# no one's record.
_COUNTED = (
    "(visibility = 'public' OR group_key = player_key(%(reader)s::text))"
    f" AND NOT {sample_game('game_id', 'group_key')}"
)
# The ladder asked for is shown: none is of a sample group while the samples are
# removed, whose ladder is then as empty as a group's that never was.
_SHOWN = f"NOT {removed_group('player_key(%(group)s::text)')}"


def _rating(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "ordinal": row["ordinal"],
        "mu": row["mu"],
        "sigma": row["sigma"],
        "games_rated": row["rated"],
        "wins": row["wins"],
        "provisional": row["rated"] < PROVISIONAL_BELOW,
        "last_rated_at": row["last_rated_at"],
    }


async def leaderboard(
    pool: AsyncConnectionPool,
    game: str,
    group: str | None,
    limit: int,
    offset: int,
    games: Collection[str],
    reader: str | None = None,
) -> Leaderboard:
    """A page of the ladder of `game` (one of `games`) by the index on its ratings,
    and the place of its first line counted by the same index: what a page costs
    grows with its offset, not with the ladder. A group's ladder is its members'
    (a reader of the group `reader`); anyone else is shown its public part."""
    game, group = known_game(game, games), _ladder_of(group)
    params = {"game": game, "group": group, "part": _part(group, reader)}
    params |= {"limit": limit + 1, "offset": offset}
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT player, ordinal, mu, sigma, rated, wins, last_rated_at"
            f" FROM ratings WHERE game = %(game)s AND ladder = {_LADDER}"
            f" AND {_SHOWN}"
            " ORDER BY ordinal DESC, player_key LIMIT %(limit)s OFFSET %(offset)s",
            params,
        )
        names = [column.name for column in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in await cursor.fetchall()]
        place = 1
        if rows:
            cursor = await conn.execute(
                f"SELECT 1 + count(*) FROM ratings WHERE game = %(game)s"
                f" AND ladder = {_LADDER} AND ordinal > %(ordinal)s",
                params | {"ordinal": rows[0]["ordinal"]},
            )
            (place,) = await cursor.fetchone()
    standings, previous = [], None
    for index, row in enumerate(rows[:limit]):
        if previous is not None and row["ordinal"] < previous:
            place = offset + index + 1
        previous = row["ordinal"]
        standings.append(Standing(place=place, name=row["player"], **_rating(row)))
    return Leaderboard(
        game=game,
        group=group,
        players=standings,
        next_offset=offset + limit if len(rows) > limit else None,
    )


async def player_record(
    pool: AsyncConnectionPool,
    name: str,
    reader: str | None = None,
    within: str | None = None,
) -> PlayerRecord:
    """The tally of `summaries`, each game's rating, seats and streak, and rivals,
    of the games a reader of the group `reader` (None: of none) lists. `within` a
    group (its name), of that group's games alone, rated on its ladder as `reader`
    is shown it: the record of one of its roster's players, empty before their
    first game."""
    tally = await summaries.player_record(pool, kept(name), reader, within)
    params = {"name": tally.name, "reader": reader, "group": within}
    params["part"] = _part(within, reader)
    of_group = "" if within is None else " AND group_key = player_key(%(group)s)"
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT r.game, r.player, r.ordinal, r.mu, r.sigma, r.rated, r.wins,"
            " r.last_rated_at, (SELECT 1 + count(*) FROM ratings o"
            "   WHERE o.game = r.game AND o.ladder = r.ladder"
            "   AND o.ordinal > r.ordinal)"
            " FROM ratings r WHERE r.player_key = player_key(%(name)s)"
            f" AND r.ladder = {_LADDER} AND {_SHOWN}",
            params,
        )
        rated = {row[0]: row for row in await cursor.fetchall()}
        cursor = await conn.execute(
            "SELECT game, player_key(%(name)s), player_keys, players, winner_keys,"
            " player_key(first_player) FROM rated_games"
            f" WHERE player_keys @> ARRAY[player_key(%(name)s)] AND {_COUNTED}"
            f"{of_group} ORDER BY finish_transaction, finish_position",
            params,
        )
        finished = [Finished(*row) for row in await cursor.fetchall()]
    games = {}
    for game, counts in tally.games.items():
        extra: dict[str, Any] = {"rating": None, "place": None}
        if game in rated:
            row = rated[game]
            names = ("ordinal", "mu", "sigma", "rated", "wins", "last_rated_at")
            extra["rating"] = Rating(**_rating(dict(zip(names, row[2:8], strict=True))))
            extra["place"] = row[8]
        seats = seats_and_streak([played for played in finished if played.game == game])
        extra |= seats._asdict()
        games[game] = GameRecord(**msgspec.structs.asdict(counts), **extra)
    return PlayerRecord(
        name=tally.name,
        played=tally.played,
        finished=tally.finished,
        abandoned=tally.abandoned,
        won=tally.won,
        games=games,
        rivals=rivals(finished),
    )


async def versus(
    pool: AsyncConnectionPool,
    name: str,
    other: str,
    limit: int,
    offset: int,
    reader: str | None = None,
    within: str | None = None,
) -> Versus:
    """Two players' finished games together, of those a reader of the group
    `reader` (None: of none) lists; `within` a group (its name), of its games
    alone, where both are players of its roster."""
    name, other = kept(name), kept(other, "other")
    first = await summaries.player_record(pool, name, reader, within)
    second = await summaries.player_record(pool, other, reader, within)
    params = {"a": first.name, "b": second.name, "limit": limit + 1, "offset": offset}
    params |= {"reader": reader, "group": within}
    of_group = "" if within is None else " AND group_key = player_key(%(group)s)"
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT player_key(%(a)s) = player_key(%(b)s)", params
        )
        if (await cursor.fetchone())[0]:
            raise Invalid("name and other must be two players.")
        together = (
            f"player_keys @> ARRAY[player_key(%(a)s), player_key(%(b)s)] AND {_COUNTED}"
            f"{of_group}"
        )
        cursor = await conn.execute(
            "SELECT count(*),"
            " count(*) FILTER (WHERE a AND NOT b), count(*) FILTER (WHERE b AND NOT a),"
            " count(*) FILTER (WHERE a AND b)"
            " FROM (SELECT player_key(%(a)s) = ANY(winner_keys) AS a,"
            "  player_key(%(b)s) = ANY(winner_keys) AS b"
            f"  FROM rated_games WHERE {together}) AS w",
            params,
        )
        played, a_won, b_won, shared = await cursor.fetchone()
        cursor = await conn.execute(
            "SELECT game_id, game, group_name, players, winners, ranks, finished_at"
            f" FROM rated_games WHERE {together}"
            " ORDER BY finish_transaction DESC, finish_position DESC"
            " LIMIT %(limit)s OFFSET %(offset)s",
            params,
        )
        rows = await cursor.fetchall()
    games = [
        VersusGame(
            id=game_id,
            game=game,
            group=group,
            players=players,
            winners=winners,
            standings=dict(zip(players, ranks, strict=True)),
            finished_at=at,
        )
        for game_id, game, group, players, winners, ranks, at in rows[:limit]
    ]
    return Versus(
        name=first.name,
        other=second.name,
        played=played,
        wins={first.name: a_won, second.name: b_won},
        shared_wins=shared,
        games=games,
        next_offset=offset + limit if len(rows) > limit else None,
    )


async def rating_history(
    pool: AsyncConnectionPool,
    name: str,
    game: str,
    group: str | None,
    limit: int,
    offset: int,
    games: Collection[str],
    reader: str | None = None,
) -> RatingHistory:
    """The ratings of `name` at `game` (one of `games`), a page at a time, on the
    ladder a reader of the group `reader` is shown (`leaderboard`)."""
    name, game, group = kept(name), known_game(game, games), _ladder_of(group)
    params = {"name": name, "game": game, "group": group, "part": _part(group, reader)}
    params |= {"limit": limit + 1, "offset": offset}
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT player, game_id, rated_at, rank, ordinal, mu, sigma, rated"
            " FROM rating_history WHERE player_key = player_key(%(name)s)"
            f" AND game = %(game)s AND ladder = {_LADDER} AND {_SHOWN}"
            " ORDER BY finish_transaction, finish_position"
            " LIMIT %(limit)s OFFSET %(offset)s",
            params,
        )
        rows = await cursor.fetchall()
    if not rows and offset == 0:
        raise NotFound(message("player.unrated", name=repr(name), game=game))
    return RatingHistory(
        name=rows[-1][0] if rows else name,
        game=game,
        group=group,
        ratings=[
            RatedGame(
                game_id=game_id,
                rated_at=at,
                rank=rank,
                ordinal=ordinal,
                mu=mu,
                sigma=sigma,
                games_rated=rated,
                provisional=rated < PROVISIONAL_BELOW,
            )
            for _, game_id, at, rank, ordinal, mu, sigma, rated in rows[:limit]
        ],
        next_offset=offset + limit if len(rows) > limit else None,
    )


class Records:
    """The players' pages and the leaderboards, each one call, read from `pool`
    (the read replicas', or the primary's), of the `games` hosted (their names)."""

    def __init__(self, pool: AsyncConnectionPool, games: Collection[str]) -> None:
        self._pool = pool
        self._games = tuple(games)

    # Each takes `reader`: the group of the caller's key (None: none), whose games
    # it counts beside the public ones (service/application/visibility.py).

    async def player(
        self, name: str, reader: str | None = None, within: str | None = None
    ) -> PlayerRecord:
        return await player_record(self._pool, name, reader, within)

    async def versus(
        self,
        name: str,
        other: str,
        limit: int,
        offset: int,
        reader: str | None = None,
        within: str | None = None,
    ) -> Versus:
        return await versus(self._pool, name, other, limit, offset, reader, within)

    async def rating_history(
        self,
        name: str,
        game: str,
        group: str | None,
        limit: int,
        offset: int,
        reader: str | None = None,
    ) -> RatingHistory:
        return await rating_history(
            self._pool, name, game, group, limit, offset, self._games, reader
        )

    async def leaderboard(
        self,
        game: str,
        group: str | None,
        limit: int,
        offset: int,
        reader: str | None = None,
    ) -> Leaderboard:
        return await leaderboard(
            self._pool, game, group, limit, offset, self._games, reader
        )
