"""The game list's rows (`game_summaries`) as stored, and as the log says they must
be: a projection runner or a rebuild is right when the two agree."""

from __future__ import annotations

from psycopg_pool import AsyncConnectionPool

from service.application.games import Games


async def summaries(pool: AsyncConnectionPool) -> list[tuple]:
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT game_id, status, winners, version, updated_at"
            " FROM game_summaries ORDER BY game_id"
        )
        return await cursor.fetchall()


async def folded(games: Games) -> list[tuple]:
    """What the summaries must say, folded from the whole log."""
    async with games.store.pool.connection() as conn:
        cursor = await conn.execute("SELECT id FROM games ORDER BY id")
        ids = [row[0] for row in await cursor.fetchall()]
    expected = []
    for game_id in ids:
        _, history = await games.current(game_id)
        (last,) = await games.store.read(game_id, history.version - 1)
        status = "finished" if history.finished else "in_progress"
        winners = list(history.winners or ())
        expected.append((game_id, status, winners, history.version, last.recorded_at))
    return expected
