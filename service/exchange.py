"""Games in and out of the service: NDJSON export and import, and BG Stats results.

The export format (API.md) is one JSON object per line: the game's creation as stored
(version 1: game, players, first player, seed, options, title, ...), then every stored
move in order, exactly as it was logged (an undo is `{"type": "undo"}`). An import plays
every move through the game's engine, like a table logging them one by one, and is
refused whole, naming the line and the ruling, at the first one the rules refuse; an
accepted file becomes a new game (new id, new write token) stored in one transaction.

The BG Stats answer follows the app's "push plays" format, documented at
https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/
(players with name, score, winner, startPlayer and rank; the game with highestWins and
noPoints; playDate as "YYYY-MM-DD HH:MM:SS").
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.di import NamedDependency
from litestar.openapi.spec import (
    OpenAPIMediaType,
    OpenAPIType,
    Operation,
    RequestBody,
    Schema,
)
from litestar.params import FromPath

from domain.errors import GameFinished, RuleError
from domain.history import History
from service.games import GameCreated, Games
from service.openapi import problems
from service.problems import Problem
from service.store import GameRow, StoredEvent
from service.wire import NewGame

NDJSON = "application/x-ndjson"
# The request body limit (Settings.max_body_bytes) bounds the bytes; this bounds the
# work: the longest simulated game has about 420 moves.
MAX_IMPORT_MOVES = 5000

GAME_NAMES = {
    "dobro": "Dobro",
    "dobro-pixar": "Dobro Pixar",
    "dozito": "Dozito",
    "double-donkey": "Double Donkey",
}


class ImportedGame(msgspec.Struct, kw_only=True):
    """What `POST /games/import` answers: the new game and, shown this once, its
    write token."""

    id: uuid.UUID
    game: str
    players: list[str]
    version: int
    status: str
    winners: list[str]
    write_token: str


class BgStatsGame(msgspec.Struct, kw_only=True, rename="camel"):
    name: str
    source_game_id: str
    highest_wins: bool
    no_points: bool


class BgStatsPlayer(msgspec.Struct, kw_only=True, rename="camel"):
    name: str
    source_player_id: str
    score: int | None
    winner: bool
    start_player: bool
    rank: int


class BgStatsPlay(msgspec.Struct, kw_only=True, rename="camel"):
    """A finished game as one BG Stats play (the app's push-plays format)."""

    source_name: str
    source_play_id: str
    play_date: str
    duration_min: int
    game: BgStatsGame
    players: list[BgStatsPlayer]


# ---------------------------------------------------------------------------- export


async def export_game(games: Games, game_id: uuid.UUID) -> bytes:
    """The game as NDJSON: its creation line, then one line per stored move."""
    row, events = await _stored(games, game_id)
    codec = games.codecs[row.game]
    moves = [codec.record_from_json(event.data).move for event in events[1:]]
    # Re-encoded rather than copied: PostgreSQL's jsonb reorders keys, and an export
    # should read (and diff) the same however often it goes in and out.
    created = msgspec.json.decode(events[0].data, type=GameCreated)
    lines = [_encode(created), *map(_encode, moves)]
    return b"".join(line + b"\n" for line in lines)


def _encode(line: msgspec.Struct) -> bytes:
    """One export line; dict keys sorted, since jsonb does not keep their order."""
    return msgspec.json.encode(line, order="deterministic")


async def _stored(
    games: Games, game_id: uuid.UUID
) -> tuple[GameRow, list[StoredEvent]]:
    row = await games.store.get_game(game_id)
    if row is None:
        raise Problem(404, f"There is no game {game_id}.")
    return row, await games.store.read(game_id, 0)


# ---------------------------------------------------------------------------- import


async def import_game(
    games: Games, body: bytes, game_id: uuid.UUID | None = None
) -> tuple[ImportedGame, History]:
    """Check every line with the engine and store the game whole, or raise a Problem
    naming the first line that is refused (nothing is stored then)."""
    lines = _lines(body)
    request = _creation(lines[0])
    start = history = _start(games, request)
    codec = games.codecs[history.rules.name]
    records = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            record, history = history.play(
                msgspec.json.decode(line, type=codec.move_type)
            )
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as error:
            raise _bad_line(number, f"it is not a move: {error}.") from None
        except RuleError as error:
            raise _refused(number, str(error), error.rule) from None
        except GameFinished as error:
            raise _refused(number, error.message, "A2") from None
        records.append(record)
    row, token = await games.store_new(request, start, records, game_id)
    winners = history.winners
    answer = ImportedGame(
        id=row.id,
        game=row.game,
        players=list(row.players),
        version=history.version,
        status="in_progress" if winners is None else "finished",
        winners=list(winners or ()),
        write_token=token,
    )
    return answer, history


def _lines(body: bytes) -> list[bytes]:
    lines = [line.rstrip(b"\r") for line in body.rstrip(b"\r\n").split(b"\n")]
    if lines == [b""]:
        raise _bad_line(1, "the file is empty: it needs the game's creation line.")
    if len(lines) > MAX_IMPORT_MOVES + 1:
        raise Problem(413, f"A game of more than {MAX_IMPORT_MOVES} moves is refused.")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise _bad_line(number, "the line is empty.")
    return lines


def _creation(line: bytes) -> NewGame:
    try:
        fields = msgspec.json.decode(line)
        if not isinstance(fields, dict) or fields.pop("type", None) != "game_created":
            raise _bad_line(1, 'the first line must be the game\'s "game_created".')
        return msgspec.convert(fields, NewGame)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError) as error:
        raise _bad_line(1, f"it is not a game's creation: {error}.") from None


def _start(games: Games, request: NewGame) -> History:
    try:
        # Export always records the first player and the seed, so nothing is drawn.
        return games.start(request)
    except RuleError as error:
        raise _refused(1, str(error), error.rule) from None
    except Problem as problem:
        raise _bad_line(1, problem.detail or "the set-up is refused.") from None


def _bad_line(number: int, reason: str) -> Problem:
    return Problem(422, f"Line {number}: {reason}", line=number)


def _refused(number: int, message: str, rule: str) -> Problem:
    problem = Problem(422, f"Line {number}: {message}", rule=rule, line=number)
    problem.title = "Move not allowed"
    return problem


# ---------------------------------------------------------------------------- BG Stats


async def bgstats_play(games: Games, game_id: uuid.UUID) -> BgStatsPlay:
    """A finished game's result as BG Stats reads it; 409 while it goes on."""
    row, history = await games.current(game_id)
    (first,) = await games.store.read(game_id, 0, limit=1)
    (last,) = await games.store.read(game_id, history.version - 1)
    winners = history.winners
    if winners is None:
        raise Problem(409, "The game is not finished: it has no result to export yet.")
    view = msgspec.to_builtins(history.rules.view(history.state))
    totals = view.get("totals") if isinstance(view, dict) else None
    highest_wins = view.get("scoring") != "fewest-first"
    played = row.played_at or row.created_at
    return BgStatsPlay(
        source_name="tablelog",
        source_play_id=str(row.id),
        play_date=played.strftime("%Y-%m-%d %H:%M:%S"),
        duration_min=_minutes(first.recorded_at, last.recorded_at),
        game=BgStatsGame(
            name=GAME_NAMES.get(row.game, row.game),
            source_game_id=row.game,
            highest_wins=highest_wins,
            no_points=totals is None,
        ),
        players=_bgstats_players(row, winners, totals, highest_wins),
    )


def _bgstats_players(
    row: GameRow,
    winners: tuple[str, ...],
    totals: dict[str, int] | None,
    highest_wins: bool,
) -> list[BgStatsPlayer]:
    """Winners rank 1; the others after them by score (ties share a rank), or all
    together when the game has no points."""

    def standing(name: str) -> tuple[bool, int]:
        score = (totals or {}).get(name, 0)
        return (name not in winners, -score if highest_wins else score)

    return [
        BgStatsPlayer(
            name=name,
            source_player_id=name,
            score=None if totals is None else totals.get(name),
            winner=name in winners,
            start_player=name == row.first_player,
            rank=1 + sum(standing(other) < standing(name) for other in row.players),
        )
        for name in row.players
    ]


def _minutes(start: datetime, end: datetime) -> int:
    return max(0, round((end - start).total_seconds() / 60))


# ---------------------------------------------------------------------------- HTTP


@dataclass
class _ImportOperation(Operation):
    """The import reads its body raw, so its request body is described here."""

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            content={NDJSON: OpenAPIMediaType(schema=Schema(type=OpenAPIType.STRING))},
            description="An export: the game's creation line, then one line per move.",
            required=True,
        )


class ExchangeController(Controller):
    path = "/games"
    tags = ("exchange",)

    @get(
        "/{game_id:uuid}/export",
        media_type=NDJSON,
        summary="The game as NDJSON: its creation, then one line per move",
        responses=problems(400, 404, 503),
    )
    async def export(
        self, game_id: FromPath[uuid.UUID], games: NamedDependency[Games]
    ) -> Response[bytes]:
        return Response(await export_game(games, game_id), media_type=NDJSON)

    @post(
        "/import",
        status_code=201,
        summary="Create a new game from an export, checking every move",
        description="The body is an export (NDJSON). A file the rules refuse stores "
        "nothing: the 422 names the line (`line`) and the ruling (`rule`).",
        responses=problems(400, 413, 422, 503),
        operation_class=_ImportOperation,
    )
    async def import_(
        self, request: Request, games: NamedDependency[Games]
    ) -> ImportedGame:
        # Read raw: Litestar would parse a `data` body as one JSON document.
        answer, _ = await import_game(games, await request.body())
        return answer

    @get(
        "/{game_id:uuid}/bgstats",
        summary="A finished game's result as a BG Stats play",
        description="The BG Stats app's push-plays format. 409 while the game goes on.",
        responses=problems(400, 404, 409, 503),
    )
    async def bgstats(
        self, game_id: FromPath[uuid.UUID], games: NamedDependency[Games]
    ) -> BgStatsPlay:
        return await bgstats_play(games, game_id)
