"""Prometheus metrics: `GET /metrics`, served only when the `metrics` setting is on.

What is counted: the moves stored (by game kind) and refused (by the ruling that
refused them), how long a move takes from decision to stored answer, and the
snapshots of long games ignored (by why: service/application/snapshots.py); and what
a process holds now: the games in its timeline cache, its open live streams, and how
far the read models are behind the log (events not yet folded, and the age of the
oldest). The counters are moved by the application as it works (`Metrics` is its
MoveObserver and SnapshotObserver); the values of now are sampled every
REFRESH_SECONDS by a task of the app, so a scrape costs no database query and a flood
of them costs no more than rendering a few dozen lines each.

Several worker processes: prometheus_client keeps each process's values in memory,
so a scrape would see only the worker that answers it. With the environment variable
PROMETHEUS_MULTIPROC_DIR naming an empty directory (wiped before each start), every
process writes its values there and each scrape adds them up across the processes
(prometheus_client's multiprocess mode): the counters and the histogram summed, the
cache and the streams summed over the processes alive, the lag the largest any of
them saw.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable

from litestar import MediaType, Response, get
from litestar.di import NamedDependency
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from service.application.games import Games
from service.readside import projector
from service.readside.probes import Probes
from service.storage.pools import UNAVAILABLE

log = logging.getLogger(__name__)

REFRESH_SECONDS = 2.0

_MULTIPROCESS = "PROMETHEUS_MULTIPROC_DIR"


class Metrics:
    """This app's metrics, in a registry of its own (not the process's global one:
    each app built, as the tests build many, starts from zero)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        into = {"registry": self.registry}
        self.moves = Counter(
            "tablelog_moves_appended", "Moves stored, by game kind.", ["game"], **into
        )
        self.refusals = Counter(
            "tablelog_refusals",
            "Moves refused, by the ruling that refused them (docs/rules.md).",
            ["ruling"],
            **into,
        )
        self.append_seconds = Histogram(
            "tablelog_append_seconds",
            "Seconds from a move's decision to its stored answer (retries included).",
            **into,
        )
        self.snapshots_ignored = Counter(
            "tablelog_snapshots_ignored",
            "Snapshots of games ignored on a cold load, the game folded from its log "
            "instead, by reason: past_log, unsigned, bad_signature, other_engine, "
            "undecodable.",
            ["reason"],
            **into,
        )
        self.cached_games = Gauge(
            "tablelog_timeline_cache_games",
            "Games held in the timeline cache.",
            multiprocess_mode="livesum",
            **into,
        )
        self.open_streams = Gauge(
            "tablelog_open_streams",
            "Live streams (GET /games/{id}/stream) open.",
            multiprocess_mode="livesum",
            **into,
        )
        self.lag_events = Gauge(
            "tablelog_projection_lag_events",
            "Events stored and not yet folded into the read models "
            f"(counted up to {projector.LAG_COUNTED:,}).",
            multiprocess_mode="max",
            **into,
        )
        self.lag_seconds = Gauge(
            "tablelog_projection_lag_seconds",
            "Age of the oldest event not yet folded into the read models.",
            multiprocess_mode="max",
            **into,
        )

    # The application's MoveObserver.
    def appended(self, game: str) -> None:
        self.moves.labels(game).inc()

    def submitted(self, seconds: float) -> None:
        self.append_seconds.observe(seconds)

    def refused(self, ruling: str) -> None:
        self.refusals.labels(ruling).inc()

    # The application's SnapshotObserver.
    def snapshot_ignored(self, reason: str) -> None:
        self.snapshots_ignored.labels(reason).inc()

    def exposition(self) -> bytes:
        """The metrics in Prometheus's text format: this process's, or in
        multiprocess mode every process's added up."""
        if os.environ.get(_MULTIPROCESS):
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            return generate_latest(registry)
        return generate_latest(self.registry)

    async def sample(
        self,
        games: Games,
        probes: Probes,
        open_streams: Callable[[], int],
    ) -> None:
        """Keep the values of now current until cancelled."""
        try:
            while True:
                self.cached_games.set(games.timelines.games_held())
                self.open_streams.set(open_streams())
                try:
                    events, seconds = await probes.lag()
                except UNAVAILABLE as error:
                    log.warning("metrics: projection lag unknown (%s)", error)
                else:
                    self.lag_events.set(events)
                    self.lag_seconds.set(seconds)
                await asyncio.sleep(REFRESH_SECONDS)
        finally:
            if os.environ.get(_MULTIPROCESS):
                # This process's cache and streams no longer count ("livesum").
                multiprocess.mark_process_dead(os.getpid())


@get(
    "/metrics",
    media_type=MediaType.TEXT,
    include_in_schema=False,
    sync_to_thread=False,
)
def get_metrics(metrics: NamedDependency[Metrics]) -> Response[bytes]:
    # Not in the OpenAPI document: Prometheus's text format is read by a scraper,
    # not by the clients generated from it, and the route is there only when on.
    return Response(metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
