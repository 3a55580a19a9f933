"""Operations: liveness and readiness apart, and Prometheus
metrics that move with the moves logged and refused."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import httpx
import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families
from psycopg_pool import AsyncConnectionPool

from service.readside import projector
from service.storage import readiness
from service.storage.embedded import embedded_postgres
from service.storage.migrate import migrate
from tests.support.http import create, move
from tests.support.moves import DOZITO_START, RED_3
from tests.support.ports import free_port
from tests.support.server import running_server
from tests.support.streams import open_stream
from tests.support.waiting import eventually

DOZITO = ["Arthur", "Maëlle", "Lou"]


@pytest.fixture
def fresh_client(fresh_database_url):
    with (
        running_server(fresh_database_url, metrics=True) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        yield client


def test_live_and_ready_answer_ok_with_the_database_migrated(client):
    for path in ("/health/live", "/health/ready", "/health"):
        answer = client.get(path)
        assert (answer.status_code, answer.json()) == (200, {"status": "ok"}), path


def test_ready_refuses_a_database_whose_migrations_are_not_this_releases(
    fresh_client, fresh_database_url
):
    with psycopg.connect(fresh_database_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_migrations (name) VALUES ('9999_later.sql')")
        conn.execute(
            "DELETE FROM schema_migrations WHERE name LIKE '0009%' RETURNING name"
        )
    answer = fresh_client.get("/health/ready")
    assert answer.status_code == 503
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.headers["retry-after"] == "5"
    detail = answer.json()["detail"]
    assert "Migrations not applied yet: 0009_rebuild_beside_the_live_read_models" in (
        detail
    )
    assert "this release does not know: 9999_later.sql" in detail
    # The process itself is fine: an orchestrator must not restart it.
    assert fresh_client.get("/health/live").status_code == 200


def test_a_database_that_does_not_answer_is_not_ready(run):
    async def check() -> list[str]:
        nowhere = f"host=127.0.0.1 port={free_port()} dbname=tablelog connect_timeout=1"
        async with AsyncConnectionPool(nowhere, timeout=1, open=False) as pool:
            return await readiness.unready(pool, writes=True)

    assert run(check()) == ["The database does not answer."]


@pytest.mark.db
def test_health_probes_answer_503_within_a_second_with_the_database_down():
    """The pool waits 5 s for a connection; a probe does not wait that long."""
    directory = Path(tempfile.mkdtemp(prefix="tablelog-test-down-"))
    with ExitStack() as database:
        database.callback(shutil.rmtree, directory, ignore_errors=True)
        url = database.enter_context(embedded_postgres(directory / "data"))
        migrate(url)
        with (
            running_server(url) as base_url,
            httpx.Client(base_url=base_url, timeout=30) as client,
        ):
            assert client.get("/health/ready").status_code == 200
            database.close()  # the database stops; the service goes on
            for path in ("/health", "/health/ready", "/health/projections") * 2:
                started = time.monotonic()
                answer = client.get(path)
                took = time.monotonic() - started
                assert answer.status_code == 503, (path, answer.text)
                assert answer.headers["retry-after"], path
                assert took < 1.5, (path, took)
            assert client.get("/health/live").status_code == 200


def test_ready_asks_the_read_replicas_too(fresh_database_url):
    nowhere = f"host=127.0.0.1 port={free_port()} dbname=tablelog connect_timeout=1"
    with (
        running_server(fresh_database_url, database_read_url=nowhere) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        started = time.monotonic()
        answer = client.get("/health/ready")
        assert time.monotonic() - started < 1.5  # the primary and replicas at once
        assert answer.status_code == 503
        assert answer.json()["detail"] == (
            "Read replicas: The database does not answer."
        )
    # A replica is read-only, and that is right for one: the primary read as the
    # replica (as a test can) leaves the service ready.
    with (
        running_server(
            fresh_database_url, database_read_url=fresh_database_url
        ) as base_url,
        httpx.Client(base_url=base_url, timeout=30) as client,
    ):
        assert client.get("/health/ready").status_code == 200


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """Prometheus's text format read back: each sample by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client: httpx.Client) -> dict[tuple[str, tuple], float]:
    answer = client.get("/metrics")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    return samples(answer.text)


def test_the_metrics_count_a_move_logged_and_one_refused(fresh_client):
    game = create(fresh_client, game="dozito", players=DOZITO, seed=1)
    assert move(fresh_client, game, DOZITO_START).status_code == 201
    refused = {"type": "draw", "player": "Lou", "source": "deck", "card": RED_3}
    assert move(fresh_client, game, refused).json()["rule"] == "Z4"
    open_stream(fresh_client, f"/games/{game['id']}/stream")

    seen = scrape(fresh_client)
    assert seen[("tablelog_moves_appended_total", (("game", "dozito"),))] == 1
    assert seen[("tablelog_refusals_total", (("ruling", "Z4"),))] == 1
    assert seen[("tablelog_append_seconds_count", ())] == 1
    assert seen[("tablelog_append_seconds_sum", ())] > 0
    # Sampled every couple of seconds: the stream just opened, the game cached.
    seen = eventually(
        lambda: (s := scrape(fresh_client))[("tablelog_open_streams", ())] == 1 and s
    )
    assert seen[("tablelog_timeline_cache_games", ())] == 1
    # The runner folds both stored events promptly: nothing left behind.
    assert seen[("tablelog_projection_lag_events", ())] == 0
    assert seen[("tablelog_projection_lag_seconds", ())] == 0


def test_the_metrics_show_the_projection_lag_in_events_and_seconds(
    fresh_client, fresh_database_url
):
    create(fresh_client, game="dozito", players=DOZITO, seed=2)
    # The runner's turn held by another session: it cannot fold, the lag grows.
    with psycopg.connect(fresh_database_url) as holder:
        holder.execute("SELECT pg_advisory_xact_lock(%s)", (projector.TURN,))
        for seed in range(3, 6):
            create(fresh_client, game="dozito", players=DOZITO, seed=seed)
        seen = eventually(
            lambda: (
                (s := scrape(fresh_client))[("tablelog_projection_lag_events", ())] >= 3
                and s
            )
        )
        assert seen[("tablelog_projection_lag_seconds", ())] > 0
    eventually(
        lambda: scrape(fresh_client)[("tablelog_projection_lag_events", ())] == 0
    )


def test_metrics_are_off_unless_turned_on_and_outside_the_openapi_document(client):
    assert client.get("/metrics").status_code == 404
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert {"/health/live", "/health/ready"} <= set(paths)
    assert "/metrics" not in paths


_WORKER = """
import sys
from service.http.metrics import Metrics
metrics = Metrics()
for _ in range(int(sys.argv[1])):
    metrics.appended("dobro")
metrics.refused("D8")
if sys.argv[2] == "scrape":
    sys.stdout.write(metrics.exposition().decode())
"""


def test_in_multiprocess_mode_a_scrape_adds_up_every_worker(tmp_path: Path):
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])

    def worker(moves: int, then: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", _WORKER, str(moves), then],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return done.stdout

    worker(2, "exit")
    seen = samples(worker(3, "scrape"))
    assert seen[("tablelog_moves_appended_total", (("game", "dobro"),))] == 5
    assert seen[("tablelog_refusals_total", (("ruling", "D8"),))] == 2
