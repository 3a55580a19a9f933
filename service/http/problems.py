"""Every error the API answers, as RFC 9457 problem details (problem+json), and how a
handler declares the ones it may answer in the OpenAPI document."""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any
from uuid import UUID

import msgspec
import psycopg
import psycopg_pool
from litestar import Request, Response
from litestar.exceptions import (
    HTTPException,
    TooManyRequestsException,
    ValidationException,
)
from litestar.openapi import ResponseSpec
from litestar.plugins.problem_details import (
    ProblemDetailsConfig,
    ProblemDetailsException,
    ProblemDetailsPlugin,
)

from domain.errors import GameFinished, GameInProgress, RuleError
from domain.wording import Message, message
from service.application import errors
from service.application.wording import DEFAULT, cited
from service.http.headers import game_address
from service.http.languages import negotiated, spoken
from service.storage.store import CommitFailed

log = logging.getLogger(__name__)

REFUSED_MOVE = "Move not allowed"

# What a 503 asks a client to wait: a primary's failover takes a few seconds.
RETRY_AFTER_SECONDS = 2
# What a 503 for a busy process asks a client to wait: a picture takes well under
# a second to draw.
BUSY_RETRY_AFTER_SECONDS = 1

# The status of each refusal the application layer raises.
_STATUS: dict[type[errors.Refused], int] = {
    errors.NotFound: 404,
    errors.Invalid: 422,
    errors.Conflict: 409,
    errors.Duplicate: 409,
    errors.PlayedAgain: 409,
    errors.TokenMissing: 401,
    errors.TokenWrong: 403,
    errors.TooLarge: 413,
    errors.Busy: 503,
    errors.KeyRefused: 401,
    errors.KeyUnknown: 401,
    errors.KeyNotAllowed: 403,
}


class NearName(msgspec.Struct, kw_only=True):
    """A roster player a name that is nobody's may have meant."""

    id: UUID
    name: str


class UnknownSeat(msgspec.Struct, kw_only=True):
    """A seat of a group's new game whose name is on nobody of its roster: its
    index in `players`, the name as read, and the roster's nearest names, the
    closest first."""

    seat: int
    name: str
    nearest: list[NearName]


class ProblemDetails(msgspec.Struct, kw_only=True, omit_defaults=True):
    """An error answer (RFC 9457). `rule` names the ruling a refused move breaks;
    `line` the line of an import that was refused; `version` the game's version on a
    409 conflict; `game_id` the game an import already became, or the game a game
    played again already led to; `player_id` the roster player who has a name
    already; `players` the seats of a group's new game that name nobody on its
    roster. A field that does not apply is left out."""

    status: int
    title: str
    detail: str
    type: str | None = None
    rule: str | None = None
    line: int | None = None
    version: int | None = None
    game_id: UUID | None = None
    player_id: UUID | None = None
    players: list[UnknownSeat] | None = None


class Problem(ProblemDetailsException):
    """An error answer: `title` names the kind of problem, `detail` what happened.

    A refusal a player meets also carries its sentence as data (`said`): the answer
    words it, and a refused move's title, in the request's `Accept-Language`. Every
    answer says which language it speaks (`Content-Language`), and that it depends on
    that header (`Vary`).
    """

    def __init__(
        self, status: int, detail: str, said: Message | None = None, **extra: Any
    ) -> None:
        super().__init__(
            status_code=status,
            title=REFUSED_MOVE if "rule" in extra else HTTPStatus(status).phrase,
            detail=detail,
            extra=extra or None,
        )
        self.said = said

    def to_response(self, request: Request) -> Response:
        language = DEFAULT
        if self.said is not None:
            accepted = request.headers.get("accept-language")
            language = negotiated(accepted, spoken(request))
            self.detail = language.render(self.said)
            if self.extra and "rule" in self.extra:
                self.title = language.render(message("title.move_refused"))
        self.headers = {
            **(self.headers or {}),
            "Content-Language": language.code,
            # A refusal may depend on the credential: a game hidden from one
            # caller is another's to read.
            "Vary": "Accept-Language, Authorization",
        }
        return super().to_response(request)


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The `responses=` of a handler that may answer these error statuses.

    400 is always among them: Litestar would otherwise document its own validation
    error shape for it, which this API never answers (its 400 is problem+json too).
    """
    return {
        status: ResponseSpec(
            data_container=ProblemDetails,
            generate_examples=False,
            description=HTTPStatus(status).phrase,
            media_type="application/problem+json",
        )
        for status in sorted({400, *statuses})
    }


def refused(error: errors.Refused) -> Problem:
    problem = Problem(_STATUS[type(error)], error.detail, error.said, **error.extra)
    if isinstance(error, errors.Busy):
        problem.headers = {"Retry-After": str(BUSY_RETRY_AFTER_SECONDS)}
    if isinstance(error, errors.Duplicate | errors.PlayedAgain) and error.game_id:
        # The game the import already is, or the game played again already: where
        # a client finds it, as a 201 says where the new game is.
        problem.headers = {"Location": game_address(error.game_id)}
    return problem


def rule_broken(error: RuleError) -> Problem:
    """A1: the move is refused, nothing is stored, and the ruling is named (its
    sentence is worded in the game's words when answered)."""
    return Problem(422, str(error), cited(error), rule=error.rule)


def game_finished(error: GameFinished) -> Problem:
    return Problem(409, str(error), error.said, rule=error.rule)


def game_in_progress(error: GameInProgress) -> Problem:
    """409: a game still being played is not played again (T4)."""
    return Problem(409, str(error), cited(error), rule=error.rule)


def not_json(error: msgspec.DecodeError) -> Problem:
    """400: a body that is not JSON at all."""
    return Problem(400, f"The body is not valid JSON: {error}.")


def invalid_body(error: ValidationException | msgspec.ValidationError) -> Problem:
    """422: JSON the API cannot take (a wrong type, a missing or unknown field)."""
    if isinstance(error, msgspec.ValidationError):
        return Problem(422, f"The request is not valid: {error}.")
    errors_ = error.extra if isinstance(error.extra, list) else []
    reasons = "; ".join(
        f"{e['key']}: {e.get('message')}" if e.get("key") else str(e.get("message"))
        for e in errors_
        if isinstance(e, dict)
    )
    return Problem(422, f"The request is not valid: {reasons or error.detail}.")


def http_error(error: HTTPException) -> Problem:
    problem = Problem(error.status_code, str(error.detail))
    problem.headers = error.headers
    return problem


def too_many_requests(error: TooManyRequestsException) -> Problem:
    """429 from the rate limit, with the seconds to wait (Litestar's middleware
    gives them as RateLimit-Reset; clients and proxies read Retry-After)."""
    headers = dict(error.headers or {})
    wait = headers.get("RateLimit-Reset", "60")
    extra = error.extra if isinstance(error.extra, dict) else {}
    counted = "with your app key" if extra.get("counted") == "app key" else None
    what = extra.get("what", "games created or imported")
    problem = Problem(
        429,
        f"Too many {what} {counted or 'from your address'}: try again in {wait} s.",
    )
    problem.headers = headers | {"Retry-After": wait}
    return problem


def too_deep(error: RecursionError) -> Problem:
    """422: JSON nested deeper than the decoder follows (a body no client sends)."""
    return Problem(422, "The request is not valid: its JSON is nested too deeply.")


def unstorable(error: psycopg.DataError) -> Problem:
    """422: a value PostgreSQL cannot hold reached a query. The checks of the request
    bodies and parameters should leave none; the answer still names the cause."""
    log.info("refused data the database cannot store: %s", error)
    reason = error.diag.message_primary or str(error)
    if isinstance(error, psycopg.errors.NumericValueOutOfRange):
        detail = f"A number in the request is out of range: {reason}."
    elif isinstance(error, psycopg.errors.DatetimeFieldOverflow):
        detail = f"A date in the request is out of range: {reason}."
    elif isinstance(error, psycopg.errors.UntranslatableCharacter) or "NUL" in reason:
        detail = (
            "Text in the request holds a NUL character (\\u0000): it cannot be stored."
        )
    else:
        detail = f"The request holds a value that cannot be stored: {reason}."
    return Problem(422, detail)


def database_unavailable(error: Exception) -> Problem:
    """503 while the database is away (down, restarting, failing over), with the
    seconds to wait: a failover takes a few.

    A pool that found no connection sent nothing. A connection lost during a
    statement may have lost it after the commit: the move may be stored, and the
    answer says so. Sending it again with the same Idempotency-Key (or the same
    expected_version, which then answers 409 if it was) stores it at most once."""
    log.warning("database unavailable: %s", error)
    if isinstance(error, psycopg_pool.PoolTimeout):
        detail = "The database is not answering; try again in a moment."
    else:
        detail = (
            "The database stopped answering during the request; a move may have "
            "been stored. Send it again in a moment with the same Idempotency-Key: "
            "it is stored once."
        )
    return _unavailable(detail)


def commit_failed(error: CommitFailed) -> Problem:
    """503: the commit the move shared with others failed (or never began)."""
    log.warning("shared commit failed: %s", error.reason)
    return _unavailable(
        "The move was not confirmed stored: the database did not complete its "
        "commit. Send it again in a moment; with the same Idempotency-Key it is "
        "stored at most once."
    )


def _unavailable(detail: str) -> Problem:
    problem = Problem(503, detail)
    problem.headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return problem


def unexpected(request: Request, error: Exception) -> Response:
    log.exception("unhandled error on %s %s", request.method, request.url.path)
    return Problem(500, "Something went wrong on our side.").to_response(request)


def plugin() -> ProblemDetailsPlugin:
    return ProblemDetailsPlugin(
        ProblemDetailsConfig(
            exception_to_problem_detail_map={
                errors.Refused: refused,
                RuleError: rule_broken,
                GameFinished: game_finished,
                GameInProgress: game_in_progress,
                ValidationException: invalid_body,
                msgspec.ValidationError: invalid_body,
                msgspec.DecodeError: not_json,
                TooManyRequestsException: too_many_requests,
                HTTPException: http_error,
                psycopg.DataError: unstorable,
                RecursionError: too_deep,
                psycopg.OperationalError: database_unavailable,
                # A write that reached a standby: the primary has just moved.
                psycopg.errors.ReadOnlySqlTransaction: database_unavailable,
                CommitFailed: commit_failed,
                psycopg_pool.PoolTimeout: database_unavailable,
            }
        )
    )
