"""A variation's name and hiding in PostgreSQL (`variation_names`, migrations/0027):
append-only rows, each a new name, a hiding or a showing again, numbered 1, 2, ...
per variation in the order they were stored. What is in force is the latest of
each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from uuid import UUID

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

# The key space of the lock a variation's rows are written under, the first of the
# two 32-bit keys as for the notes (`storage.notes`). "tlvn".
_NAMES_LOCK = 0x746C_766E

# The name and the hiding in force of the variation `game_summaries.game_id`, for
# the list of a game's variations (`readside.summaries`).
NAME_IN_FORCE = (
    "(SELECT v.name FROM variation_names v"
    " WHERE v.variation_id = game_summaries.game_id AND v.name IS NOT NULL"
    " ORDER BY v.entry DESC LIMIT 1)"
)
HIDDEN = (
    "coalesce((SELECT v.hidden FROM variation_names v"
    " WHERE v.variation_id = game_summaries.game_id AND v.hidden IS NOT NULL"
    " ORDER BY v.entry DESC LIMIT 1), false)"
)


@dataclass(frozen=True, slots=True)
class Label:
    """A variation's name (None until it has one) and whether it is hidden, as they
    stand after `rows` rows."""

    name: str | None = None
    hidden: bool = False
    rows: int = 0


_LABEL = (
    "SELECT"
    " (SELECT name FROM variation_names WHERE variation_id = %(id)s"
    "  AND name IS NOT NULL ORDER BY entry DESC LIMIT 1),"
    " coalesce((SELECT hidden FROM variation_names WHERE variation_id = %(id)s"
    "  AND hidden IS NOT NULL ORDER BY entry DESC LIMIT 1), false),"
    " (SELECT count(*) FROM variation_names WHERE variation_id = %(id)s)"
)


async def read_label(pool: AsyncConnectionPool, variation_id: UUID) -> Label:
    """The variation's name and hiding in force."""
    async with pool.connection() as conn:
        return await _label(conn, variation_id)


async def add_row(
    pool: AsyncConnectionPool,
    variation_id: UUID,
    name: str | None,
    hidden: bool | None,
    check: Callable[[Label], bool],
) -> Label:
    """Store a row naming the variation `name` and hiding it (or showing it again)
    as `hidden` says (None: unchanged), once `check` (which raises to refuse it,
    and returns False when there is nothing to store) has passed the label in
    force; the label then.

    One writer a variation at a time, under an advisory lock held to the commit, as
    a game's notes are written: the limit `check` enforces is checked on every row
    the new one follows, and the number it takes is free."""
    async with pool.connection() as conn, conn.transaction():
        await conn.execute(
            "SELECT pg_advisory_xact_lock(%s::int, hashtext(%s::text))",
            (_NAMES_LOCK, variation_id),
        )
        label = await _label(conn, variation_id)
        if check(label) is False:
            return label
        await conn.execute(
            "INSERT INTO variation_names (variation_id, entry, name, hidden)"
            " VALUES (%s, %s, %s, %s)",
            (variation_id, label.rows + 1, name, hidden),
        )
        return Label(
            name=label.name if name is None else name,
            hidden=label.hidden if hidden is None else hidden,
            rows=label.rows + 1,
        )


async def _label(conn: AsyncConnection, variation_id: UUID) -> Label:
    cursor = await conn.execute(_LABEL, {"id": variation_id})
    name, hidden, rows = await cursor.fetchone()
    return Label(name=name, hidden=hidden, rows=rows)
