"""The composition root: every collaborator of a tablelog process, built once from
its `Settings` and handed to whoever runs it (cosmicpython's `bootstrap.py`). The
app's lifespan, the shell's commands, `tablelog webhooks deliver` and the bench
build a process here and nowhere else, and nothing is attached to what this builds
afterwards.

A process is one of two kinds, chosen here and nowhere else:

- `serving`: it serves the API. Every write tells its read side (its live log's
  follower, its projection runner and its webhooks' deliverer: `Followers`), every
  move and every snapshot ignored its `observer` (the metrics), and its pictures are
  drawn by the `renderers` it is given.
- `shell`: a command run from the shell (export, import, seed, a rebuild of the read
  models, the keys, the deliverer of `tablelog webhooks deliver`). It keeps no read
  model (`NoReadSide`: a serving process's runner folds what it wrote from the log),
  counts nothing (`Unobserved`) and draws no picture.

Either migrates the database first (nothing to do when it is up to date), opens the
pools, and at the end closes what it opened: the deliverer's connections, then the
pools. `games` is the registry of games the process hosts: by default the built-in
games and the plug-ins installed (`service.application.plugins`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Coroutine, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import anyio

from domain.registry import Registry
from service.application.games import Games
from service.application.groups import Groups
from service.application.keys import Keys
from service.application.observers import (
    MoveObserver,
    NoReadSide,
    SnapshotObserver,
    Unobserved,
)
from service.application.pictures import Pictures, Renderer
from service.application.plugins import installed_games
from service.application.rosters import Rosters
from service.application.snapshots import signing_key
from service.application.timeline import Timelines
from service.application.webhooks import Webhooks
from service.readside.deliverer import Deliverer
from service.readside.followers import Followers
from service.readside.live import LiveLog
from service.readside.probes import Probes
from service.readside.projector import Projector
from service.readside.records import Records
from service.readside.summaries import GameLists
from service.settings import Settings
from service.storage import pools
from service.storage.groups import GroupStore
from service.storage.migrate import migrate
from service.storage.pools import Pools
from service.storage.rosters import RosterStore
from service.storage.store import EventStore


class Observer(MoveObserver, SnapshotObserver, Protocol):
    """Told of every move and of every snapshot ignored (the metrics)."""


@dataclass(frozen=True, slots=True)
class Service:
    """What one process is built of. `games` is the application's (`Games`), over
    the registry `rules`; `records`, `game_lists` and `probes` are the queries the
    HTTP layer reads through."""

    settings: Settings
    rules: Registry
    pools: Pools
    store: EventStore
    timelines: Timelines
    games: Games
    live: LiveLog
    projector: Projector
    deliverer: Deliverer
    webhooks: Webhooks
    keys: Keys
    groups: Groups
    rosters: Rosters
    pictures: Pictures
    records: Records
    game_lists: GameLists
    probes: Probes

    def followers(self) -> list[Coroutine[Any, None, None]]:
        """What a serving process runs beside its requests, until cancelled: the
        live log's follower, the projection runner, and the deliverer unless the
        `webhooks` setting leaves delivering to `tablelog webhooks deliver`."""
        delivering = [self.deliverer.run()] if self.settings.webhooks else []
        return [self.live.run(), self.projector.run(), *delivering]


@asynccontextmanager
async def serving(
    settings: Settings,
    games: Registry | None = None,
    *,
    observer: Observer,
    renderers: Mapping[str, Renderer],
    ratings: bool = True,
) -> AsyncIterator[Service]:
    """A process that serves the API (see the module's docstring). Without
    `ratings` its projection runner keeps no players' ratings: the bench's
    baseline for what keeping them costs."""
    chosen = _Kind(
        read_side=True, observer=observer, renderers=renderers, ratings=ratings
    )
    async with _process(settings, _registry(games), chosen) as service:
        yield service


@asynccontextmanager
async def shell(
    settings: Settings, games: Registry | None = None
) -> AsyncIterator[Service]:
    """A command run from the shell (see the module's docstring)."""
    chosen = _Kind(read_side=False, observer=Unobserved(), renderers={}, ratings=True)
    async with _process(settings, _registry(games), chosen) as service:
        yield service


def shell_games(
    store: EventStore,
    games: Registry,
    *,
    cached_games: int = 1024,
    cached_moves: int = 100_000,
    snapshot_key: bytes | None = None,
) -> Games:
    """The games of a shell command over a store of the caller's (the tests'):
    telling no read side, counting nothing; `snapshot_key` as for `Timelines`."""
    timelines = Timelines(
        store, games, cached_games, cached_moves, snapshot_key=snapshot_key
    )
    return Games(timelines, read_side=NoReadSide(), observer=Unobserved())


def _registry(games: Registry | None) -> Registry:
    """The games given, else the built-in games and the plug-ins installed."""
    return installed_games() if games is None else games


@dataclass(frozen=True, slots=True)
class _Kind:
    """What sets a serving process apart from a shell command."""

    read_side: bool
    observer: Observer
    renderers: Mapping[str, Renderer]
    ratings: bool


@asynccontextmanager
async def _process(
    settings: Settings, rules: Registry, kind: _Kind
) -> AsyncIterator[Service]:
    """The process built on a migrated database; at the end the deliverer's
    connections closed, then the pools."""
    owner = settings.migration_database_url or settings.database_url
    await anyio.to_thread.run_sync(migrate, owner)
    async with pools.opened(settings) as opened:
        service = _built(settings, rules, opened, kind)
        try:
            yield service
        finally:
            await service.deliverer.close()


def _built(settings: Settings, rules: Registry, opened: Pools, kind: _Kind) -> Service:
    store = EventStore(opened.primary, opened.replicas)
    timelines = Timelines(
        store,
        rules,
        settings.cached_games,
        settings.cached_moves,
        snapshot_key=signing_key(settings.snapshot_key_file),
        observer=kind.observer,
    )
    live = LiveLog(store)
    projector = Projector(
        opened.primary,
        store,
        timelines,
        rating=kind.ratings,
        rated_needs_key=settings.rated_needs_key,
    )
    deliverer = Deliverer(
        settings.database_url,
        opened.primary,
        store,
        timelines,
        allow_private=settings.webhooks_allow_private,
        retries=settings.webhook_retries,
    )
    read_side = Followers(live, projector, deliverer) if kind.read_side else None
    rosters = Rosters(RosterStore(opened.primary))
    games = Games(
        timelines,
        read_side=read_side or NoReadSide(),
        observer=kind.observer,
        rosters=rosters,
    )
    return Service(
        settings=settings,
        rules=rules,
        pools=opened,
        store=store,
        timelines=timelines,
        games=games,
        live=live,
        projector=projector,
        deliverer=deliverer,
        webhooks=Webhooks(
            deliverer.store, store, settings.webhooks_allow_private, rules
        ),
        keys=Keys(opened.primary),
        groups=Groups(GroupStore(opened.primary)),
        rosters=rosters,
        pictures=Pictures(games, kind.renderers),
        records=Records(opened.reads, rules),
        game_lists=GameLists(opened.reads),
        probes=Probes(opened),
    )
