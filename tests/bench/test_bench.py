"""`python -m bench` runs and reports every figure as a ratio of two counted rates.

Only that it works is checked here: speed is measured by the bench itself, never by a
timed test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# The bench is run from a checkout: it is not part of the installed package.
CHECKOUT = Path(__file__).resolve().parents[2]


def test_the_bench_measures_side_by_side_and_writes_its_report(
    postgres_server, tmp_path
):
    report = tmp_path / "bench.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench",
            "--seconds",
            "0.1",
            "--rounds",
            "1",
            "--only",
            "appends",
            "folds",
            "--out",
            str(report),
        ],
        env={**os.environ, "DATABASE_URL": postgres_server.conninfo},
        cwd=CHECKOUT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    figures = json.loads(report.read_text())["figures"]
    groups = {figure["group"] for figure in figures}
    assert {"store appends, 1 writer", "store appends, 8 writers"} <= groups
    assert any(group.startswith("folds") for group in groups)
    for figure in figures:
        assert figure["ours"]["count"] > 0 and figure["baseline"]["count"] > 0
        assert figure["ratio"] > 0
    assert "ours / plain INSERT" in done.stdout
