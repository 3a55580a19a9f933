"""The deliverer: tells each webhook endpoint what the log stores, at least once,
in the log's order.

One process delivers at a time: the one holding a session advisory lock on a
connection of its own, idle between statements, so it holds no transaction id and
keeps no reader of the log waiting; when that process dies its connection closes and
another takes the turn. The others try again every `poll_seconds`.

Each enabled endpoint is followed by a task of its own, from its checkpoint in the
global log (migration 0017): it sends the events of the batch it read one after the
other, each until the endpoint takes it (any 2xx) or it is given up, and only then
moves its checkpoint past it. A crash between the two sends the event again, under
the same `webhook-id`. A slow or failing endpoint waits in its own task: the others
and the moves go on. An attempt that fails is tried again after the waits of
`retries` (about three days by default); after the last, or at once on a 410 Gone,
the endpoint is switched off, and says why. Each attempt's request is
`sender.py`'s: to an address checked, within its timeout.

A resend asked by an app is an attempt made while its request waits, in the
serving process: on connections of their own, so that resends never take the
deliveries' (`Sender`), and one at a time for each app key.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import uuid
import weakref
from collections.abc import Sequence
from contextlib import suppress
from datetime import UTC, datetime

import msgspec
import psycopg
import psycopg_pool

from domain.names import name_key
from service.application.addresses import Resolve, resolve_by_system
from service.application.errors import Invalid
from service.application.timeline import Timelines
from service.application.visibility import Viewer, removed_now
from service.application.webhooks import (
    Message,
    MessageData,
    message_id,
    signature,
)
from service.readside.sender import Sender
from service.storage import webhooks as stored
from service.storage.store import EventStore, GlobalPosition, StoredEvent
from service.storage.webhooks import AttemptRow, EndpointRow, NewAttempt, WebhookStore

log = logging.getLogger(__name__)

TURN = 0x746C_7768_6F6F6B  # "tl" "whook"
# The events an endpoint's task reads from the log at a time.
BATCH = 100
# The longest the attempts made and the checkpoint wait to be written.
FLUSH_SECONDS = 1.0

_UNAVAILABLE = (psycopg.OperationalError, psycopg_pool.PoolTimeout)


class Deliverer:
    def __init__(
        self,
        conninfo: str,
        pool: psycopg_pool.AsyncConnectionPool,
        log_store: EventStore,
        timelines: Timelines,
        *,
        allow_private: bool,
        retries: Sequence[float],
        resolve: Resolve = resolve_by_system,
    ) -> None:
        self._conninfo = conninfo
        self._pool = pool
        self._log = log_store
        self._timelines = timelines
        self.store = WebhookStore(pool)
        self._retries = tuple(retries)
        self._wake = asyncio.Event()
        # Set when this process switched an endpoint on or added one: the list of
        # enabled endpoints is read again at once rather than at the next poll.
        self._endpoints_changed = False
        self._following: dict[uuid.UUID, asyncio.Task[None]] = {}
        self._sender = Sender(allow_private, resolve)
        self._resender = Sender(allow_private, resolve)
        # The resend under way for each app key (gone with its last waiter).
        self._resending: weakref.WeakValueDictionary[uuid.UUID, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    def wake(self, *, endpoints_changed: bool = False) -> None:
        """Something was stored, or (`endpoints_changed`) an endpoint was added or
        switched on: deliver it now rather than at the next poll."""
        self._endpoints_changed |= endpoints_changed
        self._wake.set()

    async def close(self) -> None:
        await self._sender.close()
        await self._resender.close()

    async def run(self, poll_seconds: float = 1.0) -> None:
        """Deliver while this process holds the turn, until cancelled."""
        while True:
            try:
                await self._take_turn(poll_seconds)
            except _UNAVAILABLE as error:
                log.warning("deliverer: database unavailable (%s)", error)
            except Exception:
                log.exception("deliverer: failed; trying again")
            await asyncio.sleep(poll_seconds)

    async def _take_turn(self, poll_seconds: float) -> None:
        """Wait for the turn on a connection of its own (asked again every
        `poll_seconds` on that one connection), then deliver until the connection
        is lost; the endpoints' tasks stop with it, so that two processes do not
        deliver for long at once."""
        async with await psycopg.AsyncConnection.connect(
            self._conninfo, autocommit=True
        ) as turn:
            while not await _try_turn(turn):
                await asyncio.sleep(poll_seconds)
            loop = asyncio.get_running_loop()
            enabled: list[EndpointRow] = []
            next_poll = loop.time()
            try:
                while True:
                    # Once a poll, not once a wake-up (each move stored is one): the
                    # turn is checked and the enabled endpoints read again, so a
                    # move costs nothing here while no endpoint is enabled.
                    if self._endpoints_changed or loop.time() >= next_poll:
                        self._endpoints_changed = False
                        await turn.execute("SELECT 1")  # the turn is still ours
                        enabled = await self.store.enabled()
                        next_poll = loop.time() + poll_seconds
                    self._follow_enabled(enabled)
                    with suppress(TimeoutError):
                        async with asyncio.timeout_at(next_poll):
                            await self._wake.wait()
                    self._wake.clear()
            finally:
                following = list(self._following.values())
                for task in following:
                    task.cancel()
                await asyncio.gather(*following, return_exceptions=True)

    def _follow_enabled(self, enabled: list[EndpointRow]) -> None:
        for endpoint in enabled:
            if endpoint.id not in self._following:
                task = asyncio.create_task(self._follow(endpoint))
                self._following[endpoint.id] = task
                task.add_done_callback(
                    lambda _, id=endpoint.id: self._following.pop(id, None)
                )

    async def _follow(self, endpoint: EndpointRow) -> None:
        """Deliver what the log holds after the endpoint's checkpoint."""
        try:
            while True:
                async with self._pool.connection() as conn:
                    after = await stored.checkpoint(conn, endpoint.id)
                batch = await self._log.read_feed(
                    after, BATCH, endpoint.game, endpoint.key_group
                )
                if not await self._deliver_batch(endpoint, batch):
                    return
                if len(batch) < BATCH:
                    return
        except _UNAVAILABLE as error:
            log.warning("deliverer: database unavailable (%s)", error)
        except Exception:
            log.exception("deliverer: following endpoint %s failed", endpoint.id)

    async def _deliver_batch(
        self,
        endpoint: EndpointRow,
        batch: list[tuple[GlobalPosition, StoredEvent, str]],
    ) -> bool:
        """Deliver a batch of the log in order; False once the endpoint is switched
        off. The attempts and the checkpoint are written together, after the batch
        or a failed attempt, or every `FLUSH_SECONDS`: a crash before sends again
        what was taken since, under the same ids."""
        current = await self.store.get(endpoint.id)
        if current is None or not current.enabled or not batch:
            return False
        attempts: list[NewAttempt] = []
        made = await self.store.attempts_made(
            endpoint.id,
            [
                message_id(endpoint.id, event.game_id, event.version, kind)
                for _, event, _ in batch
                for kind in endpoint.kinds
            ],
            current.switched_at,
        )
        secrets = await self.store.secrets(endpoint.id)
        done: GlobalPosition | None = None
        flushed = time.monotonic()
        for position, event, game in batch:
            for kind, body in await self.messages(current, event, game):
                id = message_id(endpoint.id, event.game_id, event.version, kind)
                # `number` counts every attempt at the message; `tries` those since
                # the endpoint was last switched, which the retries' waits follow.
                number, tries = made.get(id, (0, 0))
                while True:
                    number += 1
                    tries += 1
                    status, attempt = await self.attempt(
                        current, secrets, id, kind, event, body, number
                    )
                    attempts.append(attempt)
                    if status is not None and 200 <= status < 300:
                        break
                    await self.store.record(endpoint.id, attempts, done)
                    attempts, done = [], None
                    if not await self._after_failure(current, status, tries):
                        return False
                    current = await self.store.get(endpoint.id)
                    if current is None or not current.enabled:
                        return False
                    secrets = await self.store.secrets(endpoint.id)
            done = position
            if time.monotonic() - flushed > FLUSH_SECONDS:
                await self.store.record(endpoint.id, attempts, done)
                attempts, done, flushed = [], None, time.monotonic()
        await self.store.record(endpoint.id, attempts, done)
        return True

    async def _after_failure(
        self, endpoint: EndpointRow, status: int | None, made: int
    ) -> bool:
        """After a failed attempt: wait for the next one (True), or switch the
        endpoint off (False) on a 410 or once every attempt has failed."""
        if status == 410:
            await self.store.switch(
                endpoint.id, False, "the endpoint answered 410 Gone"
            )
            return False
        if made > len(self._retries):
            waited = sum(self._retries)
            await self.store.switch(
                endpoint.id,
                False,
                f"every attempt failed, {made} of them over {waited / 3600:.1f} hours",
            )
            return False
        await asyncio.sleep(self._retries[made - 1] * random.uniform(0.9, 1.1))
        return True

    async def messages(
        self, endpoint: EndpointRow, event: StoredEvent, game: str
    ) -> list[tuple[str, bytes]]:
        """The messages an event makes for the endpoint: its kinds, with their
        bodies (the same bytes on every attempt). An endpoint is told of the games
        its app would see listed: public ones, and its own group's, none removed
        (`visibility`)."""
        if event.version == 1 or (
            endpoint.game_id is not None and endpoint.game_id != event.game_id
        ):
            return []
        row, after = await self._timelines.as_stored_at(event.game_id, event.version)
        if endpoint.group is not None and endpoint.group != _group_key(row.group):
            return []
        gone = await removed_now(row, self._timelines.store)
        if not Viewer(endpoint.key_group).lists(row, removed=gone):
            return []
        _, before = await self._timelines.as_stored_at(event.game_id, event.version - 1)
        kinds = ["move.stored"]
        if after.status != before.status:
            if after.status in ("finished", "abandoned"):
                kinds.append(f"game.{after.status}")
            elif before.status in ("finished", "abandoned"):
                kinds.append("game.reopened")
        data = MessageData(
            game_id=event.game_id,
            game=game,
            version=event.version,
            move=event.type,
            status=after.status,
            winners=list(after.winners or ()),
            href=f"/games/{event.game_id}",
        )
        return [
            (
                kind,
                msgspec.json.encode(
                    Message(type=kind, timestamp=event.recorded_at, data=data)
                ),
            )
            for kind in kinds
            if kind in endpoint.kinds
        ]

    async def attempt(
        self,
        endpoint: EndpointRow,
        secrets: list[str],
        id: str,
        kind: str,
        event: StoredEvent,
        body: bytes,
        number: int,
        by_hand: bool = False,
    ) -> tuple[int | None, NewAttempt]:
        """One attempt: the status the endpoint answered (None: none), and the
        attempt to log."""
        started = time.monotonic()
        at = datetime.now(UTC)
        headers = {
            "content-type": "application/json",
            "webhook-id": id,
            "webhook-timestamp": str(int(at.timestamp())),
            "webhook-signature": signature(secrets, id, at, body),
        }
        sender = self._resender if by_hand else self._sender
        status, error = await sender.post(endpoint.url, body, headers)
        return status, NewAttempt(
            endpoint_id=endpoint.id,
            message_id=id,
            kind=kind,
            game_id=event.game_id,
            version=event.version,
            attempt=number,
            status=status,
            error=error,
            milliseconds=round((time.monotonic() - started) * 1000),
            by_hand=by_hand,
        )

    async def resend(self, endpoint: EndpointRow, of: AttemptRow) -> AttemptRow:
        """The event of an attempt sent once more, now, as the app asked: logged as
        an attempt by hand, with the same `webhook-id`. An app key's resends go
        one at a time, each waiting for the one before."""
        lock = self._resending.setdefault(endpoint.app_key, asyncio.Lock())
        async with lock:
            return await self._resend(endpoint, of)

    async def _resend(self, endpoint: EndpointRow, of: AttemptRow) -> AttemptRow:
        events = await self._log.read(of.game_id, of.version - 1, 1)
        (event,) = events
        row = await self._timelines.row(of.game_id)
        bodies = dict(await self.messages(endpoint, event, row.game))
        body = bodies.get(of.kind)
        if body is None:  # the endpoint no longer asks for that kind
            raise Invalid(f"The endpoint is no longer told of '{of.kind}'.")
        _, attempt = await self.attempt(
            endpoint,
            await self.store.secrets(endpoint.id),
            of.message_id,
            of.kind,
            event,
            body,
            of.attempt,
            by_hand=True,
        )
        await self.store.record(endpoint.id, [attempt], None)
        (latest,) = await self.store.attempts(endpoint.id, 1)
        return latest


async def _try_turn(conn: psycopg.AsyncConnection) -> bool:
    cursor = await conn.execute("SELECT pg_try_advisory_lock(%s)", (TURN,))
    (taken,) = await cursor.fetchone()
    return taken


def _group_key(group: str | None) -> str | None:
    return name_key(group) if group else None
