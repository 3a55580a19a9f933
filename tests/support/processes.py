"""`tablelog serve` as a process of its own, as an operator runs it: started and
waited for until it answers, and stopped as a terminal stops it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest


def start_serving(command, port, **popen):
    """Run a `tablelog serve` command (without DATABASE_URL: on its embedded
    PostgreSQL) until it answers on `port`."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    process = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        **popen,
    )
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
        if process.poll() is not None:
            pytest.fail(f"tablelog serve exited: {process.stdout.read()}")
    process.kill()
    pytest.fail("tablelog serve did not answer in time")


def stop(process, how=signal.SIGINT):
    process.send_signal(how)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 0, output
    return output


def answering(
    process: subprocess.Popen, port: int, log: Path, seconds: float
) -> subprocess.Popen:
    """`process`, once `tablelog serve` answers on `port`; the test fails with its
    `log` if it exits, or if it does not answer within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"tablelog serve exited: {log.read_text()}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.2)
    process.kill()
    pytest.fail(f"tablelog serve did not answer in {seconds} s")


def tablelog_on(database_url: str, *args: str) -> subprocess.CompletedProcess:
    """`tablelog ARGS` run to its end on the database at `database_url` (whatever
    other database URL the environment names), its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "service", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={
            **{k: v for k, v in os.environ.items() if not k.endswith("DATABASE_URL")},
            "DATABASE_URL": database_url,
        },
    )
