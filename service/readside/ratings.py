"""Players' ratings as the projection runner keeps them: what the folds of
`projections.ratings` take is read from the tables (`rated_games`, each finished
game's standings at its finishing move's place in the log; `rating_history`, each
player's rating after each game of a ladder; `ratings`, the leaderboards, all of
migrations/0014), and what they give is written there.

A batch's games go in together, after the game list, once the batch's games are
folded: what the batch changes (`changes`) is written, then each ladder touched
refolds from its earliest change (`refolded`), from the ratings its players had
before it. Each leaderboard row is then its player's latest history row on the
ladder, copied by the database.

Nothing here runs on a move's path: the runner's batch folds it, after the moves.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Protocol
from uuid import UUID

from psycopg import AsyncConnection, sql
from psycopg.rows import args_row

from projections.ratings import (
    EVERY_GROUP,
    PUBLIC,
    PUBLIC_PART,
    Finish,
    LadderGame,
    Placed,
    Position,
    Standing,
    changes,
    refolded,
)

# History rows folded between two turns given to the rest of the event loop.
YIELD_EVERY = 200


class RatingTables(Protocol):
    """The tables a fold writes to (the live read models or their rebuilt copies)."""

    rated_games: str
    rating_history: str
    ratings: str


async def rate(
    conn: AsyncConnection,
    tables: RatingTables,
    finishes: Mapping[UUID, tuple[int, Finish | None]],
) -> None:
    """Bring the ratings up to the games of a batch: each game id with its version
    folded and its result then (None while in progress or abandoned)."""
    if not finishes:
        return
    cursor = await conn.execute(
        _sql(
            "SELECT game_id, game, group_key, finish_transaction, finish_position,"
            " on_global, visibility = 'public' FROM {rated_games}"
            " WHERE game_id = ANY(%s)",
            tables,
        ),
        (list(finishes),),
    )
    rated = {
        game_id: Placed(game, group_key, (transaction, position), on_global, public)
        for game_id, game, group_key, transaction, position, on_global, public in (
            await cursor.fetchall()
        )
    }
    positions = await _positions(
        conn, {gid: v for gid, (v, finish) in finishes.items() if finish}
    )
    changed = changes(rated, finishes, positions)
    if changed.withdrawn:
        await conn.execute(
            _sql("DELETE FROM {rated_games} WHERE game_id = ANY(%s)", tables),
            (changed.withdrawn,),
        )
    for finish, position, group_key in await _insert(conn, tables, changed.added):
        public = finish.visibility == PUBLIC
        changed.refold(
            Placed(finish.game, group_key, position, finish.on_global, public)
        )
    for (game, ladder), start in sorted(changed.refolds.items()):
        await refold(conn, tables, game, ladder, start)


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
                " first_player, winners, ranks, visibility, on_global)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " RETURNING group_key",
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
                    finish.visibility,
                    finish.on_global,
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
    async with conn.cursor(row_factory=args_row(LadderGame)) as ladder_cursor:
        await ladder_cursor.execute(
            _sql(
                "SELECT game_id, finish_transaction, finish_position, finished_at,"
                " players, player_keys, winner_keys, ranks FROM {rated_games}"
                f" WHERE game = %s AND {_ON_LADDER}"
                " AND (finish_transaction, finish_position) >= (%s, %s)"
                " ORDER BY finish_transaction, finish_position",
                tables,
            ),
            (game, *_ladder_params(ladder), *start),
        )
        games = await ladder_cursor.fetchall()
    keys = {key for played in games for key in played.player_keys}
    before = await _before(conn, tables, game, ladder, start, keys)
    rows = []
    for count, row in enumerate(refolded(game, ladder, games, before), start=1):
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
) -> dict[str, Standing]:
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
    return {key: Standing(*rest) for key, *rest in await cursor.fetchall()}


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


# The games a ladder rates (`projections.ratings.ladders`), given its kind: its
# game's own (those rated there), a group's (all its games) or a group's public
# part (its public games).
_ON_LADDER = (
    "CASE %s::text WHEN 'game' THEN on_global"
    " WHEN 'group' THEN group_key = %s"
    " ELSE group_key = %s AND visibility = 'public' END"
)


def _ladder_params(ladder: str) -> tuple[str, str, str]:
    """The parameters of `_ON_LADDER` for `ladder`."""
    if ladder == EVERY_GROUP:
        return ("game", "", "")
    if ladder.startswith(PUBLIC_PART):
        group_key = ladder.removeprefix(PUBLIC_PART)
        return ("public", group_key, group_key)
    return ("group", ladder, ladder)


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
