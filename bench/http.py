"""HTTP appends: `POST /games/{id}/moves` on the service beside the bare handler's one
INSERT per request, both under the same uvicorn settings in a process of their own,
loaded by concurrent clients from a third process (bench.load); and the service's
moves each under an Idempotency-Key, as the page sends them, beside the same moves
without."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import anyio

from bench.report import Figure, Report
from bench.scratch import Server
from bench.timing import Slice, by_round, summed

# The bench runs from a checkout, not from the installed package: its child
# processes find it there whatever their working directory.
_CHECKOUT = str(Path(__file__).resolve().parent.parent)
CHILD_ENV = os.environ | {
    "PYTHONWARNINGS": "ignore",
    "PYTHONPATH": os.pathsep.join(
        filter(None, [_CHECKOUT, os.environ.get("PYTHONPATH")])
    ),
}


@contextmanager
def server(app: str, url: str, workers: int = 1) -> Iterator[str]:
    """`app` ("tablelog" or "bare") served by uvicorn in a child process (and its
    workers)."""
    with served(app, url, workers) as (base_url, _):
        yield base_url


@contextmanager
def served(app: str, url: str, workers: int = 1) -> Iterator[tuple[str, int]]:
    """As `server`: the base URL, and the server's process id."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.serve", app, url, str(port), str(workers)],
        env=CHILD_ENV,
    )
    try:
        _wait_for(port, process)
        yield f"http://127.0.0.1:{port}", process.pid
    finally:
        process.terminate()
        process.wait(timeout=30)


def _wait_for(port: int, process: subprocess.Popen) -> None:
    # An answer, not a connection: with workers the parent listens before any of
    # them has run the app's lifespan (migrations, pool).
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the bench server exited with {process.returncode}")
        probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            probe.request("GET", "/health")
            probe.getresponse().read()
            return
        except (OSError, http.client.HTTPException):
            time.sleep(0.05)
        finally:
            probe.close()
    raise RuntimeError("the bench server did not start")


def _load(base_url: str, app: str, clients: int, counts: dict) -> Slice:
    def load(seconds: float) -> tuple[int, float]:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "bench.load",
                base_url,
                app,
                str(clients),
                str(seconds),
            ],
            check=True,
            capture_output=True,
            text=True,
            env=CHILD_ENV,
        )
        result = json.loads(done.stdout)
        for status, count in result["statuses"].items():
            key = f"http {app} answers {status}"
            counts[key] = counts.get(key, 0) + count
        return result["requests"], result["seconds"]

    async def run(seconds: float) -> tuple[int, float]:
        return await anyio.to_thread.run_sync(load, seconds)

    return run


async def measure(
    databases: Server, report: Report, seconds: float, rounds: int, clients: int
) -> None:
    """Each app gets a database of its own on the bench's server."""
    with ExitStack() as stack:
        ours = stack.enter_context(server("tablelog", databases.database("http")))
        bare = stack.enter_context(server("bare", databases.database("bare")))
        per_round = await by_round(
            {
                "ours": _load(ours, "tablelog", clients, report.counts),
                "bare": _load(bare, "bare", clients, report.counts),
                "keyed": _load(ours, "tablelog-keyed", clients, report.counts),
            },
            seconds,
            rounds,
        )
    report.add(
        Figure(
            f"HTTP appends, {clients} clients",
            "POST /moves / bare INSERT handler",
            summed("ours", per_round),
            summed("bare", per_round),
            ("min", 0.5),
            rounds=tuple(
                r["ours"].per_second / r["bare"].per_second for r in per_round
            ),
        )
    )
    report.add(
        Figure(
            f"HTTP appends, {clients} clients",
            "POST /moves under an Idempotency-Key / without",
            summed("keyed", per_round),
            summed("ours", per_round),
            None,
            rounds=tuple(
                r["keyed"].per_second / r["ours"].per_second for r in per_round
            ),
        )
    )
