"""Webhooks: what delivering them costs the moves, and how soon they arrive.

Servers of the service, each with a database of its own: two with 10 endpoints
subscribed to every move (`move.stored`), one with none. A receiver in this process
answers every message 204 at once.

- **Moves a second.** `bench.load`'s clients log moves as fast as they are answered
  on each server in turn (`--rounds` slices each): one whose serving process
  delivers, one whose webhooks `tablelog webhooks deliver` delivers from a process
  of its own under `nice`, and one with no endpoint. After a slice of a subscribed
  server, its deliverer finishes the messages of that slice before the next slice
  of any server begins, so none pays for another's deliveries; the ratios are of
  the moves' rates alone. How fast the deliverer then sends is a figure of its
  own: messages a second while it catches up.
- **Delay.** Tables at human pace (`bench.pace`) on the subscribed server: the time
  from each move's storing (its message's `timestamp`) to the message's arrival,
  p50 and p99.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime

import anyio
import httpx

from bench.http import CHILD_ENV, _load, server
from bench.report import Figure, Percentile, Report
from bench.scratch import Server
from bench.serve import WITHOUT_DELIVERER
from bench.timing import by_round, summed
from service import bootstrap
from service.settings import Settings

ENDPOINTS = 10
# The ratio of the moves' rates, subscribed / none, at least.
TARGET = 0.9
# The longest the deliverer may take to send a slice's messages.
DRAIN_SECONDS = 300
# The tables logging at human pace while the delay is measured.
PACED_TABLES = 100


class Receiver:
    """An HTTP server on loopback that answers every POST 204 and counts what it
    got, with each message's delay from its `timestamp`."""

    def __init__(self) -> None:
        self.count = 0
        self.delays_ms: list[float] = []
        self.timing = False
        self._started = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> str:
        self._thread.start()
        self._started.wait(10)
        return f"http://127.0.0.1:{self.port}/hook"

    def _run(self) -> None:
        async def main() -> None:
            server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
            self.port = server.sockets[0].getsockname()[1]
            self._started.set()
            await server.serve_forever()

        asyncio.run(main())

    async def _serve(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            while head := await reader.readuntil(b"\r\n\r\n"):
                length = 0
                for line in head.split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.lower() == b"content-length":
                        length = int(value)
                body = await reader.readexactly(length)
                self.count += 1
                if self.timing:
                    stored = datetime.fromisoformat(json.loads(body)["timestamp"])
                    delay = datetime.now(UTC) - stored
                    self.delays_ms.append(delay.total_seconds() * 1000)
                writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
        except (asyncio.IncompleteReadError, ConnectionError):
            writer.close()


async def measure(
    databases: Server, report: Report, seconds: float, rounds: int
) -> None:
    receiver = Receiver()
    hook = receiver.start()
    inside_db = databases.database("webhooks")
    apart_db = databases.database("webhooks_apart")
    with ExitStack() as stack:
        inside = stack.enter_context(server("tablelog", inside_db))
        apart = stack.enter_context(server(WITHOUT_DELIVERER, apart_db))
        stack.enter_context(_deliverer(apart_db))
        alone = stack.enter_context(server("tablelog", databases.database("alone")))
        await _subscribe(inside_db, inside, hook)
        await _subscribe(apart_db, apart, hook)
        sending: list[tuple[int, float]] = []
        per_round = await by_round(
            {
                "in-process": _told(receiver, inside, report, sending),
                "apart": _told(receiver, apart, report, sending),
                "none": _load(alone, "tablelog", 8, report.counts),
            },
            seconds,
            rounds,
        )
        for name, how in (
            ("in-process", "delivered by the serving process"),
            ("apart", "delivered by `nice tablelog webhooks deliver`"),
        ):
            report.add(
                Figure(
                    "webhooks",
                    f"moves a second, {ENDPOINTS} endpoints told every move, {how} "
                    "/ none",
                    summed(name, per_round),
                    summed("none", per_round),
                    ("min", TARGET),
                    rounds=tuple(
                        r[name].per_second / r["none"].per_second for r in per_round
                    ),
                    note="each slice's messages delivered before the next slice",
                )
            )
        sent = sum(count for count, _ in sending)
        taken = sum(spent for _, spent in sending)
        # Counted from each slice's start to its last message's arrival.
        rate = sent / taken if taken else 0.0
        report.details["webhooks: messages a second, slices and catching up"] = rate
        print(f"  webhooks: {rate:,.0f} messages a second to {ENDPOINTS} endpoints")
        receiver.timing = True
        await anyio.to_thread.run_sync(_paced, inside, max(seconds, 4.0))
        await asyncio.sleep(2)  # the last moves' messages
        receiver.timing = False
        delays = sorted(receiver.delays_ms)
        report.details["webhooks: delays (ms), paced"] = len(delays)
        if delays:
            report.add(
                Figure(
                    "webhooks",
                    f"delay from a move stored to its message, {PACED_TABLES} tables "
                    "at human pace, delivered by the serving process: p99 / p50",
                    Percentile("delay", _quantile(delays, 0.99), len(delays), 99),
                    Percentile("delay", statistics.median(delays), len(delays), 50),
                )
            )


def _told(
    receiver: Receiver, url: str, report: Report, sending: list[tuple[int, float]]
):
    """A slice of moves on a subscribed server, then the wait for their messages:
    the moves' count and time (the wait not counted). Each slice's messages and the
    time from its start to the last one's arrival go into `sending`."""
    moves = _load(url, "tablelog", 8, report.counts)

    async def told(slice_seconds: float) -> tuple[int, float]:
        before = receiver.count
        done, spent = await moves(slice_seconds)
        began = time.perf_counter()
        # Every move of the slice, told to every endpoint (a game's creation is no
        # move).
        while receiver.count - before < done * ENDPOINTS:
            if time.perf_counter() - began > DRAIN_SECONDS:
                raise RuntimeError(
                    f"{done * ENDPOINTS - receiver.count + before} messages "
                    f"not delivered {DRAIN_SECONDS} s after their slice"
                )
            await asyncio.sleep(0.05)
        sending.append((receiver.count - before, time.perf_counter() - began + spent))
        return done, spent

    return told


@contextmanager
def _deliverer(database_url: str) -> Iterator[None]:
    """`tablelog webhooks deliver` in a process of its own, at a lower priority
    than the server's (`nice`), as a host runs it beside a busy service."""
    process = subprocess.Popen(
        ["nice", "-n", "10", sys.executable, "-m", "service", "webhooks", "deliver",
         "--webhooks-allow-private"],
        env=CHILD_ENV | {"DATABASE_URL": database_url},
    )  # fmt: skip
    try:
        yield
    finally:
        process.terminate()
        process.wait(timeout=30)


async def _subscribe(database_url: str, base_url: str, hook: str) -> None:
    settings = Settings(database_url=database_url, pool_min_size=1, pool_max_size=1)
    async with bootstrap.shell(settings) as service:
        _, key = await service.keys.create("bench", ("webhooks",), None)
    async with httpx.AsyncClient(base_url=base_url) as client:
        for _ in range(ENDPOINTS):
            answer = await client.post(
                "/webhooks",
                json={"url": hook, "kinds": ["move.stored"]},
                headers={"Authorization": f"Bearer {key}"},
            )
            answer.raise_for_status()


def _paced(url: str, seconds: float) -> None:
    subprocess.run(
        [sys.executable, "-m", "bench.pace", url, "tablelog", str(PACED_TABLES),
         str(seconds)],
        check=True, capture_output=True, text=True, env=CHILD_ENV,
        timeout=seconds * 4 + 120,
    )  # fmt: skip


def _quantile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
