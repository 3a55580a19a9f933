"""Live games: one follower per process reads the global log and fans each new event
out to the open streams of its game.

However many people watch, the database sees one reader per process. The follower is
woken at once by appends made in this process and polls for those of other processes,
so the write path carries no NOTIFY (which would serialise committing writers). Woken,
it lets the appends of the next moment gather (SETTLE_SECONDS) and reads them at once:
a read per burst rather than per move.

While nobody follows (no stream open, no feed read) it reads no events at all: at each
poll it only moves its checkpoint to the head of the log, so that whoever comes next
is followed from a point before they came.
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
# A live move reaches its viewers this much later at most, and a burst of moves costs
# one read of the log, not one each (the follower read after nearly every append, some
# 15 % of the CPU of a move under the bench's tables).
SETTLE_SECONDS = 0.02


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
        # Set when a stream or a feed starts following, to wake an idle follower.
        self._joined = asyncio.Event()
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
        self._joined.set()
        try:
            yield news
        finally:
            self._watchers.discard(news)

    @contextmanager
    def subscribe(self, game_id: UUID) -> Iterator[Subscription]:
        subscription = Subscription()
        self._subscriptions[game_id].add(subscription)
        self._joined.set()
        try:
            yield subscription
        finally:
            subscribers = self._subscriptions[game_id]
            subscribers.discard(subscription)
            if not subscribers:
                del self._subscriptions[game_id]

    @property
    def followed(self) -> bool:
        """Whether any stream or feed of this process follows the log."""
        return bool(self._subscriptions or self._watchers)

    async def run(self) -> None:
        """Follow the log from now on, until cancelled."""
        position: GlobalPosition | None = None
        while True:
            batch: list[tuple[GlobalPosition, StoredEvent]] = []
            try:
                if self.followed:
                    if position is None:
                        position = await self._store.head()
                    batch = await self._store.read_all(position, BATCH)
                else:
                    position = await self._head_unless_joined(position)
            except (psycopg.Error, psycopg_pool.PoolTimeout) as error:
                # The database away (a restart, a failover, a standby cancelling the
                # query for its replay): keep the checkpoint, try again at the next
                # poll. After a failover transaction ids go on from the old
                # primary's, so the checkpoint orders the new primary's events.
                log.warning("live log: database unavailable (%s)", error)
            for position, event in batch:  # noqa: B007 (the loop moves the checkpoint)
                for subscription in self._subscriptions.get(event.game_id, ()):
                    subscription.deliver(event)
            if batch:
                for news in self._watchers:
                    news.set()
            if len(batch) < BATCH:
                await self._sleep()

    async def _head_unless_joined(
        self, position: GlobalPosition | None
    ) -> GlobalPosition | None:
        """The checkpoint while nobody follows: the head of the log, unless someone
        started following while it was read. A newcomer has read the store itself
        after subscribing, so it can have missed only what came after a head read
        before it came; a head read meanwhile might lie past that."""
        head = await self._store.head()
        return position if self.followed else head

    async def _sleep(self) -> None:
        """Until the next poll, or sooner: when this process appends while someone
        follows, or when someone starts following."""
        woken = self._wake if self.followed else self._joined
        with suppress(TimeoutError):
            async with asyncio.timeout(self._poll_seconds):
                await woken.wait()
        if woken is self._wake and woken.is_set():
            await asyncio.sleep(SETTLE_SECONDS)
        self._wake.clear()
        self._joined.clear()
