"""The sample games' marks as stored (migrations/0026): the groups that hold sample
games, the samples of no group, and whether the samples are removed. Nothing here
is ever updated or deleted: the removal in force is the latest row.

The SQL that says which games are samples, or removed, is here too, as pieces of
the queries that list games (the game list, the feed, the records, the ladders):
each of those asks it, so that what a reader may not see is answered as missing
everywhere alike (service/application/visibility.py says the rule).
"""

from __future__ import annotations

from uuid import UUID

from psycopg import AsyncConnection, errors

from service.storage.pools import Recorder

# The keys (`player_key`) of the groups marked sample.
_SAMPLE_GROUP_KEYS = (
    "SELECT sg.name_key FROM sample_groups ss JOIN groups sg ON sg.id = ss.group_id"
)
# Whether the samples are removed: the latest row, none read as shown.
SAMPLES_REMOVED = (
    "coalesce((SELECT removed FROM sample_removals ORDER BY seq DESC LIMIT 1), false)"
)


def sample_group(group_key: str) -> str:
    """SQL: whether the group whose key is the SQL expression `group_key` (NULL for
    none) is marked sample. Never NULL, so that `NOT` of it keeps a row."""
    return f"({group_key} IS NOT NULL AND {group_key} IN ({_SAMPLE_GROUP_KEYS}))"


def sample_game(game_id: str, group_key: str) -> str:
    """SQL: whether the game whose id and group's key are these SQL expressions is
    a sample: a game of a sample group, or a sample of no group. Each set is read
    once a query (a hashed subplan), not once a row."""
    return (
        f"({sample_group(group_key)}"
        f" OR {game_id} IN (SELECT game_id FROM ungrouped_samples))"
    )


def removed_group(group_key: str) -> str:
    """SQL: whether the group whose key is the SQL expression `group_key` is a
    sample group while the samples are removed: its ladder is then empty."""
    return f"({SAMPLES_REMOVED} AND {sample_group(group_key)})"


def removed_game(game_id: str, group_key: str) -> str:
    """SQL: whether the game is removed, a sample while the samples are removed:
    then it does not exist for anyone."""
    return f"({SAMPLES_REMOVED} AND {sample_game(game_id, group_key)})"


class NotSample(Exception):
    """A group that is not marked sample holds the name asked for."""


class SampleMarks(Recorder):
    """The marks, read from the primary: a removal is answered by the next read of
    every process, as a key revoked is."""

    async def samples_removed(self) -> bool:
        async with self._pool.connection() as conn:
            cursor = await conn.execute(f"SELECT {SAMPLES_REMOVED}")
            (removed,) = await cursor.fetchone()
        return removed

    async def sample_group_named(self, id: UUID, name: str) -> str:
        """The name of the group named `name` (as names are compared), marked
        sample; made with `id`, public and with no key, if no group holds the name.
        NotSample if a group holds it that is not marked sample: its games are no
        samples, and the samples join no group of anyone's."""
        async with self._pool.connection() as conn, conn.transaction():
            found = await _group_named(conn, name)
            if found is None:
                try:
                    async with conn.transaction():
                        await conn.execute(
                            "INSERT INTO groups (id, name) VALUES (%s, %s)", (id, name)
                        )
                        await conn.execute(
                            "INSERT INTO group_visibilities (group_id, visibility)"
                            " VALUES (%s, 'public')",
                            (id,),
                        )
                        await conn.execute(
                            "INSERT INTO sample_groups (group_id) VALUES (%s)", (id,)
                        )
                except errors.UniqueViolation:
                    pass  # made meanwhile, by another seeding: read below
                found = await _group_named(conn, name)
        assert found is not None
        spelt, sample = found
        if not sample:
            raise NotSample(spelt)
        return spelt

    async def mark_samples(self, removed: bool) -> bool:
        """Remove the samples, or show them again; whether that changed anything
        (a row is written only then)."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                "INSERT INTO sample_removals (removed)"
                f" SELECT %s WHERE {SAMPLES_REMOVED} <> %s RETURNING seq",
                (removed, removed),
            )
            return await cursor.fetchone() is not None


async def _group_named(conn: AsyncConnection, name: str) -> tuple[str, bool] | None:
    """The group named `name` as names are compared, and whether it is marked
    sample; None for no such group."""
    cursor = await conn.execute(
        "SELECT g.name, EXISTS (SELECT FROM sample_groups s WHERE s.group_id = g.id)"
        " FROM groups g WHERE g.name_key = player_key(%s)",
        (name,),
    )
    return await cursor.fetchone()
