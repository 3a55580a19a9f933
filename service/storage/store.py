"""The event store: games and their append-only event logs in PostgreSQL.

Event data crosses this boundary as JSON text in UTF-8 bytes, already encoded by the
caller and returned as the database stores it; this module never interprets it.
"""

from __future__ import annotations

import asyncio
import select
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from psycopg import AsyncConnection, errors
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from service.settings import Settings
from service.storage.commits import CommitFailed, NewEvent, SharedCommits
from service.storage.notes import NewEntry, insert_entries

__all__ = [
    "AlreadyImported",
    "CommitFailed",
    "EventStore",
    "GameNotFound",
    "GameRow",
    "GlobalPosition",
    "IdempotencyKeyUsed",
    "NewGameRow",
    "StoredEvent",
    "Unreadable",
    "VersionConflict",
]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class NewGameRow:
    """A game's row as it is stored at creation."""

    id: UUID
    game: str
    players: tuple[str, ...]
    first_player: str
    seed: int
    options: dict[str, Any]
    token_hash: bytes
    title: str | None = None
    played_at: datetime | None = None
    location: str | None = None
    notes: str | None = None
    # A variation: the game it branched from and the step it starts at.
    variation_of: UUID | None = None
    variation_step: int | None = None
    # The app key the game was created with, which may write it (migration 0016).
    app_key: UUID | None = None
    # The group the game is played in (a family, a club), named at creation.
    group: str | None = None


@dataclass(frozen=True, slots=True)
class GameRow(NewGameRow):
    """A game's row as read back: with the time the database stored it."""

    created_at: datetime = field(kw_only=True)


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


@dataclass(frozen=True, slots=True)
class StoredEvent:
    game_id: UUID
    version: int
    position: int
    type: str
    data: bytes
    recorded_at: datetime


@dataclass(frozen=True, slots=True, order=True)
class GlobalPosition:
    """A reader's checkpoint in the global log: the last event it has seen."""

    transaction: int
    position: int


_START = GlobalPosition(transaction=0, position=0)

# Games whose latest version seen on the primary the store keeps in mind at once.
_SEEN_GAMES = 10_000


class VersionConflict(Exception):
    """Another append took this version of the game first."""

    def __init__(self, game_id: UUID, version: int) -> None:
        super().__init__(f"game {game_id} already has a version {version}")
        self.game_id = game_id
        self.version = version


class IdempotencyKeyUsed(Exception):
    """The game already stored an event under this idempotency key."""

    def __init__(
        self, game_id: UUID, key: str, version: int, request_hash: bytes | None
    ) -> None:
        super().__init__(f"game {game_id} stored version {version} under key {key!r}")
        self.game_id = game_id
        self.key = key
        self.version = version
        self.request_hash = request_hash


class AlreadyImported(Exception):
    """An import of content already imported: the game it became."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"already imported as game {game_id}")
        self.game_id = game_id


class Unreadable(Exception):
    """A value the database stored but could not give back: the write is undone."""

    def __init__(self, game_id: UUID, reason: str) -> None:
        super().__init__(f"game {game_id} would not read back: {reason}")
        self.game_id = game_id
        self.reason = reason


class GameNotFound(LookupError):
    """An append named a game that was never created."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


_EVENT_COLUMNS = "game_id, version, position, type, data::text, recorded_at"
_GAME_COLUMNS = (
    "id, game, players, first_player, seed, options, token_hash,"
    " title, played_at, location, notes, variation_of, variation_step, app_key,"
    " created_at, group_name"
)
_PREFIXED_GAME_COLUMNS = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))
_INSERT_EVENT = """
    INSERT INTO events (game_id, version, type, data, idempotency_key, request_hash)
    VALUES (%s, %s, %s, %s::jsonb, %s, %s)
    RETURNING position, recorded_at
"""

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
    SELECT transaction_id::text::bigint, {_EVENT_COLUMNS}
    FROM events
    WHERE transaction_id < log_horizon()
      AND (transaction_id, position) > (%s::text::xid8, %s)
    ORDER BY events.transaction_id, events.position
    LIMIT %s
"""

# The same order and the same horizon, with each event's game kind, optionally of one
# kind only: the public feed of every game.
_READ_FEED = """
    SELECT e.transaction_id::text::bigint, e.game_id, e.version, e.position, e.type,
           e.data::text, e.recorded_at, g.game
    FROM events e JOIN games g ON g.id = e.game_id
    WHERE e.transaction_id < log_horizon()
      AND (e.transaction_id, e.position) > (%s::text::xid8, %s)
      AND (%s::text IS NULL OR g.game = %s)
    ORDER BY e.transaction_id, e.position
    LIMIT %s
"""


def connection_pool(settings: Settings) -> AsyncConnectionPool:
    """The service's pool, not yet open. A request waits at most 5 s for a
    connection, then answers 503 rather than hanging while the database is down.

    Connections are in autocommit: a batch of appends is one INSERT, its own
    transaction, in one round trip; work of several statements opens
    `conn.transaction()` itself.

    With read replicas, a write's commit waits until the synchronous standbys have
    applied it (`remote_apply`, set per session): whatever a client was answered is
    then already visible on them, so its next read on a replica sees its write.
    """
    configure = _apply_on_standbys if settings.database_read_url else None
    return _pool(settings.database_url, settings, configure)


def read_pool(settings: Settings) -> AsyncConnectionPool | None:
    """The pool of the read replicas (`database_read_url`), not yet open; None
    when the reads go to the primary."""
    if settings.database_read_url is None:
        return None
    return _pool(settings.database_read_url, settings, None)


def _pool(
    conninfo: str,
    settings: Settings,
    configure: Callable[[AsyncConnection], Any] | None,
) -> AsyncConnectionPool:
    return AsyncConnectionPool(
        conninfo,
        min_size=settings.pool_min_size,
        max_size=settings.pool_max_size,
        timeout=5,
        kwargs={"autocommit": True},
        check=_check_if_closed,
        configure=configure,
        open=False,
    )


async def _check_if_closed(conn: AsyncConnection) -> None:
    """The pool's check of a connection as it leaves the pool.

    When the primary dies (or restarts, or is demoted) every idle connection is dead
    too: unchecked, each would fail one request before the pool replaced it. An idle
    connection has nothing to read unless the server closed it or wrote to it, so
    its socket is polled, which costs no round trip; only a connection with
    something to read gets the library's check, an empty query, which raises if it
    is dead (the pool then drops it and takes another). An empty query on every
    checkout cost appends 12 to 40 % of their rate on the bench. A host that vanishes
    without closing its connections is caught by the connection's own timeouts
    (`tcp_user_timeout` in the conninfo), as any query would be.
    """
    readable = select.poll()
    readable.register(conn.fileno(), select.POLLIN)
    if readable.poll(0):
        await AsyncConnectionPool.check_connection(conn)


async def _apply_on_standbys(conn: AsyncConnection) -> None:
    await conn.execute("SET synchronous_commit TO remote_apply")


class EventStore:
    """Games and their events, over a pool of psycopg connections.

    `reads`, when given, is a pool of read replicas: the reads that decide nothing
    (a game's row and events, the global log) go there; the writes, the idempotency
    look-up and the health check stay on `pool`, the primary.
    """

    def __init__(
        self, pool: AsyncConnectionPool, reads: AsyncConnectionPool | None = None
    ) -> None:
        self._pool = pool
        self._reads = reads or pool
        # The highest version the primary was seen holding, per game, by the
        # idempotency look-up: a replay of a stored answer needs that version, and
        # a replica outside the synchronous set may not have it yet (see read).
        self._seen: dict[UUID, int] = {}
        self._commits = SharedCommits(pool)

    @property
    def pool(self) -> AsyncConnectionPool:
        return self._pool

    async def create_game(
        self, game: NewGameRow, type: str, data: bytes
    ) -> StoredEvent:
        """Store the game and its creation event (version 1) together."""
        async with self._pool.connection() as conn, conn.transaction():
            await _insert_game(conn, game)
            cursor = await conn.execute(
                _INSERT_EVENT, (game.id, 1, type, data.decode("utf-8"), None, None)
            )
            return _appended(game.id, 1, type, data, await cursor.fetchone())

    async def import_game(
        self,
        game: NewGameRow,
        created: tuple[str, bytes],
        moves: Sequence[tuple[str, bytes]],
        read_back: Callable[[GameRow, list[StoredEvent]], T],
        *,
        digest: bytes | None = None,
        notes: Sequence[NewEntry] = (),
    ) -> T:
        """Store a whole game at once (a creation or an import): all of it, or nothing.

        The game row, its creation event and every move go in one transaction, so a
        reader never sees a half-imported game and a failure leaves no trace. Before
        the commit the rows are read back and handed to `read_back`, whose answer is
        returned: a value the database took but cannot give back (a date past year
        9999 once in UTC) raises Unreadable, and anything `read_back` raises (a row
        the caller cannot fold) rolls the game back too. Nothing is committed that
        the service could not read.

        `digest` names an import's content: a second game with the same one raises
        AlreadyImported, naming the first. `notes`: an import's notes on its moves,
        stored with them.
        """
        try:
            async with self._pool.connection() as conn, conn.transaction():
                stored = await _insert_game(conn, game)
                if digest is not None:
                    await _insert_import(conn, digest, game.id)
                async with conn.cursor() as cursor:
                    await cursor.executemany(
                        "INSERT INTO events (game_id, version, type, data)"
                        " VALUES (%s, %s, %s, %s::jsonb)",
                        [
                            (game.id, version, type, data.decode("utf-8"))
                            for version, (type, data) in enumerate(
                                [created, *moves], start=1
                            )
                        ],
                    )
                await insert_entries(conn, game.id, notes)
                events = await _read(conn, game.id, 0, None)
                return read_back(stored, events)
        except errors.UniqueViolation as error:
            if digest is None or error.diag.constraint_name != "imports_pkey":
                raise
        raise AlreadyImported(await self._imported_as(digest))

    async def _imported_as(self, digest: bytes) -> UUID:
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT game_id FROM imports WHERE digest = %s", (digest,)
            )
            (game_id,) = await cursor.fetchone()
        return game_id

    async def get_game(self, game_id: UUID) -> GameRow | None:
        async with self._reads.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE id = %s", (game_id,)
            )
            row = await cursor.fetchone()
        return None if row is None else _game(row)

    async def append(
        self,
        game_id: UUID,
        version: int,
        type: str,
        data: bytes,
        *,
        idempotency_key: str | None = None,
        request_hash: bytes | None = None,
    ) -> StoredEvent:
        """Store the event as `version` (the version the caller saw, plus one).

        Raises VersionConflict when another append took that version first, and
        IdempotencyKeyUsed when the game already stored an event under the key.
        The primary key and the unique key decide, no lock is taken. The event is
        committed with whatever other appends are waiting (see commits.py) before
        this returns; CommitFailed when that shared commit failed.
        """
        event = NewEvent(
            game_id, version, type, data.decode("utf-8"), idempotency_key, request_hash
        )
        try:
            inserted = await self._commits.insert(event)
        except errors.ForeignKeyViolation:
            raise GameNotFound(game_id) from None
        if inserted is None:
            raise await self._refusal(event)
        return StoredEvent(
            game_id, version, inserted.position, type, data, inserted.recorded_at
        )

    async def _refusal(self, event: NewEvent) -> Exception:
        """Why the event was not stored: one of its keys was taken."""
        # A retry that lost a race against its own first attempt collides on both
        # keys; the key is what tells the caller to replay the answer.
        if event.idempotency_key is not None:
            used = await self.find_idempotent(event.game_id, event.idempotency_key)
            if used is not None:
                return IdempotencyKeyUsed(event.game_id, event.idempotency_key, *used)
        return VersionConflict(event.game_id, event.version)

    async def find_idempotent(
        self, game_id: UUID, key: str
    ) -> tuple[int, bytes | None] | None:
        """The version stored under the key and the hash of its request, if any."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT version, request_hash FROM events"
                " WHERE game_id = %s AND idempotency_key = %s",
                (game_id, key),
            )
            row = await cursor.fetchone()
        if row is None:
            return None
        if len(self._seen) >= _SEEN_GAMES:
            self._seen.clear()  # a hint only: forgetting costs a read at most
        self._seen[game_id] = max(row[0], self._seen.get(game_id, 0))
        return row[0], row[1]

    async def read(
        self,
        game_id: UUID,
        after: int = 0,
        limit: int | None = None,
        *,
        at_least: int = 0,
    ) -> list[StoredEvent]:
        """The game's events after version `after`, in version order.

        From a replica, unless it gave fewer than a version the primary was seen
        holding, or than `at_least` (the version the caller knows is stored): then
        from the primary. A replica outside the synchronous set (one rejoining
        after a failover) may be behind a write already answered."""
        async with self._reads.connection() as conn:
            events = await _read(conn, game_id, after, limit)
        if self._reads is not self._pool:
            reached = events[-1].version if events else after
            full = limit is not None and len(events) >= limit
            known = max(at_least, self._seen.get(game_id, 0))
            if not full and reached < known:
                async with self._pool.connection() as conn:
                    events = await _read(conn, game_id, after, limit)
        return events

    async def read_data(self, game_id: UUID, after: int = 0) -> list[tuple[int, str]]:
        """(version, data) of the game's events after version `after`, in version
        order: what a fold needs and no more. A cold load of a long game reads
        thousands of rows; with every column (as `read` gives them) the read of
        5,000 took 1.7 to 3.5 times as long as this one."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                "SELECT version, data::text FROM events"
                " WHERE game_id = %s AND version > %s ORDER BY version",
                (game_id, after),
            )
            return await cursor.fetchall()

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
                f"SELECT {_PREFIXED_GAME_COLUMNS}, s.version, s.engine, s.data,"
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
        return _game(game), snapshot

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
        return [(GlobalPosition(row[0], row[3]), _event(row[1:])) for row in rows]

    async def read_feed(
        self, after: GlobalPosition | None, limit: int, game: str | None = None
    ) -> list[tuple[GlobalPosition, StoredEvent, str]]:
        """As read_all, with each event's game kind (and only `game`'s, if given)."""
        start = after or _START
        params = (str(start.transaction), start.position, game, game, limit)
        async with self._reads.connection() as conn:
            cursor = await conn.execute(_READ_FEED, params)
            rows = await cursor.fetchall()
        return [
            (GlobalPosition(row[0], row[3]), _event(row[1:7]), row[7]) for row in rows
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

    async def ping(self, within: float | None = None) -> None:
        """Raise unless the database answers, within `within` seconds when given
        (PoolTimeout when it does not, as when the pool found no connection)."""
        try:
            async with (
                asyncio.timeout(within),
                self._pool.connection(timeout=within) as conn,
            ):
                await conn.execute("SELECT 1")
        except TimeoutError as error:
            raise PoolTimeout(f"the database did not answer in {within} s") from error


async def _insert_game(conn: AsyncConnection, game: NewGameRow) -> GameRow:
    """Insert the game's row; the row as the database gives it back."""
    cursor = await conn.execute(
        "INSERT INTO games (id, game, players, first_player, seed, options,"
        " token_hash, title, played_at, location, notes, variation_of, variation_step,"
        " app_key, group_name)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
        f" RETURNING {_GAME_COLUMNS}",
        (
            game.id,
            game.game,
            list(game.players),
            game.first_player,
            game.seed,
            Jsonb(game.options),
            game.token_hash,
            game.title,
            game.played_at,
            game.location,
            game.notes,
            game.variation_of,
            game.variation_step,
            game.app_key,
            game.group,
        ),
    )
    # The row is converted to Python here, at the fetch: a value the database took
    # but that has no Python equivalent (a date past year 9999) fails now, inside
    # the transaction, rather than at every later read of the game.
    try:
        row = await cursor.fetchone()
    except errors.DataError as error:
        raise Unreadable(game.id, str(error)) from error
    return _game(row)


async def _insert_import(conn: AsyncConnection, digest: bytes, game_id: UUID) -> None:
    await conn.execute(
        "INSERT INTO imports (digest, game_id) VALUES (%s, %s)", (digest, game_id)
    )


async def _read(
    conn: AsyncConnection, game_id: UUID, after: int, limit: int | None
) -> list[StoredEvent]:
    cursor = await conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM events"
        " WHERE game_id = %s AND version > %s ORDER BY version LIMIT %s",
        (game_id, after, limit),
    )
    return [_event(row) for row in await cursor.fetchall()]


def _game(row: Any) -> GameRow:
    id_, game, players, first_player, seed, options, token_hash, *rest = row
    title, played_at, location, notes, *rest = rest
    variation_of, variation_step, app_key, created_at, group = rest
    return GameRow(
        id=id_,
        game=game,
        players=tuple(players),
        first_player=first_player,
        seed=seed,
        options=options,
        token_hash=token_hash,
        title=title,
        played_at=played_at,
        location=location,
        notes=notes,
        variation_of=variation_of,
        variation_step=variation_step,
        app_key=app_key,
        group=group,
        created_at=created_at,
    )


def _appended(
    game_id: UUID, version: int, type: str, data: bytes, row: Any
) -> StoredEvent:
    """The event just stored: the database adds only its position and time (its
    data is the caller's, not read back: a read gives jsonb's normalised text)."""
    position, recorded_at = row
    return StoredEvent(game_id, version, position, type, data, recorded_at)


def _event(row: Any) -> StoredEvent:
    game_id, version, position, type, data, recorded_at = row
    return StoredEvent(
        game_id=game_id,
        version=version,
        position=position,
        type=type,
        data=data.encode("utf-8"),
        recorded_at=recorded_at,
    )
