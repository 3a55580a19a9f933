"""Tables held: how many tables logging at human pace the machine serves.

Simulated tables (bench.pace, a process of its own) each log a legal move about every
2 s. Their number is raised step by step, doubling, then halving the gap between the
most that passed and the fewest that failed, until `POST /moves` p99 passes 50 ms or
any request fails; each step lasts long enough for a p99 (`--step-seconds`: 16 s by
default, some 8 moves per table). The same search runs against the bare handler,
the service with one worker and with two, one server at a time, each on a database
of its own; a short step before each search, not counted, lets the server warm up,
and a step that fails is run once more before it counts as failed.
The load generator, the server's processes and PostgreSQL share the machine's cores.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import anyio

from bench.http import CHILD_ENV, server
from bench.report import Figure, Held, Report
from bench.scratch import Server

P99_MS = 50.0

# (label, app, workers), in the order each round runs them.
CONTESTANTS = (("bare", "bare", 1), ("1 worker", "tablelog", 1),
               ("2 workers", "tablelog", 2))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Search:
    step_seconds: float
    first: int
    most: int
    warm_up_seconds: float


async def measure(databases: Server, report: Report, search: Search, rounds: int):
    urls = {label: databases.database(f"tables_{app}") for label, app, _ in CONTESTANTS}
    found: dict[str, list[Held]] = {label: [] for label, _, _ in CONTESTANTS}
    steps: dict[str, list[list[dict]]] = {label: [] for label, _, _ in CONTESTANTS}
    for _ in range(rounds):
        for label, app, workers in CONTESTANTS:
            with server(app, urls[label], workers) as url:
                held, taken = await anyio.to_thread.run_sync(
                    _held, url, app, search, label
                )
            found[label].append(held)
            steps[label].append(taken)
            print(f"  {label}: {held}", flush=True)
    report.details["tables held: steps"] = steps
    for ours, baseline, target in (("1 worker", "bare", 0.8),
                                   ("2 workers", "1 worker", 1.3)):  # fmt: skip
        named = "bare INSERT handler" if baseline == "bare" else baseline
        report.add(
            Figure(
                "tables at human pace (a move every 2 s each, POST /moves p99 "
                f"≤ {P99_MS:g} ms)",
                f"tables held, {ours} / {named}",
                _median(found[ours]),
                _median(found[baseline]),
                ("min", target),
                _capped(found[ours] + found[baseline], search.most),
                rounds=tuple(
                    o.tables / b.tables if b.tables else 0.0
                    for o, b in zip(found[ours], found[baseline], strict=True)
                ),
            )
        )


def _capped(helds: list[Held], most: int) -> str:
    """A note when a search reached the cap, and so held at least what it says."""
    if any(h.tables >= most for h in helds):
        return f"the search stops at {most} tables"
    return ""


def _median(helds: list[Held]) -> Held:
    tables = statistics.median_low(h.tables for h in helds)
    return next(h for h in helds if h.tables == tables)


def _held(url: str, app: str, search: Search, label: str) -> tuple[Held, list[dict]]:
    """The most tables that passed, and every step taken."""
    _step(url, app, search.first, search.warm_up_seconds)
    passed: dict | None = None
    failed: dict | None = None
    tables: int | None = search.first
    taken = []
    while tables is not None:
        step = _step(url, app, tables, search.step_seconds)
        taken.append(step)
        if not _passes(step):
            # Once more before the search goes below: on a shared machine a
            # neighbour's burst can spoil one step.
            step = _step(url, app, tables, search.step_seconds)
            taken.append(step)
        if _passes(step):
            passed = step
        else:
            failed = step
        tables = _next(passed, failed, search.most)
    last = passed or failed or {"tables": 0, "p99_ms": 0.0}
    return Held(label, passed["tables"] if passed else 0, last["p99_ms"]), taken


def _passes(step: dict[str, Any]) -> bool:
    return bool(step["requests"]) and not step["failures"] and step["p99_ms"] <= P99_MS


def _next(passed: dict | None, failed: dict | None, most: int) -> int | None:
    """The next number of tables to try; None once the answer is known to within an
    eighth (or the cap is reached)."""
    low = passed["tables"] if passed else 0
    if failed is None:
        return None if low >= most else min(low * 2, most)
    high = failed["tables"]
    if high - low <= max(low // 8, 1):
        return None
    return (low + high) // 2


def _step(url: str, app: str, tables: int, seconds: float) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "bench.pace", url, app, str(tables), str(seconds)],
        check=True,
        capture_output=True,
        text=True,
        env=CHILD_ENV,
        timeout=seconds * 4 + 120,
    )
    return json.loads(done.stdout)
