"""Games stored as long imports and loaded cold by a process's cache, for the tests
of what a snapshot holds and what a resumed game answers."""

from __future__ import annotations

import uuid

import msgspec

from bench.workload import new_game
from domain.game import Setup
from domain.history import Recorded
from domain.registry import BUILT_IN
from service.application.creating import move_type
from service.application.timeline import Timelines
from service.http.metrics import Metrics
from tests.projections.simulated import NAMES
from tests.projections.simulated import timeline as simulated

# Small enough that every simulated game gets a snapshot on its first cold load.
SNAPSHOT_AFTER = 20
# Every game's table: its seed changes from game to game, its players do not.
SETUP = Setup(players=NAMES[:3], first_player=NAMES[0], seed=5)


def cold_timelines(
    store,
    snapshot_after: int = SNAPSHOT_AFTER,
    metrics: Metrics | None = None,
    key: bytes | None = None,
) -> Timelines:
    """A process's cache, empty: every game it loads is loaded cold. It counts the
    snapshots it ignores in `metrics`, and signs with `key` (by default the
    process's, as the tests' servers do)."""
    return Timelines(
        store,
        BUILT_IN,
        100,
        100_000,
        snapshot_after,
        snapshot_key=key,
        observer=metrics,
    )


async def imported_game(
    store, game: str, moves: int | None = None, seed: int = SETUP.seed
) -> tuple[uuid.UUID, list[Recorded]]:
    """A long simulated game (an undo every 7th move) stored as an import, or its
    first `moves` moves."""
    rules = BUILT_IN[game]
    _, records = simulated(rules, len(SETUP.players), seed, undo_every=7)
    records = records[:moves]
    row, created = new_game(rules, msgspec.structs.replace(SETUP, seed=seed))
    await store.import_game(
        row,
        (created.type, created.data),
        [(move_type(r.move), msgspec.json.encode(r)) for r in records],
        read_back=lambda stored, events: None,
    )
    return row.id, records


async def snapshotted_game(store, game: str) -> uuid.UUID:
    """A long game, and its snapshot written by a first cold load."""
    game_id, _ = await imported_game(store, game)
    timelines = cold_timelines(store)
    await timelines.load(game_id)
    await timelines.snapshots_written()
    return game_id
