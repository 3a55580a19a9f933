"""The API under generated requests (schemathesis, from the app's own OpenAPI document),
over real HTTP on a real PostgreSQL: no request gets a 500, and a refused request stores
nothing. The budget is small (a few examples per operation) so CI runs it every time.
"""

from __future__ import annotations

import json
import os

import httpx
import psycopg
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings

from service.http.openapi import document
from tests.service.server import running_server

# A longer hunt: TABLELOG_FUZZ_EXAMPLES=500 python -m pytest tests/service/test_fuzz.py
EXAMPLES_PER_OPERATION = int(os.environ.get("TABLELOG_FUZZ_EXAMPLES", "10"))
# Server-Sent Events never end by design: a generated request would wait for ever.
ENDLESS = {"/games/{game_id}/stream"}

# The import's body is NDJSON text: send generated strings as they are.
schemathesis.serializer.alias("application/x-ndjson", "text/plain")


@pytest.fixture
def api(fresh_database_url):
    with (
        running_server(fresh_database_url) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        created = client.post(
            "/games",
            json={"game": "dobro-pixar", "players": ["Ann", "Bob"], "seed": 1},
        )
        assert created.status_code == 201, created.text
        yield base_url, created.json()


def stored(database_url: str) -> tuple[int, int]:
    with psycopg.connect(database_url) as conn:
        games = conn.execute("SELECT count(*) FROM games").fetchone()[0]
        events = conn.execute("SELECT count(*) FROM events").fetchone()[0]
    return games, events


def aim_at_the_game(case, game: dict) -> None:
    """Most generated ids name no game; aim at a real one, with its token, so that
    generated bodies reach the rules engine rather than stop at 404 or 403."""
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = game["id"]
    if case.method == "POST" and case.path.endswith("/moves"):
        case.headers = {
            **(case.headers or {}),
            "Authorization": f"Bearer {game['write_token']}",
        }


def test_no_generated_request_gets_a_500_or_stores_what_it_should_not(
    api, fresh_database_url
):
    base_url, game = api
    schema = schemathesis.openapi.from_dict(json.loads(document()))
    failures: list[str] = []

    @settings(
        max_examples=EXAMPLES_PER_OPERATION,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def check(case) -> None:
        aim_at_the_game(case, game)
        before = stored(fresh_database_url)
        response = case.call(base_url=base_url, timeout=10)
        status = response.status_code
        if status >= 500:
            request = f"{case.method} {case.path} {case.query} {case.body!r:.300}"
            failures.append(f"{status} {request}")
            failures.append(f"  {response.text[:300]}")
        if status >= 400 and stored(fresh_database_url) != before:
            failures.append(f"{status} but stored: {case.method} {case.path}")

    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path in ENDLESS:
            continue
        given(case=operation.as_strategy())(check)()
    assert not failures, "\n".join(failures)
