"""The games' endpoints of docs/api.md: create, read, log a move, list, replay, score
sheet and the live stream. Each handler makes one call into the application layer
(or a read-side query) and shapes its answer. Logging a move takes the moves of the
app's games: its route is made for them (`move_route`)."""

from __future__ import annotations

from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from litestar import Controller, MediaType, Request, Response, post
from litestar.di import NamedDependency
from litestar.handlers import HTTPRouteHandler
from litestar.openapi import ResponseSpec
from litestar.params import FromPath, HeaderParameter, JSONBody, QueryParameter
from litestar.response import ServerSentEvent

from domain.history import History
from domain.registry import Registry
from projections import replay
from projections.scoresheet import score_sheet
from service.application.creating import GROUP_BY_KEY, NewGame
from service.application.games import Games
from service.application.idempotency import Idempotency
from service.application.keys import App
from service.application.moves import move_bodies
from service.application.pictures import MAX_FRAMES, Pictures
from service.application.submitting import MAX_MOVES
from service.application.variations import variation_of
from service.http.bodies import MAX_JSON_BODY_BYTES, strict_body
from service.http.caching import (
    caller_dependent,
    game_read,
    game_stream,
    language_of,
    read,
)
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
from service.http.guards import holds_write_token
from service.http.headers import LOCATION, created, declared
from service.http.limits import CREATES_GAMES
from service.http.pictures import (
    MEDIA_TYPES,
    SVG_POLICY,
    Format,
    declared_picture,
    picture_format,
    picture_language,
    picture_variant,
    steps_asked,
)
from service.http.problems import problems
from service.http.schemas import GameSheet, Tagged
from service.http.stream import published, stream_of
from service.http.wire import (
    CreatedGame,
    EventPage,
    GameSummary,
    LoggedEvents,
    MoveAccepted,
    Replay,
    ReplayFrame,
    replay_of,
)
from service.readside.live import LiveLog
from service.readside.summaries import GameList, GameLists
from service.storage.store import GameRow

# A game's versions are PostgreSQL integers; a list's offset is kept to the same range.
MAX_VERSION = MAX_OFFSET = 2**31 - 1

# Replay steps a page. The longest simulated game (about 420 moves) fits in one; a
# Dozito step is up to 6 KB of JSON and 60 µs of work, so a full page is some 3 MB,
# built and encoded in a worker thread, off the event loop.
REPLAY_PAGE = MAX_REPLAY_PAGE = 500


def summary_of(row: GameRow, history: History) -> dict[str, Any]:
    winners = history.winners
    return {
        "id": row.id,
        "game": row.game,
        "players": list(row.players),
        "first_player": row.first_player,
        "seed": row.seed,
        "options": row.options,
        "status": history.status,
        "version": history.version,
        "winners": list(winners or ()),
        "state": history.view(),
        "title": row.title,
        "played_at": row.played_at,
        "location": row.location,
        "notes": row.notes,
        "group": row.group,
        "visibility": row.visibility,
        "created_at": row.created_at,
        "variation_of": variation_of(row.variation_of, row.variation_step),
        "rematch_of": row.rematch_of,
    }


class GameController(Controller):
    path = "/games"
    tags = ("games",)

    @post(
        "/",
        status_code=201,
        summary="Create a game",
        dto=strict_body(NewGame, gone={"group": GROUP_BY_KEY}),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        opt={CREATES_GAMES: True, SCOPE: GAMES_CREATE},
        description="Each client may create and import some games a minute "
        "(60 by default, `creations_per_minute`); past it, a 429 with Retry-After. "
        "An app key (scope `games:create`) counts against its own rate instead, "
        "and may then write the game too; the service may require one "
        "(`creation_needs_key`). A group's key (`tlg_...`), or an app key made for "
        "a group, creates the game in that group. `visibility`: who sees the "
        "game, fixed now: a group's game gets its group's default unless it asks, "
        "a game of no group is `public` unless it asks for `unlisted` (`members` "
        "needs a group: 422). A group's game seats its roster's players: each of "
        '`players` is a name, read as names are compared, or `{"id": ...}`; a '
        "name on nobody is a 422 listing the roster's nearest names (`players`), "
        'unless given as `{"name": ..., "new": true}`, which adds the player '
        "to the roster; an id it lacks is a 404.",
        security=KEY_OPTIONAL,
        responses=problems(401, 403, 404, 413, 415, 422, 429, 503),
        response_headers=[LOCATION],
        operation_class=declared(worded=True),
    )
    async def create_game(
        self,
        request: Request,
        data: JSONBody[NewGame],
        games: NamedDependency[Games],
        caller: NamedDependency[App | None],
    ) -> Response[CreatedGame]:
        row, history, token = await games.create(
            data, caller and caller.id, joined(request)
        )
        return created(
            CreatedGame(**summary_of(row, history), write_token=token), row.id
        )

    @game_read(
        "/{game_id:uuid}",
        summary="A game's summary and public state",
        responses=problems(404, 503),
    )
    async def get_game(
        self, game_id: FromPath[UUID], games: NamedDependency[Games]
    ) -> GameSummary:
        row, history = await games.current(game_id)
        return GameSummary(**summary_of(row, history))

    @game_read(
        "/{game_id:uuid}/events",
        summary="The game's stored log, in order",
        responses=problems(404, 422, 503),
    )
    async def get_events(
        self,
        game_id: FromPath[UUID],
        games: NamedDependency[Games],
        after: Annotated[int, QueryParameter(ge=0, le=MAX_VERSION)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=1000)] = 1000,
    ) -> EventPage:
        timeline, events = await games.events(game_id, after, limit)
        codec = games.codec(timeline.row.game)
        return EventPage([published(e, codec) for e in events], timeline.version)

    @read(
        "/",
        summary="Games, newest first",
        description="The public games, and every game of the caller's own group "
        "(a group's key, or an app key made for a group) whatever its visibility; "
        "`group` keeps those of the group of that name.",
        responses=problems(422, 503),
    )
    async def list_games(
        self,
        request: Request,
        game_lists: NamedDependency[GameLists],
        game: Annotated[str | None, QueryParameter(max_length=40)] = None,
        player: Annotated[str | None, QueryParameter(max_length=40)] = None,
        status: Annotated[
            Literal["in_progress", "finished", "abandoned"] | None, QueryParameter()
        ] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=100)] = 20,
        offset: Annotated[int, QueryParameter(ge=0, le=MAX_OFFSET)] = 0,
        in_group: Annotated[
            str | None, QueryParameter(name="group", max_length=40)
        ] = None,
    ) -> Response[GameList]:
        group = listed_for(request)
        listed = await game_lists.games(
            game=game,
            player=player,
            status=status,
            limit=limit,
            offset=offset,
            group=group,
            in_group=in_group,
        )
        return Response(listed, headers=caller_dependent(group))

    @game_read(
        "/{game_id:uuid}/replay",
        worded=True,
        noted=True,
        summary="The game's steps, with sentences, a page at a time",
        description=f"Steps `after + 1` to `after + limit` (at most {MAX_REPLAY_PAGE} "
        f"a page, {REPLAY_PAGE} by default: most games fit in one); `next` is the "
        "`after` of the next page, null on the last.",
        responses={
            200: ResponseSpec(
                data_container=Replay,
                generate_examples=False,
                description="A page of steps",
            ),
            **problems(404, 422, 503),
        },
    )
    async def get_replay(
        self,
        request: Request,
        game_id: FromPath[UUID],
        games: NamedDependency[Games],
        after: Annotated[int, QueryParameter(ge=0)] = 0,
        limit: Annotated[int, QueryParameter(ge=1, le=MAX_REPLAY_PAGE)] = REPLAY_PAGE,
    ) -> Response[bytes]:
        # Read before the game: a note is on a step the game had when it was written.
        notes = await games.notes.in_force(game_id)

        def encoded(steps: list[replay.Step], next: int | None) -> bytes:
            return msgspec.json.encode(replay_of(steps, next, notes))

        page = await games.replay(
            game_id, after, limit, language_of(request), render=encoded
        )
        return Response(page, media_type=MediaType.JSON)

    @game_read(
        "/{game_id:uuid}/replay/{step:int}",
        worded=True,
        noted=True,
        summary="The game after N moves",
        responses=problems(404, 503),
    )
    async def get_replay_step(
        self,
        request: Request,
        game_id: FromPath[UUID],
        step: FromPath[int],
        games: NamedDependency[Games],
    ) -> ReplayFrame:
        frame, notes = await games.noted_frame(game_id, step, language_of(request))
        return ReplayFrame(**msgspec.structs.asdict(frame), notes=notes)

    @game_read(
        "/{game_id:uuid}/replay/{step:int}/image",
        worded=True,
        variant=picture_variant,
        summary="The game after N moves as a picture, or a GIF of several steps",
        description="The table as everyone sees it after the step (never a hand): "
        "SVG or PNG, chosen by `format` or `Accept`, in the language of `lang` "
        "or else `Accept-Language`. A GIF (`format=gif`, or `from` or `to` given) "
        "shows steps `from` (the path's step by default) to `to` (at most "
        f"{MAX_FRAMES} steps on, the last step by default), one a frame.",
        responses={
            200: ResponseSpec(
                data_container=bytes,
                generate_examples=False,
                media_type="image/png",
                description="The picture, as SVG (`image/svg+xml`), PNG "
                "(`image/png`) or GIF (`image/gif`)",
            ),
            **problems(404, 406, 422, 503),
        },
        operation_class=declared_picture(),
    )
    async def get_step_image(
        self,
        request: Request,
        game_id: FromPath[UUID],
        step: FromPath[int],
        pictures: NamedDependency[Pictures],
        format: Annotated[Format | None, QueryParameter()] = None,
        first: Annotated[
            int | None, QueryParameter(name="from", ge=0, le=MAX_VERSION)
        ] = None,
        last: Annotated[
            int | None, QueryParameter(name="to", ge=0, le=MAX_VERSION)
        ] = None,
        lang: Annotated[Literal["en", "fr"] | None, QueryParameter()] = None,
    ) -> Response[bytes]:
        kind = picture_format(request)
        first, last = steps_asked(kind, step, first, last)
        language = picture_language(request)
        drawn = await pictures.draw(game_id, first, last, kind, language)
        headers = {"X-Content-Type-Options": "nosniff"}
        if kind == "svg":
            headers["Content-Security-Policy"] = SVG_POLICY
        return Response(drawn.content, media_type=MEDIA_TYPES[kind], headers=headers)

    @game_read(
        "/{game_id:uuid}/scoresheet",
        summary="Points per round, totals and winners",
        responses=problems(404, 503),
    )
    async def get_scoresheet(
        self, game_id: FromPath[UUID], games: NamedDependency[Games]
    ) -> GameSheet:
        _, history = await games.current(game_id)
        return score_sheet(history)

    @game_stream(
        "/{game_id:uuid}/stream",
        summary="Server-Sent Events: each move as stored",
        media_type="text/event-stream",
        responses={
            200: ResponseSpec(
                data_container=LoggedEvents,
                generate_examples=False,
                media_type="text/event-stream",
                description="One `move` event per stored move: the SSE `id` is its "
                "version and `data` the stored event, as /events gives it.",
            ),
            **problems(404, 422, 503),
        },
    )
    async def stream_moves(
        self,
        game_id: FromPath[UUID],
        games: NamedDependency[Games],
        live: NamedDependency[LiveLog],
        last_event_id: Annotated[
            int | None, HeaderParameter(name="Last-Event-ID", ge=0, le=MAX_VERSION)
        ] = None,
        after: Annotated[int | None, QueryParameter(ge=0, le=MAX_VERSION)] = None,
    ) -> ServerSentEvent:
        """From the version in Last-Event-ID (a reconnecting browser sends it) or
        `after`; without either, from the moves stored from now on."""
        row, history = await games.current(game_id)
        start = last_event_id if last_event_id is not None else after
        if start is None:
            start = history.version
        codec = games.codec(row.game)
        return ServerSentEvent(stream_of(games, live, row, codec, start))


def move_route(registry: Registry) -> HTTPRouteHandler:
    """`POST /games/{id}/moves` for an app that hosts the games of `registry`: its
    body is any of their moves, decoded strictly (`service.application.moves`)."""
    bodies = move_bodies(registry)

    @post(
        "/games/{game_id:uuid}/moves",
        tags=["games"],
        status_code=201,
        summary="Log one move",
        description=f"A game holds at most {MAX_MOVES:,} moves, undos included, "
        "whether logged here or imported: a move past them is a 422. The bearer "
        "credential is the game's write token, or the app key that created the "
        "game (scope `moves:write`).",
        before_request=holds_write_token,
        opt={SCOPE: MOVES_WRITE, TAKES_WRITE_TOKEN: True},
        dto=strict_body(Annotated[bodies.union, Tagged("type")]),
        return_dto=None,
        request_max_body_size=MAX_JSON_BODY_BYTES,
        security=[{"writeToken": []}, {APP_KEY_SCHEME: []}, {GROUP_KEY_SCHEME: []}],
        responses=problems(401, 403, 404, 409, 413, 415, 422, 503),
        operation_class=declared(worded=True),
    )
    async def post_move(
        game_id: FromPath[UUID],
        data: JSONBody[Any],
        games: NamedDependency[Games],
        idempotency_key: Annotated[
            str | None, HeaderParameter(name="Idempotency-Key", max_length=200)
        ] = None,
    ) -> MoveAccepted:
        move, expected_version = bodies.to_domain(data)
        idempotency = Idempotency.of(idempotency_key, data)
        history = await games.submit(game_id, move, expected_version, idempotency)
        return MoveAccepted(history.version, history.view())

    return post_move
