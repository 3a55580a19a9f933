"""Snapshots of long games (migrations/0010 and 0018): one row a game, a read model
the application writes and checks (service/application/snapshots.py); here they are
only kept, and read back with the game's row for a cold load."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from service.storage.games import GameRow, game_columns, game_of
from service.storage.pools import Recorder

_GAME_COLUMNS = game_columns("g")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game's snapshot as stored: its version, the engine that wrote it, its data
    and their signature (None for a row without one; read and checked by
    `service.application.snapshots`), and whether the game's log holds that version
    (`logged`): a snapshot is a read model that the serving role may write, so it is
    checked before it is used."""

    version: int
    engine: str
    data: bytes
    signature: bytes | None
    logged: bool = True


class SnapshotStore(Recorder):
    """The snapshots, written to the primary and read with their game from
    `reads`."""

    async def get_game_and_snapshot(
        self, game_id: UUID
    ) -> tuple[GameRow, Snapshot | None] | None:
        """The game, with its snapshot (a read model, see migrations/0010 and 0018)
        when it has one, in one query: a cold load asks for both. Whether the log
        holds the snapshot's version is one probe of the events' key: the log's
        versions follow one another (migrations/0011), so it then holds every
        version up to it."""
        async with self._reads.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_GAME_COLUMNS}, s.version, s.engine, s.data,"
                " s.signature, EXISTS (SELECT FROM events e"
                " WHERE e.game_id = g.id AND e.version = s.version)"
                " FROM games g LEFT JOIN game_snapshots s ON s.game_id = g.id"
                " WHERE g.id = %s",
                (game_id,),
            )
            row = await cursor.fetchone()
        if row is None:
            return None
        *game, version, engine, data, signature, logged = row
        snapshot = (
            None
            if version is None
            else Snapshot(version, engine, data, signature, logged)
        )
        return game_of(game), snapshot

    async def write_snapshot(
        self,
        game_id: UUID,
        version: int,
        engine: str,
        data: bytes,
        signature: bytes,
        *,
        replace: bool = False,
    ) -> None:
        """Keep one snapshot a game: this one, unless the game's stored snapshot is
        of the same engine and no older. `replace`: this one whatever is stored,
        for a writer that folded the game from its creation: its snapshot is of the
        log as it read it, and the one stored may be one it ignored, which the
        database cannot tell (only the key can)."""
        async with self._pool.connection() as conn:
            await conn.execute(
                "INSERT INTO game_snapshots AS s"
                " (game_id, version, engine, data, signature)"
                " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (game_id) DO UPDATE"
                " SET version = excluded.version, engine = excluded.engine,"
                " data = excluded.data, signature = excluded.signature,"
                " written_at = now()"
                " WHERE %s OR s.version < excluded.version"
                " OR s.engine <> excluded.engine",
                (game_id, version, engine, data, signature, replace),
            )
