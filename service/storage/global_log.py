"""The global log: the events of every game in one order, for the readers that
follow them all (the live streams, the projection runner, the webhooks' deliverer,
the public feed), each resuming from its checkpoint."""

from __future__ import annotations

from dataclasses import dataclass

from service.storage.games import EVENT_COLUMNS, StoredEvent, event_of
from service.storage.pools import Recorder
from service.storage.samples import removed_game


@dataclass(frozen=True, slots=True, order=True)
class GlobalPosition:
    """A reader's checkpoint in the global log: the last event it has seen."""

    transaction: int
    position: int


_START = GlobalPosition(transaction=0, position=0)


# The global log in an order that never lets an event commit behind a reader.
# Positions are handed out at INSERT, not at COMMIT: a transaction that took
# position 7 may commit after the one that took 8, and a reader that had already
# moved past 8 would skip 7 for ever. So rows are taken only from transactions older
# than the oldest one still running (the xmin of this statement's snapshot): those
# have all ended, and every transaction that commits later has an id at least that
# xmin, so it sorts after everything returned here. Ordering by (transaction_id,
# position) then gives each reader one stable order to resume in. A long transaction
# anywhere on the server delays readers; it never makes them skip.
#
# The same holds on a read replica. A hot standby's snapshot is built from the WAL it
# has replayed (the primary's running-transactions records and every transaction id
# seen in it), so its xmin is at most the oldest transaction still running on the
# primary as of that point: every transaction below it has its commit or abort
# replayed. A standby behind another gives a lower horizon, never a hole, so a
# reader may switch replicas. After a failover the promoted standby goes on handing
# out ids above every one it replayed: checkpoints taken before it stay in order.
#
# The ids are the server's plus the database's log_offset() (migrations/0019), on
# both sides: an event is stamped log_transaction_id(), the horizon is log_horizon().
# The offset is 0 where the log was written; a logical restore into another cluster,
# whose own counter may be far below the restored ids, sets it so that the new ids
# go on above them and above every checkpoint taken before (`tablelog restore`).
_READ_ALL = f"""
    SELECT transaction_id::text::bigint, {EVENT_COLUMNS}
    FROM events
    WHERE transaction_id < log_horizon()
      AND (transaction_id, position) > (%s::text::xid8, %s)
    ORDER BY events.transaction_id, events.position
    LIMIT %s
"""

# The same order and the same horizon, with each event's game kind, optionally of one
# kind only: the feed of every game a reader lists, the public ones and those of its
# own group (its name, as names are compared; NULL for none), none removed
# (service/application/visibility.py).
_READ_FEED = f"""
    SELECT e.transaction_id::text::bigint, e.game_id, e.version, e.position, e.type,
           e.data::text, e.recorded_at, g.game
    FROM events e JOIN games g ON g.id = e.game_id
    WHERE e.transaction_id < log_horizon()
      AND (e.transaction_id, e.position) > (%s::text::xid8, %s)
      AND (%s::text IS NULL OR g.game = %s)
      AND (g.visibility = 'public'
           OR player_key(g.group_name) = player_key(%s::text))
      AND NOT {removed_game("g.id", "player_key(g.group_name)")}
    ORDER BY e.transaction_id, e.position
    LIMIT %s
"""


class GlobalLog(Recorder):
    """The global log, read from `reads` (the read replicas' pool, or the
    primary's)."""

    async def read_all(
        self, after: GlobalPosition | None = None, limit: int = 1000
    ) -> list[tuple[GlobalPosition, StoredEvent]]:
        """Events of every game after the checkpoint, in commit-safe order.

        Pass the last position returned to resume; an event committed late is
        returned after, never skipped (see _READ_ALL).
        """
        start = after or _START
        async with self._reads.connection() as conn:
            cursor = await conn.execute(
                _READ_ALL, (str(start.transaction), start.position, limit)
            )
            rows = await cursor.fetchall()
        return [(GlobalPosition(row[0], row[3]), event_of(row[1:])) for row in rows]

    async def read_feed(
        self,
        after: GlobalPosition | None,
        limit: int,
        game: str | None = None,
        group: str | None = None,
    ) -> list[tuple[GlobalPosition, StoredEvent, str]]:
        """As read_all, with each event's game kind (and only `game`'s, if given),
        of the public games and of the group `group`'s (None: no group)."""
        start = after or _START
        params = (str(start.transaction), start.position, game, game, group, limit)
        async with self._reads.connection() as conn:
            cursor = await conn.execute(_READ_FEED, params)
            rows = await cursor.fetchall()
        return [
            (GlobalPosition(row[0], row[3]), event_of(row[1:7]), row[7]) for row in rows
        ]

    async def head(self) -> GlobalPosition:
        """A checkpoint at the end of the log as a reader may see it now.

        Everything older than the oldest running transaction counts as read; events
        of transactions still running, or yet to start, come after it.
        """
        async with self._reads.connection() as conn:
            cursor = await conn.execute("SELECT log_horizon()::text::bigint")
            (horizon,) = await cursor.fetchone()
        return GlobalPosition(horizon - 1, 2**63 - 1)
