"""The embedded PostgreSQL server behind service.storage.embedded."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from service.storage.embedded import embedded_postgres


class Interrupted(Exception):
    pass


@pytest.fixture
def data_dir() -> Iterator[Path]:
    # Under /tmp itself: as root the server runs as its own user (see conftest).
    directory = Path(tempfile.mkdtemp(prefix="tablelog-test-embedded-"))
    yield directory / "nested" / "data"
    shutil.rmtree(directory, ignore_errors=True)


@pytest.mark.db
def test_data_survives_a_restart_and_the_server_stops_on_an_error(data_dir: Path):
    with embedded_postgres(data_dir) as url, psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE kept (note text)")
        conn.execute("INSERT INTO kept VALUES ('still here')")
    assert not (data_dir / "postmaster.pid").exists()

    with pytest.raises(Interrupted), embedded_postgres(data_dir) as url:
        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT note FROM kept").fetchall()
        raise Interrupted

    assert rows == [("still here",)]
    assert not (data_dir / "postmaster.pid").exists()
