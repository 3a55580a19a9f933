"""Games and their logs: each game's row and its events, created, imported, appended
to one at a time (with optimistic concurrency and idempotency keys) and read back,
one game at a time.

Event data crosses this boundary as JSON text in UTF-8 bytes, already encoded by the
caller and returned as the database stores it; this module never interprets it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

from psycopg import AsyncConnection, errors
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from service.storage.commits import NewEvent, SharedCommits
from service.storage.notes import NewEntry, insert_entries
from service.storage.pools import Recorder
from service.storage.samples import sample_game

T = TypeVar("T")

# The key that plays a game again once (migrations/0024_rematches.sql).
_PLAYED_AGAIN_ONCE = "games_played_again_once"

# The key space of the lock an import holds on its game and seed: the first of the
# two 32-bit keys, as the notes' lock ("tlnt", service/storage/notes.py). "tlim".
_IMPORT_LOCK = 0x746C_696D


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
    # The group the game is played in (a family, a club): its name.
    group: str | None = None
    # The group key the game was created with, which may write it (migration 0021).
    group_key: UUID | None = None
    # Who sees it: public, unlisted or members (migration 0022).
    visibility: str = "public"
    # A game played again: the game it follows (migration 0024).
    rematch_of: UUID | None = None

    @property
    def keyed(self) -> bool:
        """Whether the game was created with a key, an app's or a group's."""
        return self.app_key is not None or self.group_key is not None


@dataclass(frozen=True, slots=True)
class GameRow(NewGameRow):
    """A game's row as read back: with the time the database stored it, and
    whether it is a sample game (`tablelog seed`, migrations/0026), which its
    group's mark says (or its own, for a sample of no group), fixed from its
    creation."""

    created_at: datetime = field(kw_only=True)
    sample: bool = field(default=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    game_id: UUID
    version: int
    position: int
    type: str
    data: bytes
    recorded_at: datetime


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


@dataclass(frozen=True, slots=True)
class SameGame:
    """How an import finds the stored game it already is, if any.

    The stored games of its `game`, `seed`, `players` and `first_player` (the
    set-up as the database can compare it), oldest first, each with its first
    `versions` rows, are handed to `pick`, which names the one the import is, or
    None: the import is a new game. `pick` reads the rows (their options and
    moves), which this module never interprets."""

    game: str
    seed: int
    players: tuple[str, ...]
    first_player: str
    versions: int
    pick: Callable[[list[tuple[GameRow, list[StoredEvent]]]], UUID | None]
    # Whether the importer may know of a stored game: a game hidden from it is
    # never the one the import is, so that no answer names it.
    shown: Callable[[GameRow], bool] = lambda row: True


class AlreadyImported(Exception):
    """An import of a game already stored: that game."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"already imported as game {game_id}")
        self.game_id = game_id


class AlreadyPlayedAgain(Exception):
    """A game played again a second time (migration 0024): `game_id` names the
    game that was played again."""

    def __init__(self, game_id: UUID) -> None:
        super().__init__(f"game {game_id} was already played again")
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


EVENT_COLUMNS = "game_id, version, position, type, data::text, recorded_at"
_STORED_COLUMNS = (
    "id, game, players, first_player, seed, options, token_hash,"
    " title, played_at, location, notes, variation_of, variation_step, app_key,"
    " created_at, group_name, group_key, visibility, rematch_of"
)


def game_columns(table: str) -> str:
    """A game's row as `game_of` reads it, of the `games` table known as `table`:
    its stored columns, then whether it is a sample."""
    stored = ", ".join(
        f"{table}.{column.strip()}" for column in _STORED_COLUMNS.split(",")
    )
    is_sample = sample_game(f"{table}.id", f"player_key({table}.group_name)")
    return f"{stored}, {is_sample}"


GAME_COLUMNS = game_columns("games")
_INSERT_EVENT = """
    INSERT INTO events (game_id, version, type, data, idempotency_key, request_hash)
    VALUES (%s, %s, %s, %s::jsonb, %s, %s)
    RETURNING position, recorded_at
"""


class GameLogs(Recorder):
    """Games and their events: the writes and the idempotency look-up on the
    primary, the reads that decide nothing (a game's row and events) from `reads`."""

    def __init__(
        self, pool: AsyncConnectionPool, reads: AsyncConnectionPool | None = None
    ) -> None:
        super().__init__(pool, reads)
        # The highest version the primary was seen holding, per game, by the
        # idempotency look-up: a replay of a stored answer needs that version, and
        # a replica outside the synchronous set may not have it yet (see read).
        self._seen: dict[UUID, int] = {}
        self._commits = SharedCommits(pool)

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
        same: SameGame | None = None,
        notes: Sequence[NewEntry] = (),
        joins: Callable[[AsyncConnection], Awaitable[None]] | None = None,
    ) -> T:
        """Store a whole game at once (a creation or an import): all of it, or nothing.

        The game row, its creation event and every move go in one transaction, so a
        reader never sees a half-imported game and a failure leaves no trace. Before
        the commit the rows are read back and handed to `read_back`, whose answer is
        returned: a value the database took but cannot give back (a date past year
        9999 once in UTC) raises Unreadable, and anything `read_back` raises (a row
        the caller cannot fold) rolls the game back too. Nothing is committed that
        the service could not read.

        `same` finds the stored game an import already is: then nothing is stored
        and AlreadyImported names that game. `digest` names an import's content,
        kept as the record of the import; a second game with the same one raises
        AlreadyImported too, naming the first. `notes`: an import's notes on its
        moves, stored with them. `joins`: what the game's storing writes besides
        in its transaction (its players joining its group's roster), called once
        its row is in.
        """
        try:
            async with self._pool.connection() as conn, conn.transaction():
                if same is not None and (found := await _same_game(conn, same)):
                    raise AlreadyImported(found)
                stored = await _insert_game(conn, game)
                if joins is not None:
                    await joins(conn)
                if digest is not None:
                    first = await _insert_import(conn, digest, game.id)
                    if first is not None and await _shown(conn, first, same):
                        raise AlreadyImported(first)
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
            if error.diag.constraint_name == _PLAYED_AGAIN_ONCE:
                raise AlreadyPlayedAgain(game.rematch_of) from None
            # Another import of the same content committed first, between this
            # one's look and its insert: that game (which `same`, if given, would
            # have found under its lock) is the one the file is.
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

    async def played_again(self, game_id: UUID) -> GameRow | None:
        """The game that followed `game_id` when it was played again, if it was,
        read on the primary: a request that follows the one that made it finds it."""
        async with self._pool.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE rematch_of = %s", (game_id,)
            )
            row = await cursor.fetchone()
        return None if row is None else game_of(row)

    async def get_game(self, game_id: UUID) -> GameRow | None:
        async with self._reads.connection() as conn:
            cursor = await conn.execute(
                f"SELECT {GAME_COLUMNS} FROM games WHERE id = %s", (game_id,)
            )
            row = await cursor.fetchone()
        return None if row is None else game_of(row)

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


async def _insert_game(conn: AsyncConnection, game: NewGameRow) -> GameRow:
    """Insert the game's row; the row as the database gives it back."""
    cursor = await conn.execute(
        "INSERT INTO games (id, game, players, first_player, seed, options,"
        " token_hash, title, played_at, location, notes, variation_of, variation_step,"
        " app_key, group_name, group_key, visibility, rematch_of)"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s,"
        " %s)"
        f" RETURNING {GAME_COLUMNS}",
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
            game.group_key,
            game.visibility,
            game.rematch_of,
        ),
    )
    # The row is converted to Python here, at the fetch: a value the database took
    # but that has no Python equivalent (a date past year 9999) fails now, inside
    # the transaction, rather than at every later read of the game.
    try:
        row = await cursor.fetchone()
    except errors.DataError as error:
        raise Unreadable(game.id, str(error)) from error
    stored = game_of(row)
    if game.variation_of is not None and game.group is None:
        stored = await _variation_of_an_ungrouped_sample(conn, stored)
    return stored


async def _variation_of_an_ungrouped_sample(
    conn: AsyncConnection, row: GameRow
) -> GameRow:
    """The variation `row`, marked a sample if it branches from a sample of no
    group (migrations/0026): a variation is seen as its game is, and a group's
    samples pass theirs on by their group."""
    cursor = await conn.execute(
        "INSERT INTO ungrouped_samples (game_id)"
        " SELECT %s FROM ungrouped_samples WHERE game_id = %s RETURNING game_id",
        (row.id, row.variation_of),
    )
    if await cursor.fetchone() is None:
        return row
    return replace(row, sample=True)


async def _same_game(conn: AsyncConnection, same: SameGame) -> UUID | None:
    """The stored game the import is, as `same.pick` finds it among those of its
    set-up, looked for under a lock held to the commit on the import's game and
    seed. Two imports of one game racing (from two processes) would each find
    nothing before the other commits, and no key can refuse the second (see
    migrations/0020); with the lock the second waits for the first's commit, and
    its look, a statement begun after it (READ COMMITTED), sees the first's game.
    An advisory lock, as the notes take one: the serving role may not lock rows of
    the append-only `games` table."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock(%s::int, hashtext(%s::text))",
        (_IMPORT_LOCK, f"{same.game} {same.seed}"),
    )
    cursor = await conn.execute(
        f"SELECT {GAME_COLUMNS} FROM games"
        " WHERE game = %s AND seed = %s AND players = %s::text[]"
        " AND first_player = %s ORDER BY created_at, id",
        (same.game, same.seed, list(same.players), same.first_player),
    )
    rows = [game_of(row) for row in await cursor.fetchall()]
    rows = [row for row in rows if same.shown(row)]
    found = [(row, await _read(conn, row.id, 0, same.versions)) for row in rows]
    return same.pick(found) if found else None


async def _insert_import(
    conn: AsyncConnection, digest: bytes, game_id: UUID
) -> UUID | None:
    """Keep the import's digest; the game imported with it first, if another was.
    A file imported first into a game hidden from this importer is stored again,
    as a game of its own whose digest the record keeps no second time: the record
    names the first game only."""
    cursor = await conn.execute(
        "INSERT INTO imports (digest, game_id) VALUES (%s, %s)"
        " ON CONFLICT (digest) DO NOTHING RETURNING game_id",
        (digest, game_id),
    )
    if await cursor.fetchone() is not None:
        return None
    cursor = await conn.execute(
        "SELECT game_id FROM imports WHERE digest = %s", (digest,)
    )
    (first,) = await cursor.fetchone()
    return first


async def _shown(conn: AsyncConnection, game_id: UUID, same: SameGame | None) -> bool:
    """Whether the importer may know of the stored game `game_id`."""
    if same is None:
        return True
    cursor = await conn.execute(
        f"SELECT {GAME_COLUMNS} FROM games WHERE id = %s", (game_id,)
    )
    return same.shown(game_of(await cursor.fetchone()))


async def _read(
    conn: AsyncConnection, game_id: UUID, after: int, limit: int | None
) -> list[StoredEvent]:
    cursor = await conn.execute(
        f"SELECT {EVENT_COLUMNS} FROM events"
        " WHERE game_id = %s AND version > %s ORDER BY version LIMIT %s",
        (game_id, after, limit),
    )
    return [event_of(row) for row in await cursor.fetchall()]


def game_of(row: Any) -> GameRow:
    id_, game, players, first_player, seed, options, token_hash, *rest = row
    title, played_at, location, notes, *rest = rest
    variation_of, variation_step, app_key, created_at, *rest = rest
    group, group_key, seen, rematch_of, sample = rest
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
        group_key=group_key,
        visibility=seen,
        rematch_of=rematch_of,
        created_at=created_at,
        sample=sample,
    )


def _appended(
    game_id: UUID, version: int, type: str, data: bytes, row: Any
) -> StoredEvent:
    """The event just stored: the database adds only its position and time (its
    data is the caller's, not read back: a read gives jsonb's normalised text)."""
    position, recorded_at = row
    return StoredEvent(game_id, version, position, type, data, recorded_at)


def event_of(row: Any) -> StoredEvent:
    game_id, version, position, type, data, recorded_at = row
    return StoredEvent(
        game_id=game_id,
        version=version,
        position=position,
        type=type,
        data=data.encode("utf-8"),
        recorded_at=recorded_at,
    )
