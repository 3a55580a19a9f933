"""Groups' rosters as stored (migration 0025): each player's id and group, the
group's log of roster changes (ids only, append-only), and players' names apart,
in `roster_names`, the one table of the roster that is not append-only. A player's
name in force is their latest row there; whether they are retired, their latest
`retired` or `returned` change.

Adding players takes the group's advisory lock (the one `GroupStore` takes), so
that two phones adding one name at once make one player, and the roster's limit
holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID, uuid4

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from service.storage.groups import lock_group

ADDED, RETIRED, RETURNED = "added", "retired", "returned"

_PLAYER = (
    "p.id, n.name, c.change = 'retired', p.created_at"
    " FROM roster_players p"
    " CROSS JOIN LATERAL (SELECT name FROM roster_names"
    "  WHERE player_id = p.id ORDER BY seq DESC LIMIT 1) n"
    " CROSS JOIN LATERAL (SELECT change FROM roster_changes"
    "  WHERE player_id = p.id ORDER BY seq DESC LIMIT 1) c"
)


@dataclass(frozen=True, slots=True)
class RosterPlayer:
    """A player of a group's roster: their id, name in force, whether retired."""

    id: UUID
    name: str
    retired: bool
    added_at: datetime


class NameInUse(Exception):
    """Another player of the group has the name, as names are compared."""

    def __init__(self, player: RosterPlayer) -> None:
        super().__init__(player.name)
        self.player = player


class RosterFull(Exception):
    """The group has as many players as a roster may hold."""


class RosterStore:
    """The rosters of one database, over `pool` (the primary's)."""

    def __init__(self, pool: AsyncConnectionPool) -> None:
        self._pool = pool

    async def players(self, group_id: UUID) -> list[RosterPlayer]:
        """Every player of the group, retired ones too, by name."""
        async with self._pool.connection() as conn:
            return await _players(conn, group_id)

    async def player(self, group_id: UUID, player_id: UUID) -> RosterPlayer | None:
        async with self._pool.connection() as conn:
            return await _player(conn, group_id, player_id)

    async def of_group_named(self, group: str) -> list[RosterPlayer]:
        """The players of the group named `group` (as names are compared), retired
        ones too, by name."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_PLAYER} WHERE p.group_id ="
                " (SELECT id FROM groups WHERE name_key = player_key(%s))"
                " ORDER BY player_key(n.name), p.id",
                (group,),
            )
            return [RosterPlayer(*row) for row in await cursor.fetchall()]

    async def add(self, group_id: UUID, name: str, most: int) -> RosterPlayer:
        """A new player of the group; NameInUse when another player has the name
        as names are compared, RosterFull when the group holds `most`."""
        async with self._pool.connection() as conn, conn.transaction():
            await lock_group(conn, group_id)
            cursor = await conn.execute(
                f"SELECT {_PLAYER} WHERE p.group_id = %s"
                " AND player_key(n.name) = player_key(%s)",
                (group_id, name),
            )
            if (row := await cursor.fetchone()) is not None:
                raise NameInUse(RosterPlayer(*row))
            (added,) = await _add(conn, group_id, [name], most)
            return added

    async def retire(
        self, group_id: UUID, player_id: UUID, retired: bool
    ) -> RosterPlayer | None:
        """The player retired (or back from retirement); None if the group has no
        such player. A player already so is left as they are."""
        async with self._pool.connection() as conn, conn.transaction():
            await lock_group(conn, group_id)
            found = await _player(conn, group_id, player_id)
            if found is None or found.retired == retired:
                return found
            await _change(conn, group_id, player_id, RETIRED if retired else RETURNED)
            return await _player(conn, group_id, player_id)


async def include(
    conn: AsyncConnection, group: str, names: Sequence[str], most: int
) -> None:
    """In `conn`'s transaction (a game's that is being stored), every one of
    `names` the roster of the group named `group` lacks (as names are compared)
    joins it, under the group's lock; RosterFull when it would hold more than
    `most`, which rolls the game back too."""
    group_id = await _group_id(conn, group)
    await lock_group(conn, group_id)
    cursor = await conn.execute(
        "SELECT n FROM unnest(%s::text[]) WITH ORDINALITY AS t (n, i)"
        " WHERE NOT EXISTS (SELECT FROM roster_names r"
        "  WHERE r.group_id = %s AND r.name_key = player_key(t.n)"
        "  AND r.seq = (SELECT max(seq) FROM roster_names"
        "   WHERE player_id = r.player_id))"
        " ORDER BY t.i",
        (list(names), group_id),
    )
    missing = [row[0] for row in await cursor.fetchall()]
    if missing:
        await _add(conn, group_id, missing, most)


async def _add(
    conn: AsyncConnection, group_id: UUID, names: Sequence[str], most: int
) -> list[RosterPlayer]:
    """New players of the group, under its lock; RosterFull past `most`."""
    cursor = await conn.execute(
        "SELECT count(*) FROM roster_players WHERE group_id = %s", (group_id,)
    )
    held = await cursor.fetchone()
    assert held is not None
    if held[0] + len(names) > most:
        raise RosterFull()
    added = []
    for name in names:
        player_id = uuid4()
        await conn.execute(
            "INSERT INTO roster_players (id, group_id) VALUES (%s, %s)",
            (player_id, group_id),
        )
        await _change(conn, group_id, player_id, ADDED)
        await conn.execute(
            "INSERT INTO roster_names (player_id, group_id, name) VALUES (%s, %s, %s)",
            (player_id, group_id, name),
        )
        found = await _player(conn, group_id, player_id)
        assert found is not None
        added.append(found)
    return added


async def _group_id(conn: AsyncConnection, group: str) -> UUID:
    cursor = await conn.execute(
        "SELECT id FROM groups WHERE name_key = player_key(%s)", (group,)
    )
    row = await cursor.fetchone()
    assert row is not None, f"no group named {group!r}"
    return row[0]


async def _players(conn: AsyncConnection, group_id: UUID) -> list[RosterPlayer]:
    cursor = await conn.execute(
        f"SELECT {_PLAYER} WHERE p.group_id = %s ORDER BY player_key(n.name), p.id",
        (group_id,),
    )
    return [RosterPlayer(*row) for row in await cursor.fetchall()]


async def _player(
    conn: AsyncConnection, group_id: UUID, player_id: UUID
) -> RosterPlayer | None:
    cursor = await conn.execute(
        f"SELECT {_PLAYER} WHERE p.id = %s AND p.group_id = %s", (player_id, group_id)
    )
    row = await cursor.fetchone()
    return None if row is None else RosterPlayer(*row)


async def _change(
    conn: AsyncConnection, group_id: UUID, player_id: UUID, change: str
) -> None:
    await conn.execute(
        "INSERT INTO roster_changes (group_id, player_id, change) VALUES (%s, %s, %s)",
        (group_id, player_id, change),
    )
