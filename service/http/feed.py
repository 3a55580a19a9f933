"""The feed: every game's events, in the store's commit-safe order, for apps that
mirror games. `GET /feed` pages it by cursor; `GET /feed/stream` is the same as
Server-Sent Events. Read-only, and it never carries a write token (only events).
It carries the public games' events, and those of every game of the caller's own
group (a group's key, or an app key made for a group).

A cursor is the position of an event in the global log, `<transaction>.<position>`:
opaque to clients, who only send back the `next` (or an SSE `id`) they were given.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import HeaderParameter, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from service.application.errors import Invalid
from service.application.games import GameName, Games
from service.http.caching import caller_dependent, read
from service.http.callers import listed_for
from service.http.problems import problems
from service.http.stream import KEEP_ALIVE_SECONDS, published
from service.http.wire import FeedEvents
from service.readside.live import LiveLog
from service.storage.store import GlobalPosition, StoredEvent

PAGE = 1000
_CURSOR = re.compile(r"^(\d{1,19})\.(\d{1,19})$")


class FeedEvent(msgspec.Struct, kw_only=True):
    """One stored event of any game; `data` as `/games/{id}/events` gives it. The
    OpenAPI document shows each `type`'s shape (`FeedEvents`)."""

    cursor: str
    game_id: UUID
    game: GameName
    version: int
    type: str
    data: Any
    recorded_at: datetime


class FeedPage(msgspec.Struct, kw_only=True):
    """`events` after the cursor sent; `next` is the cursor to send for the rest
    (the same one again when nothing new has been stored yet)."""

    events: list[FeedEvents]
    next: str | None


Cursor = Annotated[
    str | None,
    QueryParameter(
        description="The `next` of the previous page; without it, from the start.",
        max_length=40,
    ),
]


class FeedController(Controller):
    path = "/feed"
    tags = ("feed",)

    @read(
        "/",
        summary="Every game's events, in commit order, paged by cursor",
        description="The public games' events, and those of every game of the "
        "caller's own group (a group's key, or an app key made for a group).",
        responses=problems(422, 503),
    )
    async def get_feed(
        self,
        request: Request,
        games: NamedDependency[Games],
        after: Cursor = None,
        limit: Annotated[int, QueryParameter(ge=1, le=PAGE)] = 100,
        game: Annotated[GameName | None, QueryParameter()] = None,
    ) -> Response[FeedPage]:
        group = listed_for(request)
        events = await _page(
            games, _position(after), limit, _hosted(games, game), group
        )
        page = FeedPage(events=events, next=events[-1].cursor if events else after)
        return Response(page, headers=caller_dependent(group))

    @read(
        "/stream",
        summary="Server-Sent Events: every game's events as they are stored",
        description="The games of `GET /feed`: the public ones, and the caller's "
        "own group's.",
        media_type="text/event-stream",
        responses={
            200: ResponseSpec(
                data_container=FeedEvents,
                generate_examples=False,
                media_type="text/event-stream",
                description="One `event` message per stored event: the SSE `id` is "
                "its cursor, `data` the feed event. `Last-Event-ID` resumes.",
            ),
            **problems(422, 503),
        },
    )
    async def stream_feed(
        self,
        request: Request,
        games: NamedDependency[Games],
        live: NamedDependency[LiveLog],
        last_event_id: Annotated[
            str | None, HeaderParameter(name="Last-Event-ID", max_length=40)
        ] = None,
        after: Cursor = None,
        game: Annotated[GameName | None, QueryParameter()] = None,
    ) -> ServerSentEvent:
        """From the cursor in Last-Event-ID (a reconnecting browser sends it) or
        `after`; without either, from the events stored from now on."""
        start = _position(last_event_id if last_event_id is not None else after)
        game, group = _hosted(games, game), listed_for(request)
        if start is None:
            start = await games.store.head()
        return ServerSentEvent(
            _stream(games, live, start, game, group), headers=caller_dependent(group)
        )


async def _stream(
    games: Games,
    live: LiveLog,
    after: GlobalPosition,
    game: str | None,
    group: str | None,
) -> AsyncIterator[ServerSentEventMessage]:
    with live.watch_all() as news:
        while True:
            news.clear()  # before reading: news of what the read misses is kept
            events = await _page(games, after, PAGE, game, group)
            for event in events:
                yield ServerSentEventMessage(
                    data=msgspec.json.encode(event).decode(),
                    id=event.cursor,
                    event="event",
                )
            if events:
                after = _position(events[-1].cursor)
            if len(events) == PAGE:
                continue
            try:
                await asyncio.wait_for(news.wait(), timeout=KEEP_ALIVE_SECONDS)
            except TimeoutError:
                yield ServerSentEventMessage(comment="keep-alive")


async def _page(
    games: Games,
    after: GlobalPosition | None,
    limit: int,
    game: str | None,
    group: str | None,
) -> list[FeedEvent]:
    rows = await games.store.read_feed(after, limit, game, group)
    return [_event(position, event, kind, games) for position, event, kind in rows]


def _event(
    position: GlobalPosition, event: StoredEvent, kind: str, games: Games
) -> FeedEvent:
    logged = published(event, games.codec(kind))
    return FeedEvent(
        cursor=f"{position.transaction}.{position.position}",
        game_id=event.game_id,
        game=kind,
        version=event.version,
        type=event.type,
        data=logged.data,
        recorded_at=event.recorded_at,
    )


def _hosted(games: Games, game: str | None) -> str | None:
    """The game asked for, one of those the app hosts (the document lists them)."""
    if game is not None and game not in games.rules:
        known = ", ".join(games.rules)
        raise Invalid(f"`game` is one of {known}, not {game[:50]!r}.")
    return game


def _position(cursor: str | None) -> GlobalPosition | None:
    if cursor is None:
        return None
    match = _CURSOR.match(cursor)
    if match is None or max(map(int, match.groups())) >= 2**63:
        raise Invalid(f"{cursor!r} is not a cursor this feed gave: send back `next`.")
    return GlobalPosition(int(match.group(1)), int(match.group(2)))
