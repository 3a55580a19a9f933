"""The REST endpoints of ../shared/API.md."""

from __future__ import annotations

import hashlib
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter

from domain.history import History
from service.games import Games
from service.problems import Problem
from service.store import GameRow
from service.wire import (
    CreatedGame,
    EventPage,
    GameSummary,
    Health,
    LoggedEvent,
    MoveAccepted,
    NewGame,
)


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

    @post("/", status_code=201, summary="Create a game")
    async def create_game(
        self, data: JSONBody[NewGame], games: NamedDependency[Games]
    ) -> CreatedGame:
        row, history, token = await games.create(data)
        return CreatedGame(**summary_of(row, history), write_token=token)

    @get("/{game_id:uuid}", summary="A game's summary and public state")
    async def get_game(
        self, game_id: FromPath[UUID], games: NamedDependency[Games]
    ) -> GameSummary:
        row, history = await games.current(game_id)
        return GameSummary(**summary_of(row, history))

    @post("/{game_id:uuid}/moves", status_code=201, summary="Log one move")
    async def post_move(
        self,
        game_id: FromPath[UUID],
        data: JSONBody[dict[str, Any]],
        games: NamedDependency[Games],
        authorization: Annotated[
            str | None, HeaderParameter(name="Authorization")
        ] = None,
        idempotency_key: Annotated[
            str | None, HeaderParameter(name="Idempotency-Key", max_length=200)
        ] = None,
    ) -> MoveAccepted:
        move = dict(data)
        expected = move.pop("expected_version", None)
        if expected is not None and (type(expected) is not int or expected < 1):
            raise Problem(422, "expected_version must be a whole number from 1 up.")
        idempotency = None
        if idempotency_key is not None:
            fingerprint = hashlib.sha256(msgspec.json.encode(data, order="sorted"))
            idempotency = (idempotency_key, fingerprint.digest())
        history = await games.submit(
            game_id, authorization, move, expected, idempotency
        )
        return MoveAccepted(history.version, history.rules.view(history.state))

    @get("/{game_id:uuid}/events", summary="The game's stored log, in order")
    async def get_events(
        self,
        game_id: FromPath[UUID],
        games: NamedDependency[Games],
        after: Annotated[int, QueryParameter(ge=0)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 1000,
    ) -> EventPage:
        events, version = await games.events(game_id, after, limit)
        logged = [
            LoggedEvent(e.version, e.type, msgspec.Raw(e.data), e.recorded_at)
            for e in events
        ]
        return EventPage(logged, version)


@get("/health", tags=["service"], summary="200 when the database answers")
async def health(games: NamedDependency[Games]) -> Health:
    await games.store.ping()
    return Health("ok")
