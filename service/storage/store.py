"""The event store: games and their append-only event logs in PostgreSQL, as the
application and the read side hold it.

Each part keeps one thing, in a module of its own (as pyeventsourcing's recorders
are split by what they keep):

- `games.py`: games and their logs, one game at a time: creating, importing,
  appending (with optimistic concurrency and idempotency keys), reading back;
- `global_log.py`: the events of every game in one commit-safe order, for the
  readers that follow them all;
- `snapshots.py`: the snapshots of long games, read with their game;
- `samples.py`: the sample games' marks: the groups that hold them, and whether
  they are removed;
- `pools.py`: the pools each part stands on (`Recorder`), the primary's and the
  read replicas'.

`EventStore` is the four parts on one pair of pools, so a caller holds one store
and each operation is its part's own method (the append path is hot: nothing stands
in between).
"""

from __future__ import annotations

from service.storage import pools
from service.storage.commits import CommitFailed
from service.storage.games import (
    AlreadyImported,
    AlreadyPlayedAgain,
    GameLogs,
    GameNotFound,
    GameRow,
    IdempotencyKeyUsed,
    NewGameRow,
    SameGame,
    StoredEvent,
    Unreadable,
    VersionConflict,
)
from service.storage.global_log import GlobalLog, GlobalPosition
from service.storage.samples import NotSample, SampleMarks
from service.storage.snapshots import Snapshot, SnapshotStore

__all__ = [
    "AlreadyImported",
    "AlreadyPlayedAgain",
    "CommitFailed",
    "EventStore",
    "GameNotFound",
    "GameRow",
    "GlobalPosition",
    "IdempotencyKeyUsed",
    "NewGameRow",
    "NotSample",
    "SameGame",
    "Snapshot",
    "StoredEvent",
    "Unreadable",
    "VersionConflict",
]


class EventStore(GameLogs, GlobalLog, SnapshotStore, SampleMarks):
    """Games and their events, over a pool of psycopg connections.

    `reads`, when given, is a pool of read replicas: the reads that decide nothing
    (a game's row and events, the global log) go there; the writes, the idempotency
    look-up and the health check stay on `pool`, the primary.
    """

    async def ping(self, within: float | None = None) -> None:
        """Raise unless the primary answers, within `within` seconds when given
        (PoolTimeout when it does not, as when the pool found no connection)."""
        await pools.ping(self._pool, within)
