"""The API under generated requests (schemathesis, from the app's own OpenAPI document),
over real HTTP on a real PostgreSQL: no request gets a 500, and a refused request stores
nothing. Every operation is tried, the live streams too. The budget is small (a few
examples per operation) so CI runs it every time.
"""

from __future__ import annotations

import json
import os

import httpx
import psycopg
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings

from service.http.openapi import document
from tests.support.server import running_server

# A longer hunt: TABLELOG_FUZZ_EXAMPLES=500 python -m pytest tests/service/test_fuzz.py
EXAMPLES_PER_OPERATION = int(os.environ.get("TABLELOG_FUZZ_EXAMPLES", "10"))
TIMEOUT_SECONDS = 10

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


@pytest.fixture
def counts(fresh_database_url):
    """A connection to count what is stored, in autocommit: each count is of now."""
    with psycopg.connect(fresh_database_url, autocommit=True) as conn:
        yield conn


def stored(conn: psycopg.Connection) -> tuple[int, int]:
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


def send(case, base_url: str) -> tuple[int, str]:
    """The answer's status and, for an error, its body. Server-Sent Events never end
    by design (and schemathesis would read one until the timeout): a stream is left
    once its status is in, its body read only when it is an error rather than a
    stream."""
    if not streams(case.operation):
        response = case.call(base_url=base_url, timeout=TIMEOUT_SECONDS)
        # A picture's body is bytes: only an error's text is read.
        text = (
            response.content.decode("utf-8", "replace")
            if response.status_code >= 400
            else ""
        )
        return response.status_code, text
    sent = case.as_transport_kwargs(base_url=base_url)
    with requests.request(**sent, stream=True, timeout=TIMEOUT_SECONDS) as response:
        return response.status_code, "" if response.ok else response.text


def streams(operation) -> bool:
    """Whether the operation answers with Server-Sent Events."""
    responses = operation.definition.raw.get("responses", {}).values()
    return any("text/event-stream" in r.get("content", {}) for r in responses)


# The server runs in a thread of this process, and its connection pool draws on the
# `random` module (jitter) when it replaces a connection, e.g. one whose query a
# client cut short: Hypothesis, seeing the global random state move while it drew a
# case, would blame the strategies, which draw nothing from it.
@pytest.mark.filterwarnings(
    "ignore:Do not use the `random` module inside strategies"
    ":hypothesis.errors.HypothesisDeprecationWarning"
)
def test_no_generated_request_gets_a_500_or_stores_what_it_should_not(api, counts):
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
        before = stored(counts)
        status, text = send(case, base_url)
        if status >= 500:
            request = f"{case.method} {case.path} {case.query} {case.body!r:.300}"
            failures.append(f"{status} {request}")
            failures.append(f"  {text[:300]}")
        if status >= 400 and stored(counts) != before:
            failures.append(f"{status} but stored: {case.method} {case.path}")

    for result in schema.get_all_operations():
        given(case=result.ok().as_strategy())(check)()
    assert not failures, "\n".join(failures)
