"""Projections: a full `projections rebuild` (Projector.rebuild) over 100,000 stored
events of legal games, beside reading the same log in the same batches alone."""

from __future__ import annotations

import asyncio
import itertools
import time

from bench.folds import logs
from bench.report import Figure, Rate, Report
from bench.scratch import Server
from bench.workload import Stored, import_game
from domain.history import History
from domain.registry import BUILT_IN
from service import bootstrap
from service.application.creating import move_type
from service.readside.projector import BATCH
from service.settings import Settings
from service.storage.store import EventStore

EVENTS = 100_000
IMPORTERS = 4


def _templates() -> list[tuple]:
    """Two complete simulated games of each kind: (rules, setup, stored moves)."""
    found = []
    for rules in BUILT_IN.values():
        for setup, _ in logs(rules, 1)[:1] + logs(rules, 400)[1:2]:
            history = History.start(rules, setup)
            moves = []
            for move in rules.simulate(setup):
                record, history = history.play(move)
                moves.append(Stored(move_type(move), _encode(record)))
            found.append((rules, setup, moves))
    return found


def _encode(record) -> bytes:
    import msgspec

    return msgspec.json.encode(record)


async def _fill(store: EventStore) -> int:
    """Import copies of the templates until the log holds EVENTS events."""
    templates = itertools.cycle(_templates())
    queue: asyncio.Queue = asyncio.Queue()
    total = 0
    while total < EVENTS:
        rules, setup, moves = next(templates)
        queue.put_nowait((rules, setup, moves))
        total += len(moves) + 1

    async def importer() -> None:
        while not queue.empty():
            await import_game(store, *queue.get_nowait())

    await asyncio.gather(*(importer() for _ in range(IMPORTERS)))
    return total


async def _read_log(store: EventStore) -> int:
    read, position = 0, None
    while batch := await store.read_all(position, BATCH):
        read += len(batch)
        position = batch[-1][0]
    return read


async def measure(databases: Server, report: Report) -> None:
    url = databases.database("projections")
    settings = Settings(database_url=url, pool_min_size=1, pool_max_size=IMPORTERS)
    async with bootstrap.shell(settings) as service:
        stored = await _fill(service.store)
        start = time.perf_counter()
        read = await _read_log(service.store)
        reading = Rate("read_all alone", read, time.perf_counter() - start)
        start = time.perf_counter()
        folded = await service.projector.rebuild()
        rebuild = Rate("rebuild", folded, time.perf_counter() - start)
    report.counts["events stored for the rebuild"] = stored
    report.counts["events the rebuild folded"] = folded
    report.add(
        Figure("projections", "rebuild / reading the log alone", rebuild, reading)
    )
