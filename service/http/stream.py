"""A game's live stream: Server-Sent Events, one per stored move, resumable.

The stream subscribes to the process's log follower before reading what is stored, so
no move falls between the two; a viewer too slow for the follower's queue reads what
it missed from the store instead of holding an unbounded backlog.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from uuid import UUID

import msgspec
from litestar.response import ServerSentEventMessage

from domain.creation import GameCreated
from domain.history import Codec
from service.application.games import Games
from service.http.wire import LoggedEvent
from service.readside.live import LiveLog, Subscription
from service.storage.store import StoredEvent

# A comment line every so often keeps idle streams open through proxies and lets the
# server notice viewers that have gone.
KEEP_ALIVE_SECONDS = 15

_CREATION = msgspec.json.Decoder(GameCreated)


async def stream_of(
    games: Games, live: LiveLog, game_id: UUID, codec: Codec, after: int
) -> AsyncIterator[ServerSentEventMessage]:
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
