"""Players' ratings, folded by the projection runner beside the game list.

Every finished game is one match of its players in their standings (ruling T3),
rated with openskill's Plackett-Luce model and its default parameters. Each game
has its own ladder (`ladder` ''), which rates all its finished games, and each group
named at creation one more (`ladder`: the group's key), which rates that group's
only; a variation (a game branched from a step of another) is never rated, nor
counts in a player's records. A ladder rates its games in the order of their
finishing moves in the global log, the order the runner reads it in. An abandoned
game is not rated.

The ratings are always those of the games finished now: a game an undo reopens is
withdrawn, and a game finished again is rated at its new finishing move. Both can
change a ladder's past, so a ladder keeps each player's rating after each game
(`rating_history`): a change at a position refolds the ladder from there, starting
from the ratings of the rows before it, and never from zero. In the common case a
game finishes after every game already rated, and the refold is that one game.
Rebuilt from the log, or followed move by move, a ladder folds the same games in the
same order from the same numbers, so its ratings are the same to the last bit.

Nothing here runs on a move's path: the runner's batch folds it, after the moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

from openskill.models import PlackettLuce
from psycopg import AsyncConnection, sql

from domain.history import History
from domain.sheet import standings as ranked
from service.storage.store import GameRow

MODEL = PlackettLuce()
# A rating is provisional until this many games are rated on its ladder.
PROVISIONAL_BELOW = 5
# History rows folded between two turns given to the rest of the event loop.
YIELD_EVERY = 200
# A game's own ladder: every one of its finished games.
EVERY_GROUP = ""


class RatingTables(Protocol):
    """The tables a fold writes to (the live read models or their rebuilt copies)."""

    rated_games: str
    rating_history: str
    ratings: str


@dataclass(frozen=True, slots=True)
class Finish:
    """A finished game as the ratings take it: its players in seating order, their
    ranks in its standings (T3), and when its finishing move was stored."""

    game: str
    group: str | None
    players: tuple[str, ...]
    first_player: str
    winners: tuple[str, ...]
    ranks: tuple[int, ...]
    finished_at: datetime


def finish_of(row: GameRow, history: History, recorded_at: datetime) -> Finish | None:
    """The game's result once finished at `history`'s version; None otherwise (in
    progress or abandoned), and for a variation, which is never rated: it replays
    another game's moves from one of its steps, not a game the table played."""
    if history.status != "finished" or row.variation_of is not None:
        return None
    sheet = history.score_sheet()
    winners = tuple(history.winners or ())
    # A game whose sheet ranks no one (T3 is each game's to apply) still has its
    # winners first and the others sharing the next rank.
    standings = sheet.standings or ranked(
        dict.fromkeys(row.players, 0), winners, most_wins=True
    )
    return Finish(
        game=row.game,
        group=row.group,
        players=tuple(row.players),
        first_player=row.first_player,
        winners=winners,
        ranks=tuple(standings[player] for player in row.players),
        finished_at=recorded_at,
    )


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: the model's ordinal, mu - 3 sigma."""
    return mu - 3 * sigma


# A position in the global log: (transaction, position), the runner's order.
Position = tuple[int, int]
Ladder = tuple[str, str]  # (game, ladder)


async def rate(
    conn: AsyncConnection,
    tables: RatingTables,
    finishes: Mapping[UUID, tuple[int, Finish | None]],
) -> None:
    """Bring the ratings up to the games of a batch: each game id with its version
    folded and its result then (None while in progress or abandoned)."""
    if not finishes:
        return
    ids = list(finishes)
    cursor = await conn.execute(
        _sql(
            "SELECT game_id, game, group_key, finish_transaction, finish_position"
            " FROM {rated_games} WHERE game_id = ANY(%s)",
            tables,
        ),
        (ids,),
    )
    rated = {row[0]: row for row in await cursor.fetchall()}
    positions = await _positions(
        conn, {gid: v for gid, (v, finish) in finishes.items() if finish}
    )
    dirty: dict[Ladder, Position] = {}
    gone, new = [], []
    for game_id, (_, finish) in finishes.items():
        old = rated.get(game_id)
        position = positions.get(game_id)
        moved = old is None or tuple(old[3:]) != position
        if old is not None and (finish is None or moved):
            gone.append(game_id)
            _mark(dirty, old[1], old[2], (old[3], old[4]))
        if finish is not None and position is not None and moved:
            new.append((game_id, position, finish))
    if gone:
        await conn.execute(
            _sql("DELETE FROM {rated_games} WHERE game_id = ANY(%s)", tables), (gone,)
        )
    for finish, position, group_key in await _insert(conn, tables, new):
        _mark(dirty, finish.game, group_key, position)
    for (game, ladder), start in sorted(dirty.items()):
        await refold(conn, tables, game, ladder, start)


def _mark(
    dirty: dict[Ladder, Position], game: str, group_key: str | None, at: Position
) -> None:
    for ladder in (EVERY_GROUP, group_key):
        if ladder is not None:
            key = (game, ladder)
            dirty[key] = min(dirty.get(key, at), at)


async def _positions(
    conn: AsyncConnection, versions: Mapping[UUID, int]
) -> dict[UUID, Position]:
    """Where each game's finishing move (the version given) is in the global log."""
    if not versions:
        return {}
    cursor = await conn.execute(
        "SELECT e.game_id, e.transaction_id::text::bigint, e.position"
        " FROM unnest(%s::uuid[], %s::integer[]) AS w (game_id, version)"
        " JOIN events e USING (game_id, version)",
        (list(versions), list(versions.values())),
    )
    return {game_id: (tx, pos) for game_id, tx, pos in await cursor.fetchall()}


async def _insert(
    conn: AsyncConnection,
    tables: RatingTables,
    new: list[tuple[UUID, Position, Finish]],
) -> list[tuple[Finish, Position, str | None]]:
    """The games' rows, in one pipeline; each with its group's key, as the database
    keys names."""
    if not new:
        return []
    async with conn.cursor() as cursor:
        await cursor.executemany(
            _sql(
                "INSERT INTO {rated_games} (game_id, game, group_name,"
                " finish_transaction, finish_position, finished_at, players,"
                " first_player, winners, ranks)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING group_key",
                tables,
            ),
            [
                (
                    game_id,
                    finish.game,
                    finish.group,
                    *position,
                    finish.finished_at,
                    list(finish.players),
                    finish.first_player,
                    list(finish.winners),
                    list(finish.ranks),
                )
                for game_id, position, finish in new
            ],
            returning=True,
        )
        keys = []
        while True:
            (group_key,) = await cursor.fetchone()
            keys.append(group_key)
            if not cursor.nextset():
                break
    return [
        (finish, position, key)
        for (_, position, finish), key in zip(new, keys, strict=True)
    ]


@dataclass(slots=True)
class _Standing:
    mu: float
    sigma: float
    rated: int
    wins: int


async def refold(
    conn: AsyncConnection, tables: RatingTables, game: str, ladder: str, start: Position
) -> None:
    """Rate the ladder's games again from `start` on, from the ratings its players
    had before it; then each player touched gets their latest rating."""
    after = (game, ladder, *start)
    cursor = await conn.execute(
        _sql(
            "DELETE FROM {rating_history} WHERE game = %s AND ladder = %s"
            " AND (finish_transaction, finish_position) >= (%s, %s)"
            " RETURNING player_key",
            tables,
        ),
        after,
    )
    touched = {key for (key,) in await cursor.fetchall()}
    cursor = await conn.execute(
        _sql(
            "SELECT game_id, finish_transaction, finish_position, finished_at,"
            " players, player_keys, winner_keys, ranks FROM {rated_games}"
            " WHERE game = %s AND (%s = '' OR group_key = %s)"
            " AND (finish_transaction, finish_position) >= (%s, %s)"
            " ORDER BY finish_transaction, finish_position",
            tables,
        ),
        (game, ladder, ladder, *start),
    )
    games = await cursor.fetchall()
    keys = {key for row in games for key in row[5]}
    standing = await _before(conn, tables, game, ladder, start, keys)
    rows = []
    for count, row in enumerate(_folded(game, ladder, games, standing), start=1):
        rows.append(row)
        if count % YIELD_EVERY == 0:
            # A long refold (a game withdrawn far back) lets the moves waiting on
            # this event loop go first now and then.
            await asyncio.sleep(0)
    if rows:
        async with (
            conn.cursor() as copy_cursor,
            copy_cursor.copy(
                _sql(
                    "COPY {rating_history} (game, ladder, finish_transaction,"
                    " finish_position, player_key, player, game_id, rated_at, rank,"
                    " mu, sigma, ordinal, rated, wins) FROM STDIN",
                    tables,
                )
            ) as copy,
        ):
            for row in rows:
                await copy.write_row(row)
    await _latest(conn, tables, game, ladder, touched | keys)


async def _before(
    conn: AsyncConnection,
    tables: RatingTables,
    game: str,
    ladder: str,
    start: Position,
    keys: Iterable[str],
) -> dict[str, _Standing]:
    """Each player's rating on the ladder before `start` (absent: none yet)."""
    cursor = await conn.execute(
        _sql(
            "SELECT k.key, h.mu, h.sigma, h.rated, h.wins"
            " FROM unnest(%s::text[]) AS k (key) CROSS JOIN LATERAL"
            f" ({_LATEST} AND (finish_transaction, finish_position) < (%s, %s)"
            f" {_NEWEST}) AS h",
            tables,
        ),
        (list(keys), game, ladder, *start),
    )
    return {key: _Standing(*rest) for key, *rest in await cursor.fetchall()}


def _folded(
    game: str, ladder: str, games: list[Any], standing: dict[str, _Standing]
) -> Iterable[tuple]:
    """The ladder's history rows for `games`, in order, `standing` kept current."""
    for game_id, tx, pos, at, players, keys, winner_keys, ranks in games:
        teams = [
            [MODEL.rating(mu=s.mu, sigma=s.sigma)]
            if (s := standing.get(key))
            else [MODEL.rating()]
            for key in keys
        ]
        rated = MODEL.rate(teams, ranks=list(ranks))
        for name, key, rank, (after,) in zip(players, keys, ranks, rated, strict=True):
            before = standing.get(key)
            won = key in winner_keys
            now = _Standing(
                after.mu,
                after.sigma,
                (before.rated if before else 0) + 1,
                (before.wins if before else 0) + won,
            )
            standing[key] = now
            yield (
                game,
                ladder,
                tx,
                pos,
                key,
                name,
                game_id,
                at,
                rank,
                now.mu,
                now.sigma,
                ordinal(now.mu, now.sigma),
                now.rated,
                now.wins,
            )


async def _latest(
    conn: AsyncConnection,
    tables: RatingTables,
    game: str,
    ladder: str,
    keys: set[str],
) -> None:
    """The leaderboard's rows of these players: their latest history row, or none."""
    if not keys:
        return
    params = (game, ladder, list(keys))
    await conn.execute(
        _sql(
            "DELETE FROM {ratings} WHERE game = %s AND ladder = %s"
            " AND player_key = ANY(%s)",
            tables,
        ),
        params,
    )
    await conn.execute(
        _sql(
            "INSERT INTO {ratings} (game, ladder, player_key, player, mu, sigma,"
            " ordinal, rated, wins, last_rated_at)"
            " SELECT h.game, h.ladder, k.key, h.player, h.mu, h.sigma, h.ordinal,"
            " h.rated, h.wins, h.rated_at"
            " FROM unnest(%s::text[]) AS k (key) CROSS JOIN LATERAL"
            f" ({_LATEST} {_NEWEST}) AS h",
            tables,
        ),
        (list(keys), game, ladder),
    )


# A player's newest row of a ladder, read from the end of its index (player, game,
# ladder, position): a look-up per player, whatever their history's length.
_LATEST = (
    "SELECT * FROM {rating_history} WHERE player_key = k.key AND game = %s"
    " AND ladder = %s"
)
_NEWEST = "ORDER BY finish_transaction DESC, finish_position DESC LIMIT 1"


def _sql(statement: str, tables: RatingTables) -> sql.Composed:
    return sql.SQL(statement).format(
        rated_games=sql.Identifier(tables.rated_games),
        rating_history=sql.Identifier(tables.rating_history),
        ratings=sql.Identifier(tables.ratings),
    )
