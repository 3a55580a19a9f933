"""The CPU a move costs the server: the service with one worker beside the bare
handler, both under the same load of tables at human pace (bench.pace), below what
either holds, so that neither queues and each spends what a move takes.

Each server runs in a process of its own for the whole measurement; the rounds
alternate between them, each a slice of `seconds` in which new tables log their
moves (their games' creation is not counted). The server process's CPU time (user
and system) over the slice, divided by the moves it answered, is its CPU a move;
the figure is the median of the rounds' ratios, ours / bare, with their range.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from typing import Any

import anyio

from bench.http import CHILD_ENV, served
from bench.report import Cost, Figure, Report
from bench.scratch import Server

# At most what ours needs so that one worker holds 0.8 of the bare handler's
# tables: each move may cost 1.25 times the bare handler's.
TARGET = 1.25


@dataclass(frozen=True, slots=True)
class Load:
    tables: int
    seconds: float
    warm_up_seconds: float


async def measure(databases: Server, report: Report, load: Load, rounds: int) -> None:
    spent: dict[str, list[tuple[float, int]]] = {"ours": [], "bare": []}
    with (
        served("tablelog", databases.database("cpu_tablelog")) as ours,
        served("bare", databases.database("cpu_bare")) as bare,
    ):
        servers = {"ours": (*ours, "tablelog"), "bare": (*bare, "bare")}
        for url, pid, app in servers.values():
            await anyio.to_thread.run_sync(
                _slice, url, pid, app, load.tables, load.warm_up_seconds
            )
        for n in range(rounds):
            # Each round in the other order: neither always follows the other.
            for name in sorted(servers, reverse=n % 2 == 1):
                url, pid, app = servers[name]
                step = await anyio.to_thread.run_sync(
                    _slice, url, pid, app, load.tables, load.seconds
                )
                spent[name].append((step["server_cpu_seconds"], step["requests"]))
    report.details["server CPU a move: slices"] = spent
    per_move = {name: [s / n for s, n in slices] for name, slices in spent.items()}
    report.add(
        Figure(
            f"server CPU a move, 1 worker, {load.tables} tables at human pace",
            "ours / bare INSERT handler",
            _cost("ours", spent["ours"]),
            _cost("bare", spent["bare"]),
            ("max", TARGET),
            rounds=tuple(
                o / b for o, b in zip(per_move["ours"], per_move["bare"], strict=True)
            ),
        )
    )


def _cost(label: str, slices: list[tuple[float, int]]) -> Cost:
    return Cost(
        label,
        sum(s for s, _ in slices) / max(sum(n for _, n in slices), 1) * 1000,
        sum(n for _, n in slices),
    )


def _slice(url: str, pid: int, app: str, tables: int, seconds: float) -> dict[str, Any]:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.pace",
            url,
            app,
            str(tables),
            str(seconds),
            str(pid),
        ],
        check=True,
        capture_output=True,
        text=True,
        env=CHILD_ENV,
        timeout=seconds * 4 + 120,
    )
    step = json.loads(done.stdout)
    if step["failures"]:
        raise RuntimeError(f"{app} failed moves at {tables} tables: {step}")
    return step
