"""Contract tests of the event store and the migrator, against a real PostgreSQL."""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

from service.storage.migrate import MigrationsMissing, migrate, migration_files
from service.storage.store import (
    EventStore,
    GameNotFound,
    GameRow,
    GlobalPosition,
    IdempotencyKeyUsed,
    NewGameRow,
    StoredEvent,
    VersionConflict,
)

CREATED = b'{"type": "game_created"}'


@pytest.fixture(scope="module")
def database_url(create_database) -> str:
    """A database of this module's own: the contract stores events that are no
    game's moves, which would trip the projection runner of a service on the shared
    database."""
    url = create_database()
    migrate(url)
    return url


def new_game(**changes: Any) -> NewGameRow:
    fields: dict[str, Any] = {
        "id": uuid4(),
        "game": "dobro",
        "players": ("Priscila", "Mauricio", "Karen"),
        "first_player": "Karen",
        "seed": 42,
        "options": {"rounds": 3},
        "token_hash": b"\x01\x02\x03",
    }
    return NewGameRow(**(fields | changes))


def move(number: int) -> bytes:
    return b'{"type": "play", "number": %d}' % number


async def create(store: EventStore) -> UUID:
    game = new_game()
    await store.create_game(game, "game_created", CREATED)
    return game.id


async def append_moves(store: EventStore, game_id: UUID, count: int) -> None:
    for version in range(2, count + 2):
        await store.append(game_id, version, "play", move(version))


@asynccontextmanager
async def store_on(url: str) -> AsyncIterator[EventStore]:
    async with AsyncConnectionPool(url, min_size=1, max_size=4, open=False) as pool:
        yield EventStore(pool)


async def read_everything(
    store: EventStore, limit: int
) -> list[tuple[GlobalPosition, StoredEvent]]:
    """Follow the global log from the start, a page at a time, as a projection does."""
    log: list[tuple[GlobalPosition, StoredEvent]] = []
    while page := await store.read_all(log[-1][0] if log else None, limit=limit):
        log.extend(page)
    return log


def versions(events: list[StoredEvent]) -> list[int]:
    return [event.version for event in events]


class TestEventStore:
    def test_created_game_reads_back_with_its_creation_event(self, store, run):
        game = new_game(
            title="Friday night",
            played_at=datetime(2026, 11, 27, 20, tzinfo=UTC),
            location="Porto Alegre",
            notes="Karen shuffles",
        )

        first = run(store.create_game(game, "game_created", CREATED))

        row = run(store.get_game(game.id))
        assert isinstance(row, GameRow)
        assert (row.id, row.players, row.options, row.token_hash) == (
            game.id,
            game.players,
            {"rounds": 3},
            b"\x01\x02\x03",
        )
        assert (row.title, row.played_at, row.location, row.notes) == (
            game.title,
            game.played_at,
            game.location,
            game.notes,
        )
        assert row.created_at.tzinfo is not None
        assert (first.game_id, first.version, first.type) == (
            game.id,
            1,
            "game_created",
        )
        assert first.data == b'{"type": "game_created"}'
        assert run(store.read(game.id)) == [first]

    def test_unknown_game_is_none(self, store, run):
        assert run(store.get_game(uuid4())) is None

    def test_appended_events_read_back_in_version_order(self, store, run):
        game_id = run(create(store))

        appended = [
            run(store.append(game_id, version, "play", move(version)))
            for version in (2, 3, 4)
        ]

        events = run(store.read(game_id))
        assert events[1:] == appended
        assert versions(events) == [1, 2, 3, 4]
        assert [event.data for event in appended] == [move(2), move(3), move(4)]
        assert events == sorted(events, key=lambda event: event.position)

    def test_data_comes_back_as_the_stored_json_text(self, store, run):
        game_id = run(create(store))

        event = run(store.append(game_id, 2, "play", '{"player": "Zoë"}'.encode()))

        assert event.data.decode() == '{"player": "Zoë"}'
        assert run(store.read(game_id, after=1))[0].data == event.data

    def test_read_pages_with_after_and_limit(self, store, run):
        game_id = run(create(store))
        run(append_moves(store, game_id, 5))

        assert versions(run(store.read(game_id, after=2))) == [3, 4, 5, 6]
        assert versions(run(store.read(game_id, after=2, limit=2))) == [3, 4]
        assert versions(run(store.read(game_id, limit=1))) == [1]
        assert run(store.read(game_id, after=6)) == []
        assert run(store.read(uuid4())) == []

    def test_read_data_gives_each_version_and_its_data_as_read_does(self, store, run):
        game_id = run(create(store))
        run(append_moves(store, game_id, 4))

        events = run(store.read(game_id, after=1))
        data = run(store.read_data(game_id, after=1))
        assert [version for version, _ in data] == versions(events) == [2, 3, 4, 5]
        assert [text.encode() for _, text in data] == [e.data for e in events]
        assert run(store.read_data(game_id, after=5)) == []
        assert run(store.read_data(uuid4())) == []

    def test_concurrent_appends_of_one_version_store_exactly_one(self, store, run):
        game_id = run(create(store))

        async def race() -> list[StoredEvent | BaseException]:
            appends = (
                store.append(game_id, 2, "play", move(racer)) for racer in range(8)
            )
            return await asyncio.gather(*appends, return_exceptions=True)

        outcomes = run(race())

        winners = [o for o in outcomes if isinstance(o, StoredEvent)]
        losers = [o for o in outcomes if not isinstance(o, StoredEvent)]
        assert len(winners) == 1
        assert len(losers) == 7
        assert all(isinstance(loser, VersionConflict) for loser in losers)
        assert {(loser.game_id, loser.version) for loser in losers} == {(game_id, 2)}
        events = run(store.read(game_id))
        assert versions(events) == [1, 2]
        assert events[1] == winners[0]

    def test_append_waiting_on_an_uncommitted_rival_fails_when_it_commits(
        self, store, run, database_url
    ):
        game_id = run(create(store))

        async def scenario() -> None:
            async with await psycopg.AsyncConnection.connect(database_url) as rival:
                await rival.execute(
                    "INSERT INTO events (game_id, version, type, data)"
                    " VALUES (%s, 2, 'play', '{}')",
                    (game_id,),
                )
                late = asyncio.create_task(store.append(game_id, 2, "play", move(2)))
                await asyncio.sleep(0.2)
                assert not late.done(), "the append waits on the rival's version"
                await rival.commit()
                with pytest.raises(VersionConflict):
                    await late

        run(scenario())

        assert versions(run(store.read(game_id))) == [1, 2]
        assert run(store.read(game_id))[1].data == b"{}"

    def test_reused_idempotency_key_is_refused_and_stored_once(self, store, run):
        game_id = run(create(store))
        run(store.append(game_id, 2, "play", move(2), idempotency_key="k-1"))

        with pytest.raises(IdempotencyKeyUsed) as used:
            run(store.append(game_id, 3, "play", move(2), idempotency_key="k-1"))

        assert (used.value.version, used.value.request_hash) == (2, None)
        assert versions(run(store.read(game_id))) == [1, 2]

    def test_find_idempotent_gives_the_version_and_request_hash(self, store, run):
        game_id = run(create(store))
        run(append_moves(store, game_id, 2))
        run(
            store.append(
                game_id, 4, "play", move(4), idempotency_key="k", request_hash=b"h"
            )
        )

        assert run(store.find_idempotent(game_id, "k")) == (4, b"h")
        assert run(store.find_idempotent(game_id, "other")) is None
        assert run(store.find_idempotent(uuid4(), "k")) is None

    def test_idempotency_keys_belong_to_one_game(self, store, run):
        first, second = run(create(store)), run(create(store))

        run(store.append(first, 2, "play", move(2), idempotency_key="same"))
        run(store.append(second, 2, "play", move(2), idempotency_key="same"))

        assert run(store.find_idempotent(second, "same")) == (2, None)

    def test_retry_racing_its_first_attempt_reports_the_key(self, store, run):
        """Same key and same version: the caller must replay, not answer 409."""
        game_id = run(create(store))
        run(
            store.append(
                game_id, 2, "play", move(2), idempotency_key="k", request_hash=b"h"
            )
        )

        with pytest.raises(IdempotencyKeyUsed) as used:
            run(store.append(game_id, 2, "play", move(2), idempotency_key="k"))

        assert (used.value.version, used.value.request_hash) == (2, b"h")

    def test_append_to_a_game_never_created_is_refused(self, store, run):
        with pytest.raises(GameNotFound):
            run(store.append(uuid4(), 2, "play", move(2)))

    def test_an_append_past_the_next_version_is_refused_and_stores_nothing(
        self, store, run
    ):
        game_id = run(create(store))
        run(append_moves(store, game_id, 2))
        with pytest.raises(psycopg.errors.IntegrityConstraintViolation, match="follow"):
            run(store.append(game_id, 5, "play", move(5)))
        assert versions(run(store.read(game_id))) == [1, 2, 3]
        run(store.append(game_id, 4, "play", move(4)))

    def test_a_gap_sharing_a_commit_is_refused_alone(self, store, run):
        """Appends of several games stored together (commits.py): the one that
        would leave a gap is refused, the others are stored."""
        games = [run(create(store)) for _ in range(6)]

        async def together() -> list[Any]:
            return await asyncio.gather(
                *(
                    store.append(game_id, 3 if n == 2 else 2, "play", move(2))
                    for n, game_id in enumerate(games)
                ),
                return_exceptions=True,
            )

        outcomes = run(together())
        assert isinstance(outcomes[2], psycopg.errors.IntegrityConstraintViolation)
        expected = [[1, 2]] * len(games)
        expected[2] = [1]
        assert [versions(run(store.read(g))) for g in games] == expected

    def test_the_serving_role_cannot_store_a_gap_in_any_statement(
        self, store, run, database_url
    ):
        """Several versions of one game in one INSERT, in any order, go in; a
        version after none stored does not, whoever writes it."""
        game_id = run(create(store))
        insert = "INSERT INTO events (game_id, version, type, data) VALUES "
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute("SET ROLE tablelog_app")
            conn.execute(
                insert + "(%(id)s, 3, 'play', '{}'), (%(id)s, 2, 'play', '{}')",
                {"id": game_id},
            )
            for values in ["(%(id)s, 5, 'play', '{}')", "(%(id)s, 1944, 'play', '{}')"]:
                with pytest.raises(psycopg.errors.IntegrityConstraintViolation):
                    conn.execute(insert + values, {"id": game_id})
        assert versions(run(store.read(game_id))) == [1, 2, 3]

    @pytest.mark.parametrize(
        "statement",
        [
            "UPDATE events SET data = '{}' WHERE game_id = %(id)s",
            "DELETE FROM events WHERE game_id = %(id)s",
            "TRUNCATE events",
            "UPDATE games SET title = 'rewritten' WHERE id = %(id)s",
            "DELETE FROM games WHERE id = %(id)s",
            "TRUNCATE games CASCADE",
            "UPDATE events SET type = 'none' WHERE false",
        ],
    )
    def test_stored_rows_cannot_be_changed_or_removed(
        self, store, run, database_url, statement
    ):
        game_id = run(create(store))
        before = run(store.read(game_id))

        with (
            psycopg.connect(database_url) as conn,
            pytest.raises(psycopg.errors.RaiseException, match="append-only"),
        ):
            conn.execute(statement, {"id": game_id})

        assert run(store.read(game_id)) == before
        assert run(store.get_game(game_id)).title is None

    def test_read_all_follows_every_game_in_order(self, run, fresh_database_url):
        async def scenario() -> None:
            async with store_on(fresh_database_url) as store:
                first, second = await create(store), await create(store)
                await store.append(first, 2, "play", move(2))
                await store.append(second, 2, "play", move(2))
                await store.append(first, 3, "play", move(3))

                log = await store.read_all()

                assert [(e.game_id, e.version) for _, e in log] == [
                    (first, 1),
                    (second, 1),
                    (first, 2),
                    (second, 2),
                    (first, 3),
                ]
                assert [p for p, _ in log] == sorted(p for p, _ in log)
                assert [p.position for p, _ in log] == [e.position for _, e in log]
                assert await read_everything(store, limit=2) == log
                assert await store.read_all(log[-1][0]) == []
                assert await store.read_all(log[1][0], limit=2) == log[2:4]

        run(scenario())

    def test_read_all_waits_for_an_open_transaction_and_skips_nothing(
        self, run, fresh_database_url
    ):
        """The gap: a later position may commit first; the reader must not pass it."""

        async def scenario() -> None:
            async with (
                store_on(fresh_database_url) as store,
                await psycopg.AsyncConnection.connect(fresh_database_url) as slow,
            ):
                slow_game, fast_game = await create(store), await create(store)
                seen = await store.read_all()
                checkpoint = seen[-1][0]

                # Given a writer whose event took a position and has not committed,
                cursor = await slow.execute(
                    "INSERT INTO events (game_id, version, type, data)"
                    " VALUES (%s, 2, 'play', '{\"slow\": true}') RETURNING position",
                    (slow_game,),
                )
                (slow_position,) = await cursor.fetchone()
                # and other writers that commit later-numbered events meanwhile,
                fast = [
                    await store.append(fast_game, 2, "play", move(2)),
                    await store.append(fast_game, 3, "play", move(3)),
                ]
                assert all(event.position > slow_position for event in fast)
                assert versions(await store.read(fast_game)) == [1, 2, 3]

                # then the reader does not move past the open transaction,
                assert await store.read_all(checkpoint) == []

                # and once it commits, it gets every event exactly once, none skipped.
                await slow.commit()
                rest = await store.read_all(checkpoint)
                assert [(e.game_id, e.version) for _, e in rest] == [
                    (slow_game, 2),
                    (fast_game, 2),
                    (fast_game, 3),
                ]
                log = seen + rest
                assert [p for p, _ in log] == sorted({p for p, _ in log})
                assert await read_everything(store, limit=1) == log
                cursor = await slow.execute("SELECT position FROM events")
                stored = sorted(position for (position,) in await cursor.fetchall())
                assert sorted(e.position for _, e in log) == stored

        run(scenario())

    def test_read_all_is_held_back_by_a_rolled_back_writer_only_while_it_runs(
        self, run, fresh_database_url
    ):
        async def scenario() -> None:
            async with (
                store_on(fresh_database_url) as store,
                await psycopg.AsyncConnection.connect(fresh_database_url) as doomed,
            ):
                game_id = await create(store)
                await doomed.execute(
                    "INSERT INTO events (game_id, version, type, data)"
                    " VALUES (%s, 2, 'play', '{}')",
                    (game_id,),
                )
                other = await create(store)
                assert [e.game_id for _, e in await store.read_all()] == [game_id]

                await doomed.rollback()

                log = await store.read_all()
                assert [(e.game_id, e.version) for _, e in log] == [
                    (game_id, 1),
                    (other, 1),
                ]

        run(scenario())

    def test_ping_answers(self, store, run):
        assert run(store.ping()) is None


def test_migrate_twice_applies_nothing_the_second_time(create_database):
    url = create_database()

    first = migrate(url)
    second = migrate(url)

    assert first == [path.name for path in migration_files()]
    assert second == []


def test_two_processes_migrating_together_apply_each_migration_once(create_database):
    url = create_database()
    start = threading.Barrier(2)

    def migrate_when_both_are_ready() -> list[str]:
        start.wait(timeout=10)
        return migrate(url)

    with ThreadPoolExecutor(max_workers=2) as workers:
        results = [workers.submit(migrate_when_both_are_ready) for _ in range(2)]
        applied = sorted((future.result(timeout=30) for future in results), key=len)

    assert applied == [[], [path.name for path in migration_files()]]
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT name FROM schema_migrations ORDER BY name"
        ).fetchall()
    assert [name for (name,) in rows] == [path.name for path in migration_files()]


def test_migrations_apply_in_numeric_order(tmp_path: Path):
    for name in ("10_later.sql", "2_earlier.sql", "0001_first.sql"):
        (tmp_path / name).write_text("SELECT 1;")

    names = [path.name for path in migration_files(tmp_path)]

    assert names == ["0001_first.sql", "2_earlier.sql", "10_later.sql"]


def test_migration_numbers_are_unique(tmp_path: Path):
    (tmp_path / "1_a.sql").write_text("SELECT 1;")
    (tmp_path / "0001_b.sql").write_text("SELECT 1;")

    with pytest.raises(ValueError, match="share 1"):
        migration_files(tmp_path)


def test_a_folder_without_migrations_is_an_error_not_an_empty_schema(tmp_path: Path):
    (tmp_path / "README").write_text("no SQL here")

    with pytest.raises(MigrationsMissing, match="install is incomplete"):
        migration_files(tmp_path)


def test_a_missing_migrations_package_stops_the_start_with_a_clear_error(
    monkeypatch, fresh_database_url
):
    monkeypatch.setitem(sys.modules, "migrations", None)  # as if never installed

    with pytest.raises(MigrationsMissing, match="not installed"):
        migrate(fresh_database_url)
