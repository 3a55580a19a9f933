"""Notes on a game's moves in PostgreSQL (`move_notes`, migrations/0015): append-only
entries beside the events, each a note on a replay step or the withdrawal of one,
numbered 1, 2, ... per game in the order they were stored."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

# The key space of the lock a game's note entries are written under: the first of
# the two 32-bit keys (PostgreSQL's two-key advisory locks never meet the one-key
# locks the projection runner and the migrations take). "tlnt".
_NOTES_LOCK = 0x746C_6E74


@dataclass(frozen=True, slots=True)
class NewEntry:
    """An entry to store: a note (`step`, `text`, `mark`) or the withdrawal of note
    number `withdraws`. `recorded_at` only for an import, which keeps the time its
    export gave; otherwise the database's."""

    step: int | None = None
    text: str | None = None
    mark: str | None = None
    withdraws: int | None = None
    recorded_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class NoteEntry(NewEntry):
    """An entry as stored: with its number in the game (1 is the first)."""

    entry: int = 0


_COLUMNS = "entry, step, text, mark, withdraws, recorded_at"
_INSERT = (
    "INSERT INTO move_notes (game_id, entry, step, text, mark, withdraws, recorded_at)"
    " VALUES (%s, %s, %s, %s, %s, %s, coalesce(%s, now()))"
    f" RETURNING {_COLUMNS}"
)


async def read_entries(pool: AsyncConnectionPool, game_id: UUID) -> list[NoteEntry]:
    """The game's entries in the order they were stored."""
    async with pool.connection() as conn:
        return await _entries(conn, game_id)


async def count_entries(pool: AsyncConnectionPool, game_id: UUID) -> int:
    """How many entries the game has: they only ever grow, so the count names the
    notes as they stand (a read's ETag)."""
    async with pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT count(*) FROM move_notes WHERE game_id = %s", (game_id,)
        )
        (count,) = await cursor.fetchone()
    return count


async def add_entry(
    pool: AsyncConnectionPool,
    game_id: UUID,
    new: NewEntry,
    check: Callable[[list[NoteEntry]], None],
) -> NoteEntry | None:
    """Store `new` as the game's next entry, once `check` (which raises to refuse
    it) has passed the entries stored before; the entry stored, or None when
    `check` says there is nothing to store (it returns False).

    One writer a game at a time, under an advisory lock held to the commit: the
    limits `check` enforces (so many notes a game, a step) are then checked on
    every entry the new one will follow, and the number it takes is free. An
    advisory lock rather than a lock on the game's row: the serving role may not
    lock rows of the append-only `games` table (that needs UPDATE)."""
    async with pool.connection() as conn, conn.transaction():
        await conn.execute(
            "SELECT pg_advisory_xact_lock(%s::int, hashtext(%s::text))",
            (_NOTES_LOCK, game_id),
        )
        entries = await _entries(conn, game_id)
        if check(entries) is False:
            return None
        cursor = await conn.execute(_INSERT, _row(game_id, len(entries) + 1, new))
        return _entry(await cursor.fetchone())


async def insert_entries(
    conn: AsyncConnection, game_id: UUID, entries: Sequence[NewEntry]
) -> None:
    """A new game's entries, numbered from 1 in order (an import's, inside the
    transaction that stores the game)."""
    async with conn.cursor() as cursor:
        await cursor.executemany(
            _INSERT,
            [_row(game_id, n, new) for n, new in enumerate(entries, start=1)],
        )


def _row(game_id: UUID, number: int, new: NewEntry) -> tuple:
    return (
        game_id,
        number,
        new.step,
        new.text,
        new.mark,
        new.withdraws,
        new.recorded_at,
    )


async def _entries(conn: AsyncConnection, game_id: UUID) -> list[NoteEntry]:
    cursor = await conn.execute(
        f"SELECT {_COLUMNS} FROM move_notes WHERE game_id = %s ORDER BY entry",
        (game_id,),
    )
    return [_entry(row) for row in await cursor.fetchall()]


def _entry(row: tuple) -> NoteEntry:
    entry, step, text, mark, withdraws, recorded_at = row
    return NoteEntry(
        entry=entry,
        step=step,
        text=text,
        mark=mark,
        withdraws=withdraws,
        recorded_at=recorded_at,
    )
