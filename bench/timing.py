"""Running contestants for a bounded time, side by side.

Each contestant runs in several short slices, alternating with the others, so a
neighbour's burst of load on this shared machine hits every contestant alike.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Awaitable, Callable, Sequence

import anyio

from bench.report import Rate

# An async worker does operations until the deadline; it returns how many it did.
AsyncWorker = Callable[[float], Awaitable[int]]
ThreadWorker = Callable[[float], int]


async def run_async(
    workers: Sequence[AsyncWorker], seconds: float
) -> tuple[int, float]:
    """All workers concurrently for `seconds`: operations done, wall time taken."""
    counts: list[int] = []
    start = time.perf_counter()
    deadline = start + seconds

    async def one(worker: AsyncWorker) -> None:
        counts.append(await worker(deadline))

    async with anyio.create_task_group() as group:
        for worker in workers:
            group.start_soon(one, worker)
    return sum(counts), time.perf_counter() - start


def run_threads(workers: Sequence[ThreadWorker], seconds: float) -> tuple[int, float]:
    """The same with each worker on a thread of its own (for blocking clients)."""
    counts: list[int] = []
    start = time.perf_counter()
    deadline = start + seconds
    threads = [
        threading.Thread(target=lambda w=w: counts.append(w(deadline))) for w in workers
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts), time.perf_counter() - start


# A contestant runs one slice of `seconds`: (operations, wall seconds).
Slice = Callable[[float], Awaitable[tuple[int, float]]]


async def alternate(
    contestants: dict[str, Slice], seconds: float, rounds: int
) -> dict[str, Rate]:
    """Each contestant for `seconds` in all, in `rounds` alternating slices."""
    totals = {name: [0, 0.0] for name in contestants}
    for _ in range(rounds):
        for name, run in contestants.items():
            count, took = await run(seconds / rounds)
            totals[name][0] += count
            totals[name][1] += took
    return {name: Rate(name, c, s) for name, (c, s) in totals.items()}


async def by_round(
    contestants: dict[str, Slice], seconds: float, rounds: int
) -> list[dict[str, Rate]]:
    """Each contestant for `seconds` in all, one slice of it a round, alternating:
    every round's rates, so that each round gives a ratio of its own."""
    return [await alternate(contestants, seconds / rounds, 1) for _ in range(rounds)]


def summed(name: str, rounds: list[dict[str, Rate]]) -> Rate:
    """`name`'s rate over all the rounds."""
    return Rate(
        name, sum(r[name].count for r in rounds), sum(r[name].seconds for r in rounds)
    )
