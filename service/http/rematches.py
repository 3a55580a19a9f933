"""Playing a game again over HTTP (docs/api.md, "Playing again"): the next game at
the same table, made by whoever may write the game before."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Request, Response, post
from litestar.di import NamedDependency
from litestar.params import FromPath, HeaderParameter

from service.application.games import Games
from service.application.keys import App
from service.http.callers import (
    APP_KEY_SCHEME,
    GAMES_CREATE,
    GROUP_KEY_SCHEME,
    SCOPE,
    TAKES_WRITE_TOKEN,
    joined,
    viewer_of,
)
from service.http.games import summary_of
from service.http.guards import holds_write_token
from service.http.headers import LOCATION, created, declared
from service.http.limits import CREATES_GAMES
from service.http.problems import problems
from service.http.wire import CreatedGame


class RematchController(Controller):
    path = "/games/{game_id:uuid}/rematch"
    tags = ("games",)

    @post(
        "/",
        status_code=201,
        summary="Play the game again: the next game at the same table",
        description="A new game of the same kind, with the same players in the "
        "same seats, the same options, title and place, group and visibility, and "
        "a seed of its own; its first player is who the game's own rules say opens "
        "the next game (T4; drawn from the new seed where they draw one). Only a "
        "game that is over, finished or abandoned, is played again (409, rule "
        "T4, while it is being played), and "
        "once: a second request is a 409 naming the game the first made "
        "(`game_id`, `Location`) to a caller who may read it. The credential is "
        "the one a move takes (the game's write token, the app key that created "
        "it, or a key of its group); the answer is `POST /games`'s, with "
        "`rematch_of`. Sent again with the same `Idempotency-Key` and credential, "
        "a request is answered as the first was, the same write token included. "
        "It counts as a creation against the client's limit a minute (429 with "
        "Retry-After past it).",
        before_request=holds_write_token,
        opt={
            CREATES_GAMES: True,
            SCOPE: GAMES_CREATE,
            TAKES_WRITE_TOKEN: True,
            "body_media_type": None,
        },
        security=[{"writeToken": []}, {APP_KEY_SCHEME: []}, {GROUP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 409, 422, 429, 503),
        response_headers=[LOCATION],
        operation_class=declared(worded=True),
    )
    async def rematch_game(
        self,
        request: Request,
        game_id: FromPath[UUID],
        games: NamedDependency[Games],
        caller: NamedDependency[App | None],
        idempotency_key: Annotated[
            str | None, HeaderParameter(name="Idempotency-Key", max_length=200)
        ] = None,
    ) -> Response[CreatedGame]:
        row, history, token = await games.rematch(
            game_id,
            viewer_of(request),
            idempotency_key,
            caller and caller.id,
            joined(request),
        )
        return created(
            CreatedGame(**summary_of(row, history), write_token=token), row.id
        )
