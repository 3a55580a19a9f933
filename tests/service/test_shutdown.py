"""Stopping the service with a follower in the middle of a query: the query is
cancelled on the server and its transaction rolled back, the connection kept, and
what it was doing is done by the next start (service/http/app.py)."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest

from tests.service.http import create, move
from tests.service.server import running_server


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
