"""A serving process sets its start-up heap apart from the garbage collector, so that
full collections under load walk only what was made since (service/cli/serving.py)."""

from __future__ import annotations

import subprocess
import sys

# Run in a process of its own: freezing is process-wide, and the test process's heap
# is not the service's to freeze.
_COUNT_FROZEN = """
import gc, sys
from litestar.testing import TestClient
from service.cli.serving import ServedApp
from service.settings import Settings

app = ServedApp(Settings(database_url=sys.argv[1]))()
before = gc.get_freeze_count()
with TestClient(app) as client:
    assert client.get("/health").status_code == 200
    print(before, gc.get_freeze_count())
"""


def test_the_served_app_freezes_its_heap_once_started(database_url):
    ran = subprocess.run(
        [sys.executable, "-c", _COUNT_FROZEN, database_url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    before, after = map(int, ran.stdout.split())
    assert before == 0
    # Every module's functions and classes, the app's routes: tens of thousands.
    assert after > 10_000
