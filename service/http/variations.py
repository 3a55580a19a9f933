"""Variations over HTTP: branch a new game from a step of another, list a game's
variations, and name one or hide it from that list (docs/api.md, "Variations")."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

from litestar import Controller, Request, Response, patch, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody, QueryParameter

from service.application.games import Games
from service.application.keys import App
from service.application.variations import (
    MAX_NAME_ROWS,
    NAME_LENGTH,
    NewVariation,
    Variation,
    VariationChange,
)
from service.http.bodies import MAX_JSON_BODY_BYTES, strict_body
from service.http.caching import game_stream
from service.http.callers import (
    APP_KEY_SCHEME,
    GAMES_CREATE,
    GROUP_KEY_SCHEME,
    KEY_OPTIONAL,
    MOVES_WRITE,
    SCOPE,
    TAKES_WRITE_TOKEN,
    joined,
    listed_for,
)
from service.http.games import MAX_OFFSET, summary_of
from service.http.guards import may_change_variation, may_read
from service.http.headers import LOCATION, created, declared
from service.http.limits import CREATES_GAMES
from service.http.problems import problems
from service.http.wire import CreatedGame
from service.readside.summaries import GameLists, VariationList


class VariationController(Controller):
    path = "/games/{game_id:uuid}/variations"
    tags = ("games",)

    @post(
        "/",
        status_code=201,
        summary="Branch a variation: a new game from a step of this one",
        description="A new game, with its own write token, that starts as this one "
        "stood after `at` moves (its log holds them again, checked by the rules) and "
        "records `variation_of`. It counts in no player's record nor in `GET /games`. "
        "A variation is a new game: it counts with creations and imports against the "
        "client's limit a minute (429 with Retry-After past it); an app key (scope "
        "`games:create`) counts against its own rate instead, and may then write "
        "the variation too. A group's key (`tlg_...`), or an app key made for a "
        "group, branches it into that group.",
        dto=strict_body(NewVariation),
        before_request=may_read,
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        opt={CREATES_GAMES: True, SCOPE: GAMES_CREATE},
        security=KEY_OPTIONAL,
        responses=problems(401, 403, 404, 413, 415, 422, 429, 503),
        response_headers=[LOCATION],
        operation_class=declared(worded=True),
    )
    async def create_variation(
        self,
        request: Request,
        game_id: FromPath[UUID],
        data: JSONBody[NewVariation],
        games: NamedDependency[Games],
        caller: NamedDependency[App | None],
    ) -> Response[CreatedGame]:
        row, history, token = await games.branch(
            game_id, data.at, caller and caller.id, joined(request)
        )
        return created(
            CreatedGame(**summary_of(row, history), write_token=token), row.id
        )

    @game_stream(
        "/",
        summary="The game's variations, newest first",
        description="Those the caller would see listed: a variation is seen as "
        "its game is, and listed as any game is (public, or of the caller's own "
        "group). Each with its `name` (null until named); a hidden variation is "
        "left out.",
        responses=problems(404, 422, 503),
    )
    async def list_variations(
        self,
        request: Request,
        game_id: FromPath[UUID],
        game_lists: NamedDependency[GameLists],
        limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
        offset: Annotated[int, QueryParameter(ge=0, le=MAX_OFFSET)] = 0,
    ) -> VariationList:
        return await game_lists.variations(
            game_id, limit=limit, offset=offset, group=listed_for(request)
        )

    @patch(
        "/{variation_id:uuid}",
        summary="Name a variation, or hide it from its game's list of variations",
        description="Needs the variation's write token or its game's, the app key "
        "that created either (scope `moves:write`), or a key of their group. "
        f"`name`: 1 to {NAME_LENGTH} characters, kept trimmed; `hidden`: whether "
        "the game's list of variations leaves it out (it is still read at its "
        "address). Each change is stored after the last, never in its place; one "
        "that changes nothing stores nothing. A variation is named or hidden at "
        f"most {MAX_NAME_ROWS} times (422 past it).",
        before_request=may_change_variation,
        opt={SCOPE: MOVES_WRITE, TAKES_WRITE_TOKEN: True},
        dto=strict_body(VariationChange),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        security=[{"writeToken": []}, {APP_KEY_SCHEME: []}, {GROUP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 413, 415, 422, 503),
        operation_class=declared(worded=True),
    )
    async def change_variation(
        self,
        game_id: FromPath[UUID],
        variation_id: FromPath[UUID],
        data: JSONBody[VariationChange],
        games: NamedDependency[Games],
    ) -> Variation:
        return await games.variations.change(game_id, variation_id, data)
