"""Tables at human pace, the load generator of `bench.tables` and `bench.cpu`, run as
its own process: `python -m bench.pace URL tablelog|bare TABLES SECONDS [PID]` prints
{"tables", "requests", "p50_ms", "p99_ms", "generator_lag_p99_ms", "failures"} as
JSON, and with the server's process id, "server_cpu_seconds": the CPU that process
and its children spent while the tables logged (their games' creation left out).

Each table is one game (the kinds in turn, several set-ups of each) logged from one
phone: a legal move about every PACE seconds, the gaps drawn from an exponential
distribution, so the service sees the arrivals of independent tables. The clock is
the table's, not the server's: a move is due at its time whether or not the previous
answer came back, and its latency counts from that time (a slow answer delays the
moves queued behind it, and they count it). A table keeps its connection while it
logs briskly and opens a new one after a pause longer than the service keeps an idle
connection, as a browser does.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import resource
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from itertools import cycle
from typing import Any
from urllib.parse import urlsplit

from bench.load import Connection
from bench.workload import setup_for, wire_moves
from domain.registry import BUILT_IN

PACE = 2.0
# Set-ups of each kind of game; table n plays the (n // kinds)-th of its kind.
SETUPS = 4
# Below the service's keep-alive timeout (5 s), so that a table never sends on a
# connection the server is closing.
KEEP_IDLE_SECONDS = 4.0


@dataclass
class Table:
    game: str
    seed: int
    moves: list[dict[str, Any]]
    game_id: uuid.UUID = field(default_factory=uuid.uuid4)
    headers: str = ""


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    # How late the generator itself sent each move: after its due time and after
    # the table's previous answer (a starved generator shows here, not the server).
    lags: list[float] = field(default_factory=list)
    failures: Counter = field(default_factory=Counter)


def tables(count: int, seconds: float) -> list[Table]:
    """`count` tables, each with the moves it may log in `seconds` (with room)."""
    enough = int(seconds / PACE * 3) + 20
    kinds = sorted(BUILT_IN)
    made: dict[tuple[str, int], list[dict[str, Any]]] = {}
    chosen = []
    for n, kind in zip(range(count), cycle(kinds), strict=False):
        seed = n // len(kinds) % SETUPS
        if (kind, seed) not in made:
            rules = BUILT_IN[kind]
            made[kind, seed] = wire_moves(rules, setup_for(rules, seed), enough)
        chosen.append(Table(kind, seed, made[kind, seed]))
    return chosen


async def create(address: tuple[str, int], table: Table) -> None:
    """The table's game on the service (not timed)."""
    rules = BUILT_IN[table.game]
    setup = setup_for(rules, table.seed)
    body = {"game": table.game, "players": list(setup.players),
            "first_player": setup.first_player, "seed": setup.seed}  # fmt: skip
    conn = Connection(*address)
    await conn.open()
    try:
        status, answer = await conn.request("POST", "/games", json.dumps(body).encode())
    finally:
        conn.close()
    assert status == 201, answer
    created = json.loads(answer)
    table.game_id = uuid.UUID(created["id"])
    table.headers = f"Authorization: Bearer {created['write_token']}\r\n"


async def play(
    address: tuple[str, int], table: Table, began: float, seconds: float, tally: Tally
) -> None:
    """Log the table's moves due within `seconds` of `began`."""
    path = f"/games/{table.game_id}/moves"
    conn: Connection | None = None
    last_answer = 0.0
    due = began + random.expovariate(1 / PACE)
    for version, move in enumerate(table.moves, start=1):
        if due >= began + seconds:
            break
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        tally.lags.append(time.perf_counter() - max(due, last_answer))
        if conn is not None and time.perf_counter() - last_answer > KEEP_IDLE_SECONDS:
            conn.close()
            conn = None
        body = json.dumps({**move, "expected_version": version}).encode()
        try:
            if conn is None:
                conn = Connection(*address)
                await conn.open()
            status, _ = await conn.request("POST", path, body, table.headers)
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            tally.failures[type(error).__name__] += 1
            conn = None
            return
        last_answer = time.perf_counter()
        tally.latencies.append(last_answer - due)
        if status != 201:
            tally.failures[str(status)] += 1
            break
        due += random.expovariate(1 / PACE)
    if conn is not None:
        conn.close()


async def run(
    url: str, target: str, count: int, seconds: float, pid: int | None = None
) -> dict[str, Any]:
    parts = urlsplit(url)
    address = (parts.hostname, parts.port)
    chosen = tables(count, seconds)
    if target == "tablelog":
        gate = asyncio.Semaphore(16)

        async def created(table: Table) -> None:
            async with gate:
                await create(address, table)

        await asyncio.gather(*(created(t) for t in chosen))
    tally = Tally()
    spent = _cpu_seconds(pid)
    began = time.perf_counter()
    await asyncio.gather(*(play(address, t, began, seconds, tally) for t in chosen))
    spent = _cpu_seconds(pid) - spent
    ordered = sorted(tally.latencies)
    measured = {} if pid is None else {"server_cpu_seconds": round(spent, 4)}
    return {
        **measured,
        "tables": count,
        "requests": len(ordered),
        "p50_ms": round(_quantile(ordered, 0.5) * 1000, 2),
        "p99_ms": round(_quantile(ordered, 0.99) * 1000, 2),
        "generator_lag_p99_ms": round(_quantile(sorted(tally.lags), 0.99) * 1000, 2),
        "failures": dict(tally.failures),
    }


def _cpu_seconds(pid: int | None) -> float:
    """The CPU time the process and its children have spent so far (0 without one)."""
    if pid is None:
        return 0.0
    import psutil  # the embedded server's dependency, so always at hand

    process = psutil.Process(pid)
    return sum(
        times.user + times.system
        for times in (p.cpu_times() for p in [process, *process.children(True)])
    )


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def main() -> None:
    url, target, count, seconds, *pid = sys.argv[1:6]
    # A connection per table: more than the usual 1,024 open files.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 65_536 if hard == resource.RLIM_INFINITY else hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    server = int(pid[0]) if pid else None
    result = asyncio.run(run(url, target, int(count), float(seconds), server))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
