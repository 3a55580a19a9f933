"""Shared commits: appends arriving together are stored in one transaction, and still
each keeps its own outcome. Racing writers on many games at once, with versions taken
twice and idempotency keys reused inside one commit: exactly one move per version is
stored, only the losers hear of a conflict, a retry gets the stored answer, a move the
database refuses fails alone, and a commit that fails stores none of its moves and
fails each of them. Whatever was acknowledged reads back."""

from __future__ import annotations

import asyncio
import hashlib
from collections import Counter
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TypeVar
from uuid import UUID, uuid4

import httpx
import psycopg
import pytest

from service.http.problems import RETRY_AFTER_SECONDS
from service.storage.commits import MOST_PER_COMMIT
from service.storage.migrate import migrate
from service.storage.store import (
    CommitFailed,
    EventStore,
    GameNotFound,
    IdempotencyKeyUsed,
    NewGameRow,
    StoredEvent,
    VersionConflict,
)
from tests.support.games import assert_log_sound, create
from tests.support.server import running_server

GAMES = 6
VERSIONS = 5

T = TypeVar("T")


@pytest.fixture(scope="module")
def database_url(create_database) -> str:
    """A database of this module's own: its events are no game's moves, which would
    trip the projection runner of a service on the shared database."""
    url = create_database()
    migrate(url)
    return url


@dataclass(frozen=True)
class Append:
    """One racer's append: its move's data and, maybe, an idempotency key."""

    game_id: UUID
    version: int
    data: bytes
    key: str | None = None

    @property
    def fingerprint(self) -> bytes | None:
        return None if self.key is None else hashlib.sha256(self.data).digest()

    def to(self, store: EventStore):
        return store.append(
            self.game_id,
            self.version,
            "play",
            self.data,
            idempotency_key=self.key,
            request_hash=self.fingerprint,
        )


async def new_games(store: EventStore, count: int) -> list[UUID]:
    ids = [uuid4() for _ in range(count)]
    for game_id in ids:
        row = NewGameRow(game_id, "dobro", ("Ana", "Bia"), "Ana", 7, {}, b"\x00")
        await store.create_game(row, "game_created", b'{"type": "game_created"}')
    return ids


async def at_once(store: EventStore, appends: list[Append]) -> list:
    return await asyncio.gather(*(a.to(store) for a in appends), return_exceptions=True)


def rivals(game_id: UUID, version: int) -> list[Append]:
    """Seven appends of one version: a request sent three times under one key, the
    same key on another move, and three moves of their own without a key."""

    def move(n: int) -> bytes:
        return b'{"type": "play", "racer": %d, "version": %d}' % (n, version)

    key = f"move-{version}"
    return [
        *[Append(game_id, version, move(0), key)] * 3,
        Append(game_id, version, move(1), key),
        *(Append(game_id, version, move(n)) for n in (2, 3, 4)),
    ]


def transactions(database_url: str, game_ids: list[UUID]) -> Counter:
    """How many of the games' moves each transaction stored."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT transaction_id::text FROM events"
            " WHERE game_id = ANY(%s) AND version > 1",
            (game_ids,),
        ).fetchall()
    return Counter(xid for (xid,) in rows)


def test_appends_arriving_together_share_commits(store, run, database_url):
    game_ids = run(new_games(store, 3 * MOST_PER_COMMIT))

    answers = run(at_once(store, [Append(g, 2, b'{"type": "play"}') for g in game_ids]))

    assert all(isinstance(a, StoredEvent) for a in answers), answers
    commits = transactions(database_url, game_ids)
    assert sum(commits.values()) == len(game_ids)
    assert len(commits) < len(game_ids), "every move had a commit of its own"
    assert max(commits.values()) <= MOST_PER_COMMIT


def test_racing_writers_store_one_move_per_version_and_answer_each_its_own(
    store, run, database_url
):
    game_ids = run(new_games(store, GAMES))
    acknowledged: dict[tuple[UUID, int], StoredEvent] = {}

    for version in range(2, VERSIONS + 2):
        racers = [a for g in game_ids for a in rivals(g, version)]
        answers = run(at_once(store, racers))

        for game_id in game_ids:
            mine = [
                (racer, answer)
                for racer, answer in zip(racers, answers, strict=True)
                if racer.game_id == game_id
            ]
            won = [(r, a) for r, a in mine if isinstance(a, StoredEvent)]
            assert len(won) == 1, mine
            winner, event = won[0]
            assert (event.game_id, event.version, event.data) == (
                game_id,
                version,
                winner.data,
            )
            acknowledged[game_id, version] = event
            for racer, answer in mine:
                if answer is not event:
                    assert_lost_to(winner, racer, answer)

    for game_id in game_ids:
        stored = run(store.read(game_id))
        assert [e.version for e in stored] == list(range(1, VERSIONS + 2))
        for event in stored[1:]:
            assert event == acknowledged[game_id, event.version]
    # The races shared their commits: no test of it if every move went alone.
    assert len(transactions(database_url, game_ids)) < GAMES * VERSIONS


def assert_lost_to(winner: Append, loser: Append, answer: object) -> None:
    """A retry of the stored request, or the key on another move, hears of the key
    (with what the winner stored under it); every other loser of a version conflict."""
    if loser.key is not None and loser.key == winner.key:
        assert isinstance(answer, IdempotencyKeyUsed), answer
        assert (answer.version, answer.request_hash) == (
            winner.version,
            winner.fingerprint,
        )
    else:
        assert isinstance(answer, VersionConflict), answer
        assert (answer.game_id, answer.version) == (loser.game_id, loser.version)


def test_one_key_at_two_versions_in_one_commit_is_stored_once(store, run):
    (game_id,) = run(new_games(store, 1))
    first, retry = (
        Append(game_id, version, b'{"type": "play"}', "sent-twice")
        for version in (2, 3)
    )

    answers = run(at_once(store, [first, retry]))

    assert isinstance(answers[0], StoredEvent), answers
    assert isinstance(answers[1], IdempotencyKeyUsed), answers
    assert answers[1].version == 2
    assert [e.version for e in run(store.read(game_id))] == [1, 2]


def test_a_lone_append_runs_in_its_callers_task_and_gives_its_connection_back(
    store, run
):
    (game_id,) = run(new_games(store, 1))

    async def alone() -> tuple[StoredEvent, set, int]:
        before = asyncio.all_tasks()
        stored = await Append(game_id, 2, b'{"type": "play"}').to(store)
        others = asyncio.all_tasks() - before
        return stored, others, store.pool.get_stats()["pool_available"]

    stored, others, available = run(alone())

    assert stored.version == 2
    assert others == set(), "a task of the store outlived the append"
    # Every connection the pool opened is back in it: nothing holds one on.
    assert available == store.pool.get_stats()["pool_size"]


def test_a_move_the_database_refuses_fails_alone(store, run):
    game_ids = run(new_games(store, 4))
    never_created = uuid4()
    racers = [
        *(Append(g, 2, b'{"type": "play"}') for g in game_ids[:2]),
        Append(never_created, 2, b'{"type": "play"}'),
        # jsonb holds no NUL character: PostgreSQL refuses the row.
        Append(game_ids[2], 2, b'{"type": "play", "note": "\\u0000"}'),
        Append(game_ids[3], 2, b'{"type": "play"}'),
    ]

    answers = run(at_once(store, racers))

    assert isinstance(answers[2], GameNotFound), answers
    assert isinstance(answers[3], psycopg.errors.UntranslatableCharacter), answers
    for index in (0, 1, 4):
        assert isinstance(answers[index], StoredEvent), answers
        assert run(store.read(racers[index].game_id))[1:] == [answers[index]]
    assert [e.version for e in run(store.read(game_ids[2]))] == [1]


def test_a_failed_commit_fails_each_of_its_moves_and_stores_none(
    store, run, database_url
):
    game_ids = run(new_games(store, 8))
    racers = [Append(g, 2, b'{"type": "play"}') for g in game_ids]

    # The first racer, alone when it came, is sent at once; the others arrive
    # while it commits and share the next commit, held up by the last racer's.
    answers = run(killed_while_held(database_url, game_ids[-1], at_once(store, racers)))

    failed = [
        r for r, a in zip(racers, answers, strict=True) if isinstance(a, CommitFailed)
    ]
    assert racers[-1] in failed
    assert len(failed) > 1, "the held-up commit had only the last racer"
    for racer, answer in zip(racers, answers, strict=True):
        assert isinstance(answer, StoredEvent | CommitFailed), answer
        stored = run(store.read(racer.game_id))
        assert len(stored) == (1 if racer in failed else 2)
    # Sent again, each failed move is stored once.
    again = run(at_once(store, failed))
    assert all(isinstance(a, StoredEvent) for a in again), again


async def killed_while_held(url: str, game_id: UUID, appends: Awaitable[T]) -> T:
    """The appends' outcomes when the commit of the game's version 2 is held up and its
    server process terminated.

    An uncommitted rival row of that version holds up the commit: the database waits
    to see whether the rival commits. The rival rolls back once the appends answered.
    """
    async with await psycopg.AsyncConnection.connect(url) as rival:
        await rival.execute(
            "INSERT INTO events (game_id, version, type, data)"
            " VALUES (%s, 2, 'play', '{}')",
            (game_id,),
        )
        answering = asyncio.ensure_future(appends)
        waiting = await backend_waiting_on(url, rival)
        await rival.execute("SELECT pg_terminate_backend(%s)", (waiting,))
        answers = await answering
        await rival.rollback()
    return answers


async def backend_waiting_on(url: str, rival: psycopg.AsyncConnection) -> int:
    """The server process of the append waiting for the rival's transaction."""
    for _ in range(200):
        async with await psycopg.AsyncConnection.connect(
            url, autocommit=True
        ) as watcher:
            cursor = await watcher.execute(
                "SELECT pid FROM pg_stat_activity"
                " WHERE %s = ANY(pg_blocking_pids(pid))",
                (rival.info.backend_pid,),
            )
            row = await cursor.fetchone()
        if row is not None:
            return row[0]
        await asyncio.sleep(0.02)
    raise AssertionError("no append waited on the rival")


def test_a_failed_commit_answers_503_and_a_retry_stores_the_move_once(
    fresh_database_url,
):
    with running_server(fresh_database_url) as base_url:
        with httpx.Client(base_url=base_url, timeout=30) as client:
            games = [create(client, "dobro-pixar") for _ in range(4)]
        held = games[0]

        answers = asyncio.run(
            killed_while_held(
                fresh_database_url, held.id, send_first_moves(base_url, games)
            )
        )

        statuses = [a.status_code for a in answers]
        assert statuses[0] == 503, answers[0].text
        assert set(statuses) <= {201, 503}, statuses
        for answer in answers:
            if answer.status_code == 503:
                assert answer.headers["content-type"] == "application/problem+json"
                assert answer.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
                assert "not confirmed stored" in answer.json()["detail"]
        retried = asyncio.run(send_first_moves(base_url, games))
        assert [a.status_code for a in retried] == [201] * len(games)
        for game, answer, retry in zip(games, answers, retried, strict=True):
            if answer.status_code == 201:
                assert retry.content == answer.content  # the first answer, replayed
            game.acknowledged[2] = game.move_at(1)
        with httpx.Client(base_url=base_url, timeout=30) as client:
            for game in games:
                assert assert_log_sound(client, game) == 2


async def send_first_moves(base_url: str, games) -> list[httpx.Response]:
    """Each game's first move at once, under an Idempotency-Key of its own."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        return await asyncio.gather(
            *(
                client.post(
                    f"/games/{game.id}/moves",
                    json={**game.move_at(1), "expected_version": 1},
                    headers=game.auth | {"Idempotency-Key": f"first-{game.id}"},
                )
                for game in games
            )
        )
