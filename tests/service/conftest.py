"""A running service over real HTTP, shared by a test module."""

from __future__ import annotations

import httpx
import psycopg
import pytest

from tests.service.server import running_server


@pytest.fixture(scope="module")
def client(database_url):
    with (
        running_server(database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        yield client


@pytest.fixture
def stored_rows(database_url):
    """How many games and events the service's database holds, counted on call."""

    def count() -> tuple[int, int]:
        with psycopg.connect(database_url) as conn:
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
            events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
        return games, events

    return count
