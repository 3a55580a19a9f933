"""A running service over real HTTP, shared by a test module."""

from __future__ import annotations

import httpx
import pytest

from tests.service.server import running_server


@pytest.fixture(scope="module")
def client(database_url):
    with (
        running_server(database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        yield client
