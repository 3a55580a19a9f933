"""Games in and out over HTTP: the NDJSON export and import, and BG Stats results."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Annotated

from litestar import Controller, Request, Response, post
from litestar.di import NamedDependency
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.openapi.spec import (
    OpenAPIFormat,
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    RequestBody,
    Schema,
)
from litestar.params import FromPath, QueryParameter
from werkzeug.datastructures import MIMEAccept
from werkzeug.http import parse_accept_header

from service.application import exchange
from service.application.errors import TooLarge
from service.application.exchange import BgStatsPlay
from service.application.games import Games
from service.application.keys import App
from service.application.submitting import MAX_MOVES
from service.application.visibility import Visibility
from service.http.caching import game_read
from service.http.callers import GAMES_CREATE, KEY_OPTIONAL, SCOPE, joined, viewer_of
from service.http.headers import LOCATION, created, declared
from service.http.limits import CREATES_GAMES
from service.http.problems import problems
from service.http.wire import ImportedGame

NDJSON = "application/x-ndjson"
# The same file as bytes of no particular type: generators that know no NDJSON
# (openapi-python-client) read and send it as such, with no setting of their own.
OCTET_STREAM = "application/octet-stream"
# An export's media types, NDJSON first: the one answered unless `Accept` ranks the
# other higher.
EXPORTED = (NDJSON, OCTET_STREAM)
# The file's bytes: lines of JSON, which no one JSON Schema describes as a whole.
_FILE = Schema(type=OpenAPIType.STRING, format=OpenAPIFormat.BINARY)


def export_media_type(request: Request) -> str:
    """The media type an export is answered in: NDJSON, or the other when `Accept`
    ranks it higher. An `Accept` that names neither gets NDJSON: an export is never
    refused for its `Accept`."""
    accept = parse_accept_header(request.headers.get("accept") or "*/*", MIMEAccept)
    return accept.best_match(EXPORTED, default=NDJSON)


_VARY = OpenAPIHeader(schema=Schema(type=OpenAPIType.STRING), description="`Accept`.")


@dataclass
class _ExportOperation(declared(tagged=True)):  # type: ignore[misc]
    """The export's 200 in each of its media types (Litestar states one), and
    `Vary` naming `Accept` on it and on the 304."""

    def __post_init__(self) -> None:
        super().__post_init__()
        for status, answer in (self.responses or {}).items():
            if isinstance(answer, OpenAPIResponse) and status in ("200", "304"):
                answer.headers = {**(answer.headers or {}), "Vary": _VARY}
        answer = (self.responses or {}).get("200")
        if isinstance(answer, OpenAPIResponse):
            answer.content = {
                media_type: OpenAPIMediaType(schema=_FILE) for media_type in EXPORTED
            }


_ALREADY_THERE = OpenAPIHeader(
    schema=Schema(type=OpenAPIType.STRING),
    description="The address of the game the file already is (`/games/{id}`).",
)


@dataclass
class _ImportOperation(declared(worded=True)):  # type: ignore[misc]
    """The import reads its body raw, so its request body is described here: as
    bytes, the one media type of the two it takes that every generator knows (one
    it does not know would cost the operation in openapi-python-client). Its 409
    says where the game already there is (`Location`), which the problem answers of
    other operations do not."""

    def __post_init__(self) -> None:
        super().__post_init__()
        answer = (self.responses or {}).get("409")
        if isinstance(answer, OpenAPIResponse):
            answer.headers = {**(answer.headers or {}), "Location": _ALREADY_THERE}
        self.request_body = RequestBody(
            content={OCTET_STREAM: OpenAPIMediaType(schema=_FILE)},
            description="An export: the game's creation line, then one line per "
            f"move. Sent as `{OCTET_STREAM}` or as `{NDJSON}`, read the same.",
            required=True,
        )


class ExchangeController(Controller):
    path = "/games"
    tags = ("exchange",)

    @game_read(
        "/{game_id:uuid}/export",
        noted=True,
        variant=export_media_type,
        media_type=NDJSON,
        summary="The game as NDJSON: its creation, then one line per move",
        description=f"Answered as `{NDJSON}`, or as `{OCTET_STREAM}` (the same "
        "bytes) when `Accept` ranks it higher.",
        responses=problems(400, 404, 503),
        operation_class=_ExportOperation,
    )
    async def export_game(
        self,
        request: Request,
        game_id: FromPath[uuid.UUID],
        games: NamedDependency[Games],
    ) -> Response[bytes]:
        exported = await exchange.export_game(games, game_id)
        return Response(exported, media_type=export_media_type(request))

    @post(
        "/import",
        status_code=201,
        summary="Create a new game from an export, checking every move",
        description=f"The body is an export (NDJSON) of at most {MAX_MOVES:,} moves. "
        "A file the rules refuse stores nothing: the 422 names the line (`line`) and "
        "the ruling (`rule`). A file that is a game already here stores nothing "
        "either: the 409 names that game (`game_id`, and `Location`). A game is its "
        "play: the same game, players, first player, seed and options, and the same "
        "moves or the first of them, whoever stored it; its title, date, place, "
        "notes, group, times and notes on moves make no other game. Imports count "
        "with creations against the client's limit a minute (429 with Retry-After "
        "past it), or its app key's (scope `games:create`), which may then write "
        "the game. The file's `group` is ignored: a group's key (`tlg_...`), or an "
        "app key made for a group, imports the game into that group. Who sees it: "
        "`visibility`, as for `POST /games` (the file's own is ignored). Only a "
        "game the caller lists (public, or of its own group) is ever the game "
        "already here.",
        security=KEY_OPTIONAL,
        responses=problems(400, 401, 403, 409, 413, 415, 422, 429, 503),
        response_headers=[LOCATION],
        operation_class=_ImportOperation,
        opt={"body_media_type": EXPORTED, CREATES_GAMES: True, SCOPE: GAMES_CREATE},
    )
    async def import_game(
        self,
        request: Request,
        games: NamedDependency[Games],
        caller: NamedDependency[App | None],
        visibility: Annotated[Visibility | None, QueryParameter()] = None,
    ) -> Response[ImportedGame]:
        lines = await _lines_of(request)
        imported = await exchange.import_lines(
            games,
            lines,
            app_key=caller and caller.id,
            group=joined(request),
            visibility=visibility,
            viewer=viewer_of(request),
        )
        row, history = imported.row, imported.history
        winners = history.winners
        answer = ImportedGame(
            id=row.id,
            game=row.game,
            players=list(row.players),
            version=history.version,
            status=history.status,
            winners=list(winners or ()),
            write_token=imported.write_token,
        )
        return created(answer, row.id)

    @game_read(
        "/{game_id:uuid}/bgstats",
        summary="A finished game's result as a BG Stats play",
        description="The BG Stats app's push-plays format. 409 while the game goes on.",
        responses=problems(400, 404, 409, 503),
    )
    async def get_bgstats(
        self, game_id: FromPath[uuid.UUID], games: NamedDependency[Games]
    ) -> BgStatsPlay:
        return await exchange.bgstats_play(games, game_id)


async def _lines_of(request: Request) -> exchange.ImportLines:
    """The body's lines, split as it arrives: raw, since Litestar would parse a
    `data` body as one JSON document, and without keeping the bytes beside them.
    Its bound (`max_import_bytes`, set where the app is built) is Litestar's: a
    Content-Length past it is refused before a byte is read, a body sent without
    one once it passes."""
    lines = exchange.ImportLines()
    try:
        async for chunk in request.stream():
            lines.add(chunk)
    except RequestEntityTooLarge:
        most = request.route_handler.resolve_request_max_body_size()
        raise TooLarge(
            f"An import is at most {most:,} bytes (max_import_bytes): this file is "
            "larger."
        ) from None
    return lines
