"""Faults: the database restarts in the middle of a load. Requests during the outage
get a 503 problem+json (not a hang, not a 500), the service recovers without being
restarted, no acknowledged move is lost and no half-stored move appears.

The test runs its own embedded PostgreSQL, so that stopping it disturbs no other test.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from service.storage.embedded import embedded_postgres
from service.storage.migrate import migrate
from tests.support.games import Game, assert_log_sound, create
from tests.support.server import running_server

CLIENTS = 8
# The outage outlasts the pool's 5 s wait for a connection: a request met by a
# shorter one waits for the database and is answered 201 (the pool hands out no
# connection the server has closed), so only a longer one shows the 503s.
BEFORE, OUTAGE, AFTER = 2.0, 6.5, 4.0
# The pool waits 5 s for a connection before the service gives up with a 503.
SLOWEST_ANSWER = 9.0


@dataclass(frozen=True)
class Answer:
    game: str
    sent: float
    took: float
    status: int
    problem: bool


@pytest.fixture
def data_dir() -> Iterator[Path]:
    # Under /tmp itself: as root the server runs as its own user (see tests/conftest).
    directory = Path(tempfile.mkdtemp(prefix="tablelog-test-faults-"))
    yield directory / "data"
    shutil.rmtree(directory, ignore_errors=True)


async def _client(base_url: str, game: Game, stop: float, answers: list) -> None:
    version = 1
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        while time.monotonic() < stop:
            sent = time.monotonic()
            try:
                answer = await client.post(
                    f"/games/{game.id}/moves",
                    json={**game.move_at(version), "expected_version": version},
                    headers=game.auth,
                )
            except httpx.TimeoutException:
                answers.append(Answer(game.id, sent, time.monotonic() - sent, 0, False))
                continue
            took = time.monotonic() - sent
            problem = answer.headers.get("content-type") == "application/problem+json"
            answers.append(Answer(game.id, sent, took, answer.status_code, problem))
            if answer.status_code == 201:
                game.acknowledged[version + 1] = game.move_at(version)
                version += 1
            elif answer.status_code == 409:
                # A move answered 503 was stored after all: go on from where it is.
                version = answer.json()["version"]
            else:
                await asyncio.sleep(0.1)


def _load(base_url: str, games: list[Game], seconds: float, answers: list) -> None:
    async def clients() -> None:
        stop = time.monotonic() + seconds
        await asyncio.gather(*(_client(base_url, g, stop, answers) for g in games))

    asyncio.run(clients())


@pytest.mark.db
def test_a_database_restart_gets_503s_and_loses_nothing(data_dir):
    database = embedded_postgres(data_dir)
    url = database.__enter__()
    try:
        migrate(url)
        with running_server(url) as base_url:
            with httpx.Client(base_url=base_url, timeout=30) as client:
                games = [create(client, "dobro-pixar") for _ in range(CLIENTS)]
            answers: list[Answer] = []
            load = threading.Thread(
                target=_load,
                args=(base_url, games, BEFORE + OUTAGE + AFTER + 2, answers),
            )
            load.start()
            time.sleep(BEFORE)
            down = time.monotonic()
            database.__exit__(None, None, None)
            time.sleep(OUTAGE)
            database = embedded_postgres(data_dir)
            assert database.__enter__() == url
            up = time.monotonic()
            load.join(timeout=60)
            assert not load.is_alive()

            with httpx.Client(base_url=base_url, timeout=30) as client:
                for game in games:
                    assert_log_sound(client, game)
    finally:
        database.__exit__(None, None, None)

    statuses = {a.status for a in answers}
    assert statuses <= {201, 409, 503}, [
        a for a in answers if a.status not in (201, 409, 503)
    ]
    assert all(a.problem for a in answers if a.status == 503)
    assert max(a.took for a in answers) < SLOWEST_ANSWER
    assert any(a.status == 503 for a in answers), "no request met the outage"
    # Recovered without a restart of the service: every client stores moves again.
    recovered = {a.game for a in answers if a.status == 201 and a.sent > up}
    assert recovered == {g.id for g in games}
    assert any(a.status == 201 and a.sent < down for a in answers)
