"""The process's log follower (service/readside/live.py): it reads no events while
nobody follows, and whoever starts following misses no move, even one stored while
the follower was moving its checkpoint to the head of the log."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from uuid import UUID, uuid4

from service.readside.live import LiveLog, Subscription
from service.settings import Settings
from service.storage.pools import connection_pool
from service.storage.store import EventStore, NewGameRow
from tests.support.waiting import eventually_async

POLL_SECONDS = 0.05


class WatchedStore(EventStore):
    """The real store, counting the follower's reads of the log, with a hook run
    inside `head()` before its query."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.reads = 0
        self.heads = 0
        self.before_head: Callable[[], Awaitable[None]] | None = None

    async def read_all(self, *args, **kwargs):
        self.reads += 1
        return await super().read_all(*args, **kwargs)

    async def head(self):
        self.heads += 1
        if (hook := self.before_head) is not None:
            self.before_head = None
            await hook()
        return await super().head()


async def with_follower(database_url: str, test) -> None:
    pool = connection_pool(Settings(database_url=database_url, pool_max_size=4))
    await pool.open(wait=True, timeout=10)
    store = WatchedStore(pool)
    live = LiveLog(store, poll_seconds=POLL_SECONDS)
    follower = asyncio.create_task(live.run())
    try:
        await test(store, live)
    finally:
        follower.cancel()
        await asyncio.gather(follower, return_exceptions=True)
        await pool.close()


async def new_game(store: EventStore) -> UUID:
    row = NewGameRow(uuid4(), "dobro", ("Ana", "Bia"), "Ana", 7, {}, b"\x00")
    await store.create_game(row, "game_created", b'{"type": "game_created"}')
    return row.id


def test_nobody_following_the_follower_reads_no_events_then_serves_a_newcomer(
    database_url, run
):
    async def test(store: WatchedStore, live: LiveLog) -> None:
        game = await new_game(store)
        for version in range(2, 12):
            await store.append(game, version, "play", b"{}")
            live.wake()
        await eventually_async(lambda: store.heads >= 3)  # several polls went by
        assert store.reads == 0

        with live.subscribe(game) as subscription:
            await store.append(game, 12, "play", b"{}")
            live.wake()
            # On a busy machine the follower's checkpoint may still lie before the
            # last moves stored unfollowed: it delivers them too, in order (a stream
            # skips what it has sent), and the newcomer's move last.
            delivered = []
            async with asyncio.timeout(5):
                while not delivered or delivered[-1].version < 12:
                    delivered.append(await subscription.queue.get())
        versions = [event.version for event in delivered]
        assert versions == sorted(versions) and versions[-1] == 12
        assert store.reads > 0

    run(with_follower(database_url, test))


def test_a_move_stored_while_a_newcomer_arrives_during_a_head_read_reaches_it(
    database_url, run
):
    """The newcomer subscribes and reads the store, then a move is stored, all
    before the follower's head query runs: that head lies past the move, so the
    follower must keep the checkpoint it had."""

    async def test(store: WatchedStore, live: LiveLog) -> None:
        game = await new_game(store)
        # idle, its checkpoint at the head
        await eventually_async(lambda: store.heads >= 1)
        with ExitStack() as stack:
            arrived: list[Subscription] = []

            async def newcomer_arrives() -> None:
                arrived.append(stack.enter_context(live.subscribe(game)))
                assert [e.version for e in await store.read(game, 0)] == [1]
                # Stored by another process: no wake, the follower polls.
                await store.append(game, 2, "play", b"{}")

            store.before_head = newcomer_arrives
            await eventually_async(lambda: bool(arrived))
            # The follower may deliver what came before the newcomer as well (the
            # game's creation); a stream skips what it has read.
            delivered = []
            async with asyncio.timeout(5):
                while 2 not in delivered:
                    delivered.append((await arrived[0].queue.get()).version)
        assert delivered[-1] == 2

    run(with_follower(database_url, test))
