"""A game's live stream: Server-Sent Events, one per stored move, resumable.

At most `max_streams` streams are open at once in a process, and at most
`max_streams_per_client` of them for one client (`StreamCap`); one more is answered
503. The connection guard (`service/http/server.py`) does not cut a stream whose
viewer reads it: its request arrived whole, and its answer never ends.

The stream subscribes to the process's log follower before reading what is stored, so
no move falls between the two; a viewer too slow for the follower's queue reads what
it missed from the store instead of holding an unbounded backlog.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import NoReturn

import msgspec
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.response import ServerSentEventMessage
from litestar.types import ASGIApp, Receive, Scope, Send

from domain.creation import GameCreated
from domain.history import Codec
from service.application.games import Games
from service.application.visibility import removed_now
from service.http.limits import client_key
from service.http.problems import Problem
from service.http.wire import LoggedEvent
from service.readside.live import LiveLog, Subscription
from service.storage.store import GameRow, StoredEvent

# A comment line every so often keeps idle streams open through proxies and lets the
# server notice viewers that have gone.
KEEP_ALIVE_SECONDS = 15

_CREATION = msgspec.json.Decoder(GameCreated)

EVENT_STREAM = "text/event-stream"


class StreamCap(ASGIMiddleware):
    """At most `limit` event streams open at once, across every stream route, and at
    most `per_client` of them for one client (its address as the server gives it,
    an IPv6 client by its /64, as the creation rate counts).

    A middleware rather than a count in the handler: it holds a stream's place for
    exactly as long as the app serves its request, however it ends (the viewer
    leaving, the server stopping, an error before the first event). The handler's
    generator only starts once the answer has begun, too late for a 503.
    """

    scopes = (ScopeType.HTTP,)

    def __init__(self, limit: int, per_client: int) -> None:
        self.limit = limit
        self.per_client = per_client
        self.open = 0
        self.open_by_client: dict[str, int] = {}

    async def handle(
        self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp
    ) -> None:
        if scope["route_handler"].media_type != EVENT_STREAM:
            await next_app(scope, receive, send)
            return
        client = client_key(scope["client"][0] if scope.get("client") else "")
        held = self.open_by_client.get(client, 0)
        if self.open >= self.limit:
            _refuse(
                f"{self.limit} live streams are open, the most this service keeps "
                "at once; try again in a moment."
            )
        if held >= self.per_client:
            _refuse(
                f"One client may hold {self.per_client} live streams open, and "
                "your address has as many; close one, or try again in a moment."
            )
        self.open += 1
        self.open_by_client[client] = held + 1
        try:
            await next_app(scope, receive, send)
        finally:
            self.open -= 1
            left = self.open_by_client.pop(client) - 1
            if left:  # a client with none open is not kept
                self.open_by_client[client] = left


def _refuse(detail: str) -> NoReturn:
    problem = Problem(503, detail)
    problem.headers = {"Retry-After": "5"}
    raise problem


async def stream_of(
    games: Games, live: LiveLog, row: GameRow, codec: Codec, after: int
) -> AsyncIterator[ServerSentEventMessage]:
    """The moves of the game whose row is `row` after version `after`, as they are
    stored. A sample game removed meanwhile (`visibility.removed_now`, asked at
    each keep-alive) ends its stream: it no longer exists."""
    game_id = row.id
    # Subscribe before reading what is stored, so nothing falls between the two.
    with live.subscribe(game_id) as subscription:
        sent = after
        behind = True
        while True:
            if behind:
                for event in await games.store.read(game_id, sent):
                    yield _message(event, codec)
                    sent = event.version
                behind = False
            try:
                event = await asyncio.wait_for(
                    _next(subscription), timeout=KEEP_ALIVE_SECONDS
                )
            except TimeoutError:
                if await removed_now(row, games.store):
                    return
                yield ServerSentEventMessage(comment="keep-alive")
                continue
            if event is None or event.version > sent + 1:
                behind = True  # fell behind the follower: read the rest from the log
            elif event.version == sent + 1:
                yield _message(event, codec)
                sent = event.version


async def _next(subscription: Subscription) -> StoredEvent | None:
    """The next event delivered, or None when the stream's queue overflowed."""
    if subscription.lagged.is_set():
        subscription.lagged.clear()
        return None
    return await subscription.queue.get()


def published(event: StoredEvent, codec: Codec) -> LoggedEvent:
    """A stored row as the API publishes it: read by this version of the code and
    written again, never the stored text passed through. A row written by an older
    version (a field since dropped, one since added with its default) is published
    in today's shape, and a field a later version adds to the stored shape does not
    leak into the API unannounced."""
    if event.version == 1:
        data: msgspec.Struct = _CREATION.decode(event.data)
    else:
        data = codec.record_from_json(event.data)
    return LoggedEvent(event.version, event.type, data, event.recorded_at)


def _message(event: StoredEvent, codec: Codec) -> ServerSentEventMessage:
    return ServerSentEventMessage(
        data=msgspec.json.encode(published(event, codec)).decode(),
        id=str(event.version),
        event="move",
    )
