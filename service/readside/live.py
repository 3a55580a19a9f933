"""Live games: one follower per process reads the global log and fans each new event
out to the open streams of its game.

However many people watch, the database sees one reader per process. The follower is
woken at once by appends made in this process and polls for those of other processes,
so the write path carries no NOTIFY (which would serialise committing writers).
"""

from __future__ import annotations

import asyncio
import logging
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from uuid import UUID

import psycopg
import psycopg_pool

from service.storage.store import EventStore, GlobalPosition, StoredEvent

log = logging.getLogger(__name__)

BATCH = 1000


class Subscription:
    """The events of one game for one stream, as the follower sees them."""

    QUEUE_SIZE = 256

    def __init__(self) -> None:
        self.queue: asyncio.Queue[StoredEvent] = asyncio.Queue(self.QUEUE_SIZE)
        # Set when the queue overflowed: the stream then reads what it missed from
        # the store instead of holding an unbounded backlog in memory.
        self.lagged = asyncio.Event()

    def deliver(self, event: StoredEvent) -> None:
        try:
            self.queue.put_nowait(event)
        except asyncio.QueueFull:
            self.lagged.set()


class LiveLog:
    def __init__(self, store: EventStore, poll_seconds: float = 0.5) -> None:
        self._store = store
        self._poll_seconds = poll_seconds
        self._wake = asyncio.Event()
        self._subscriptions: defaultdict[UUID, set[Subscription]] = defaultdict(set)
        self._watchers: set[asyncio.Event] = set()

    def wake(self) -> None:
        self._wake.set()

    @contextmanager
    def watch_all(self) -> Iterator[asyncio.Event]:
        """An event set each time the follower has seen new events of any game: a
        feed reader then reads them from the store, in the store's order."""
        news = asyncio.Event()
        self._watchers.add(news)
        try:
            yield news
        finally:
            self._watchers.discard(news)

    @contextmanager
    def subscribe(self, game_id: UUID) -> Iterator[Subscription]:
        subscription = Subscription()
        self._subscriptions[game_id].add(subscription)
        try:
            yield subscription
        finally:
            subscribers = self._subscriptions[game_id]
            subscribers.discard(subscription)
            if not subscribers:
                del self._subscriptions[game_id]

    async def run(self) -> None:
        """Follow the log from now on, until cancelled."""
        position: GlobalPosition | None = None
        while True:
            try:
                if position is None:
                    position = await self._store.head()
                batch = await self._store.read_all(position, BATCH)
            except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
                # The database away (a restart, a failover, a standby cancelling the
                # query for its replay): keep the checkpoint, try again at the next
                # poll. After a failover transaction ids go on from the old
                # primary's, so the checkpoint orders the new primary's events.
                log.warning("live log: database unavailable (%s)", error)
                batch = []
            for position, event in batch:  # noqa: B007 (the loop moves the checkpoint)
                for subscription in self._subscriptions.get(event.game_id, ()):
                    subscription.deliver(event)
            if batch:
                for news in self._watchers:
                    news.set()
            if len(batch) < BATCH:
                await self._sleep()

    async def _sleep(self) -> None:
        with suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), self._poll_seconds)
        self._wake.clear()
