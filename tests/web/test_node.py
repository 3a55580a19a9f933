"""The page's plain modules (its game session, queue and history) under node's own
test runner: tests/web/node/*.test.mjs import them as the browser does, with nothing
to build. Skipped, saying why, where node is missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

NODE_TESTS = Path(__file__).resolve().parent / "node"


def test_the_pages_plain_modules_pass_their_node_tests():
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node on the PATH: install Node.js 20+ to run tests/web/node")
    files = sorted(str(path) for path in NODE_TESTS.glob("*.test.mjs"))
    assert len(files) >= 2
    run = subprocess.run(
        [node, "--test", *files],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
