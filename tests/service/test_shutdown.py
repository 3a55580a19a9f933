"""Stopping the service with a follower in the middle of a query: the query is
cancelled on the server and its transaction rolled back, the connection kept, and
what it was doing is done by the next start (service/http/app.py). Moves cut by a
stop while the database stalls are answered 503, saying whether they may be stored
(service/http/stopping.py); with a database that answers nothing at all, not even
a cancel request, every request is still answered and the process ends within the
time stated."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest

from service.http.stopping import (
    CANCEL_SECONDS,
    GRACE_SECONDS,
    MAYBE_DONE,
    MAYBE_STORED,
    NOT_READ,
    NOT_STORED,
)
from tests.service.stalling import stalling_proxy
from tests.support.http import create, move
from tests.support.ports import free_port
from tests.support.processes import answering
from tests.support.server import running_server

# The grace period, then a second cancellation of what the database holds, and a
# moment to end.
STOPPED_WITHIN = GRACE_SECONDS + 2 * CANCEL_SECONDS


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def psycopg_warnings() -> Iterator[list[str]]:
    """What psycopg warns of meanwhile. Kept on psycopg's own logger: the app's
    logging set-up replaces the root's handlers, pytest's among them."""
    kept = _Kept()
    logger = logging.getLogger("psycopg")
    logger.addHandler(kept)
    try:
        yield kept.messages
    finally:
        logger.removeHandler(kept)


def _waiting_for_a_lock(conn: psycopg.Connection) -> int:
    return conn.execute(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE datname = current_database() AND wait_event_type = 'Lock'"
    ).fetchone()[0]


def _listed_version(client: httpx.Client, game: dict) -> int | None:
    listed = client.get("/games", params={"player": "Ana", "limit": 50}).json()
    return next((g["version"] for g in listed["games"] if g["id"] == game["id"]), None)


def test_a_projection_batch_cut_by_a_stop_is_rolled_back_and_folded_after(
    fresh_database_url, psycopg_warnings
):
    with (
        psycopg.connect(fresh_database_url, autocommit=True) as watcher,
        psycopg.connect(fresh_database_url) as blocker,
    ):
        with (
            running_server(fresh_database_url) as url,
            httpx.Client(base_url=url, timeout=30) as client,
        ):
            game = create(
                client, game="dobro", players=["Ana", "Bo", "Cy"], first_player="Ana"
            )
            # The list's table locked against writes: the runner's next batch
            # folds the move, then waits at its write, in the middle of a query.
            blocker.execute("LOCK TABLE game_summaries IN EXCLUSIVE MODE")
            play = {"type": "play", "player": "Ana", "cards": [6]}
            assert move(client, game, play).status_code == 201
            deadline = time.monotonic() + 10
            while not _waiting_for_a_lock(watcher):
                assert time.monotonic() < deadline, "the runner never reached its write"
                time.sleep(0.05)
        # Stopped while the write waited. Cancelled once, the query stopped on the
        # server and the transaction rolled back (the lock is still held here):
        # psycopg had no cause to give up on its connection.
        assert psycopg_warnings == []
        assert _waiting_for_a_lock(watcher) == 0
        blocker.rollback()

    # The batch rolled back, its checkpoint with it: the next start folds the move.
    with (
        running_server(fresh_database_url) as url,
        httpx.Client(base_url=url, timeout=30) as client,
    ):
        deadline = time.monotonic() + 10
        while _listed_version(client, game) != 2:
            assert time.monotonic() < deadline, "the move never reached the list"
            time.sleep(0.05)


def test_moves_cut_by_a_stop_while_the_database_stalls_are_answered_503(
    fresh_database_url,
):
    """Two moves' commits sent and stalled at the database, two more queued behind
    them: stopped, the server answers each 503 with Retry-After once its grace
    period is over, the first two "may have been stored", the last two "not
    stored", and those never are."""
    play = {"type": "play", "player": "Ana", "cards": [6]}
    answers: dict[str, httpx.Response] = {}

    def send(base_url: str, game: dict, sent: threading.Event) -> None:
        def trace(event: str, info: dict) -> None:
            if event == "http11.send_request_body.complete":
                sent.set()

        with httpx.Client(base_url=base_url, timeout=30) as client:
            answers[game["id"]] = move(client, game, play, extensions={"trace": trace})

    with (
        psycopg.connect(fresh_database_url, autocommit=True) as watcher,
        psycopg.connect(fresh_database_url) as blocker,
    ):
        with (
            running_server(fresh_database_url) as url,
            httpx.Client(base_url=url, timeout=30) as client,
        ):
            players = {"players": ["Ana", "Bo", "Cy"], "first_player": "Ana"}
            games = [create(client, game="dobro", **players) for _ in range(4)]
            blocker.execute("LOCK TABLE events IN EXCLUSIVE MODE")
            sending = []
            for count, game in enumerate(games, start=1):
                sent = threading.Event()
                sending.append(threading.Thread(target=send, args=(url, game, sent)))
                sending[-1].start()
                # Each move's request is sent whole before the next one starts
                # (under load a thread may take a while to connect).
                assert sent.wait(timeout=10), "the move was not sent"
                deadline = time.monotonic() + 10
                # Each of the first two goes in a commit of its own (two at once).
                while count <= 2 and _waiting_for_a_lock(watcher) < count:
                    assert time.monotonic() < deadline, "the commit was not sent"
                    time.sleep(0.05)
            time.sleep(0.5)  # the last two queue behind them
        for thread in sending:
            thread.join(timeout=30)
        blocker.rollback()
        stored = {
            str(game_id)
            for (game_id,) in watcher.execute(
                "SELECT game_id FROM events WHERE version = 2"
            )
        }

    for game in games:
        answer = answers[game["id"]]
        assert answer.status_code == 503, answer.text
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.headers["retry-after"]
    details = [answers[game["id"]].json()["detail"] for game in games]
    assert details == [MAYBE_STORED, MAYBE_STORED, NOT_STORED, NOT_STORED]
    assert not stored & {games[2]["id"], games[3]["id"]}


def _serve(database_url: str, port: int, log: Path) -> subprocess.Popen:
    """`tablelog serve` on `database_url`, once it answers."""
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("MIGRATION_DATABASE_URL", None)
    with log.open("w") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "service", "serve", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    return answering(server, port, log, seconds=60)


def test_a_stop_while_the_database_answers_nothing_answers_all_and_exits_in_time(
    fresh_database_url, tmp_path
):
    """The database stops answering altogether (its cancel requests too) while
    moves, a creation and a read wait on it: on SIGTERM each is answered 503 once
    the grace period is over, the process exits soon after, and what was
    acknowledged before is stored, what was answered "not stored" is not."""
    port, log = free_port(), tmp_path / "serve.log"
    url = f"http://127.0.0.1:{port}"
    answers: dict[str, tuple[float, httpx.Response]] = {}

    def send(name: str, request: httpx.Request, sent: threading.Event) -> None:
        def trace(event: str, info: dict) -> None:
            if event == "http11.send_request_body.complete":
                sent.set()

        request.extensions["trace"] = trace
        with httpx.Client(timeout=30) as client:
            answer = client.send(request)
        answers[name] = (time.monotonic(), answer)

    with stalling_proxy(fresh_database_url) as proxy:
        server = _serve(proxy.url, port, log)
        try:
            with httpx.Client(base_url=url, timeout=30) as client:
                players = {"players": ["Ana", "Bo", "Cy"], "first_player": "Ana"}
                games = [create(client, game="dobro", **players) for _ in range(4)]
                first = {"type": "play", "player": "Ana", "cards": [6]}
                for game in games:
                    assert move(client, game, first).status_code == 201
            proxy.stall()
            second = {"type": "play", "player": "Bo", "cards": [7]}
            requests = {
                game["id"]: httpx.Request(
                    "POST",
                    f"{url}/games/{game['id']}/moves",
                    json=second,
                    headers={"Authorization": f"Bearer {game['write_token']}"},
                )
                for game in games
            }
            requests["created"] = httpx.Request(
                "POST", f"{url}/games", json={"game": "dobro", **players}
            )
            requests["listed"] = httpx.Request("GET", f"{url}/games?player=Ana")
            sending = []
            for name, request in requests.items():
                sent = threading.Event()
                sending.append(
                    threading.Thread(target=send, args=(name, request, sent))
                )
                sending[-1].start()
                assert sent.wait(timeout=10), f"{name} was not sent"
            time.sleep(0.5)
            stopped = time.monotonic()
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
            exited = time.monotonic() - stopped
            for thread in sending:
                thread.join(timeout=30)
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
    output = log.read_text()

    assert exited < STOPPED_WITHIN, (exited, output)
    assert set(answers) == set(requests), output
    for name, (when, answer) in answers.items():
        assert when - stopped < STOPPED_WITHIN, (name, when - stopped)
        assert answer.status_code == 503, (name, answer.text)
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.headers["retry-after"]
    with psycopg.connect(fresh_database_url) as conn:
        versions = dict(
            conn.execute("SELECT game_id::text, max(version) FROM events GROUP BY 1")
        )
    assert answers["listed"][1].json()["detail"] == NOT_READ
    assert answers["created"][1].json()["detail"] == MAYBE_DONE
    for game in games:
        detail = answers[game["id"]][1].json()["detail"]
        assert detail in (MAYBE_STORED, NOT_STORED)
        # The acknowledged move (version 2) is stored; one answered "not stored" is
        # not, and one that "may have been" may be.
        assert versions[game["id"]] in ((2,) if detail == NOT_STORED else (2, 3))
