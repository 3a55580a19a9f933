"""The REST endpoints of ../shared/API.md."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.openapi import ResponseSpec
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from psycopg_pool import AsyncConnectionPool

from domain.history import History
from projections import replay
from projections.scoresheet import ScoreSheet, score_sheet
from service import summaries
from service.games import Games
from service.live import LiveLog, Subscription
from service.moves import MOVE_BODY_DECODER, MoveBody
from service.openapi import problems
from service.problems import Problem
from service.store import GameRow, StoredEvent
from service.wire import (
    CreatedGame,
    EventPage,
    GameList,
    GameSummary,
    Health,
    LoggedEvent,
    MoveAccepted,
    NewGame,
    PlayerRecord,
    Replay,
    ReplayFrame,
)

# A comment line every so often keeps idle streams open through proxies and lets the
# server notice viewers that have gone.
KEEP_ALIVE_SECONDS = 15


def summary_of(row: GameRow, history: History) -> dict[str, Any]:
    winners = history.winners
    return {
        "id": row.id,
        "game": row.game,
        "players": list(row.players),
        "first_player": row.first_player,
        "seed": row.seed,
        "options": row.options,
        "status": "in_progress" if winners is None else "finished",
        "version": history.version,
        "winners": list(winners or ()),
        "state": history.rules.view(history.state),
        "title": row.title,
        "played_at": row.played_at,
        "location": row.location,
        "notes": row.notes,
        "created_at": row.created_at,
    }


class GameController(Controller):
    path = "/games"
    tags = ("games",)

    @post(
        "/",
        status_code=201,
        summary="Create a game",
        responses=problems(422, 503),
    )
    async def create_game(
        self, data: JSONBody[NewGame], games: NamedDependency[Games]
    ) -> CreatedGame:
        row, history, token = await games.create(data)
        return CreatedGame(**summary_of(row, history), write_token=token)

    @get(
        "/{game_id:uuid}",
        summary="A game's summary and public state",
        responses=problems(404, 503),
    )
    async def get_game(
        self, game_id: FromPath[UUID], games: NamedDependency[Games]
    ) -> GameSummary:
        row, history = await games.current(game_id)
        return GameSummary(**summary_of(row, history))

    @post(
        "/{game_id:uuid}/moves",
        status_code=201,
        summary="Log one move",
        security=[{"writeToken": []}],
        responses=problems(401, 403, 404, 409, 413, 422, 503),
    )
    async def post_move(
        self,
        game_id: FromPath[UUID],
        request: Request,
        data: JSONBody[MoveBody],
        games: NamedDependency[Games],
        authorization: Annotated[
            str | None, HeaderParameter(name="Authorization")
        ] = None,
        idempotency_key: Annotated[
            str | None, HeaderParameter(name="Idempotency-Key", max_length=200)
        ] = None,
    ) -> MoveAccepted:
        # `data` describes the body in the OpenAPI document, but Litestar decodes it
        # leniently ("2" passes for 2); a move is read again strictly, as an import is.
        move = MOVE_BODY_DECODER.decode(await request.body())
        idempotency = None
        if idempotency_key is not None:
            fingerprint = hashlib.sha256(msgspec.json.encode(move))
            idempotency = (idempotency_key, fingerprint.digest())
        history = await games.submit(game_id, authorization, move, idempotency)
        return MoveAccepted(history.version, history.rules.view(history.state))

    @get(
        "/{game_id:uuid}/events",
        summary="The game's stored log, in order",
        responses=problems(404, 422, 503),
    )
    async def get_events(
        self,
        game_id: FromPath[UUID],
        games: NamedDependency[Games],
        after: Annotated[int, QueryParameter(ge=0)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 1000,
    ) -> EventPage:
        events, version = await games.events(game_id, after, limit)
        return EventPage([logged(e) for e in events], version)

    @get("/", summary="Games, newest first", responses=problems(422, 503))
    async def list_games(
        self,
        pool: NamedDependency[AsyncConnectionPool],
        game: Annotated[str | None, QueryParameter(max_length=40)] = None,
        player: Annotated[str | None, QueryParameter(max_length=40)] = None,
        status: Annotated[
            Literal["in_progress", "finished"] | None, QueryParameter()
        ] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
        offset: Annotated[int, QueryParameter(ge=0)] = 0,
    ) -> GameList:
        return await summaries.list_games(
            pool, game=game, player=player, status=status, limit=limit, offset=offset
        )

    @get(
        "/{game_id:uuid}/replay",
        summary="Every step of the game, with sentences",
        responses=problems(404, 503),
    )
    async def get_replay(
        self, game_id: FromPath[UUID], games: NamedDependency[Games]
    ) -> Replay:
        timeline = await games.timeline(game_id)
        return Replay(steps=replay.steps(timeline.histories, timeline.records))

    @get(
        "/{game_id:uuid}/replay/{step:int}",
        summary="The game after N moves",
        responses=problems(404, 503),
    )
    async def get_replay_step(
        self,
        game_id: FromPath[UUID],
        step: FromPath[int],
        games: NamedDependency[Games],
    ) -> ReplayFrame:
        timeline = await games.timeline(game_id)
        last = len(timeline.records)
        if not 0 <= step <= last:
            raise Problem(404, f"The game has steps 0 to {last}, not {step}.")
        if step == 0:
            start = timeline.histories[0]
            return ReplayFrame(step=0, version=1, state=start.rules.view(start.state))
        frame = replay.step(timeline.histories, timeline.records, step)
        return ReplayFrame(
            step=step,
            version=frame.version,
            state=frame.state,
            move=frame.move,
            description=frame.description,
        )

    @get(
        "/{game_id:uuid}/scoresheet",
        summary="Points per round, totals and winners",
        responses=problems(404, 503),
    )
    async def get_scoresheet(
        self, game_id: FromPath[UUID], games: NamedDependency[Games]
    ) -> ScoreSheet:
        _, history = await games.current(game_id)
        return score_sheet(history)

    @get(
        "/{game_id:uuid}/stream",
        summary="Server-Sent Events: each move as stored",
        media_type="text/event-stream",
        responses={
            200: ResponseSpec(
                data_container=LoggedEvent,
                generate_examples=False,
                media_type="text/event-stream",
                description="One `move` event per stored move: the SSE `id` is its "
                "version and `data` the stored event, as /events gives it.",
            ),
            **problems(404, 422, 503),
        },
    )
    async def stream(
        self,
        game_id: FromPath[UUID],
        games: NamedDependency[Games],
        live: NamedDependency[LiveLog],
        last_event_id: Annotated[
            int | None, HeaderParameter(name="Last-Event-ID", ge=0)
        ] = None,
        after: Annotated[int | None, QueryParameter(ge=0)] = None,
    ) -> ServerSentEvent:
        """From the version in Last-Event-ID (a reconnecting browser sends it) or
        `after`; without either, from the moves stored from now on."""
        _, history = await games.current(game_id)
        start = last_event_id if last_event_id is not None else after
        return ServerSentEvent(
            _stream(games, live, game_id, history.version if start is None else start)
        )


async def _stream(
    games: Games, live: LiveLog, game_id: UUID, after: int
) -> AsyncIterator[ServerSentEventMessage]:
    # Subscribe before reading what is stored, so nothing falls between the two.
    with live.subscribe(game_id) as subscription:
        sent = after
        behind = True
        while True:
            if behind:
                for event in await games.store.read(game_id, sent):
                    yield _message(event)
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
                yield _message(event)
                sent = event.version


async def _next(subscription: Subscription) -> StoredEvent | None:
    """The next event delivered, or None when the stream's queue overflowed."""
    if subscription.lagged.is_set():
        subscription.lagged.clear()
        return None
    return await subscription.queue.get()


def logged(event: StoredEvent) -> LoggedEvent:
    return LoggedEvent(
        event.version, event.type, msgspec.Raw(event.data), event.recorded_at
    )


def _message(event: StoredEvent) -> ServerSentEventMessage:
    return ServerSentEventMessage(
        data=msgspec.json.encode(logged(event)).decode(),
        id=str(event.version),
        event="move",
    )


@get(
    "/players/{name:str}",
    tags=["players"],
    summary="A player's record across games",
    responses=problems(503),
)
async def get_player(
    name: FromPath[str], pool: NamedDependency[AsyncConnectionPool]
) -> PlayerRecord:
    return await summaries.player_record(pool, name)


@get(
    "/health",
    tags=["service"],
    summary="200 when the database answers",
    responses=problems(503),
)
async def health(games: NamedDependency[Games]) -> Health:
    await games.store.ping()
    return Health("ok")
